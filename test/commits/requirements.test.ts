import t from 'tap';
import { checkRequirements, isCreate, parseRequirement } from '../../src/commits/index.js';
import { parseJson } from '../../src/json/index.js';
import { REAL, REAL_FIXTURES_SKIP, realFixturesAvailable, realVersion, requirements, smallV2 } from '../helpers/commit-bases.js';

const base = smallV2().metadata;

t.test('every requirement type reads from its wire form', async (t) => {
  const parsed = requirements(`[
    {"type": "assert-create"},
    {"type": "assert-table-uuid", "uuid": "u"},
    {"type": "assert-ref-snapshot-id", "ref": "main", "snapshot-id": 9223372036854775807},
    {"type": "assert-ref-snapshot-id", "ref": "b", "snapshot-id": null},
    {"type": "assert-ref-snapshot-id", "ref": "c"},
    {"type": "assert-last-assigned-field-id", "last-assigned-field-id": 3},
    {"type": "ASSERT-CURRENT-SCHEMA-ID", "current-schema-id": 0},
    {"type": "assert-last-assigned-partition-id", "last-assigned-partition-id": 999},
    {"type": "assert-default-spec-id", "default-spec-id": 0},
    {"type": "assert-default-sort-order-id", "default-sort-order-id": 0}
  ]`);
  t.same(parsed, [
    { type: 'assert-create' },
    { type: 'assert-table-uuid', uuid: 'u' },
    { type: 'assert-ref-snapshot-id', ref: 'main', snapshotId: 9223372036854775807n },
    { type: 'assert-ref-snapshot-id', ref: 'b', snapshotId: null },
    { type: 'assert-ref-snapshot-id', ref: 'c', snapshotId: null },
    { type: 'assert-last-assigned-field-id', lastAssignedFieldId: 3 },
    { type: 'assert-current-schema-id', currentSchemaId: 0 },
    { type: 'assert-last-assigned-partition-id', lastAssignedPartitionId: 999 },
    { type: 'assert-default-spec-id', defaultSpecId: 0 },
    { type: 'assert-default-sort-order-id', defaultSortOrderId: 0 },
  ]);
});

t.test('a malformed requirement is a bad request naming the field', async (t) => {
  const bad = (json: string, path: RegExp) => t.throws(() => parseRequirement(parseJson(json), 'requirements[1]'), { code: 'BAD_REQUEST', message: path });
  bad('{"type": "assert-nothing"}', /requirements\[1\]\.type/);
  bad('{"type": "assert-view-uuid", "uuid": "u"}', /requirements\[1\]\.type/);
  bad('{}', /requirements\[1\]\.type/);
  bad('{"type": "assert-table-uuid"}', /requirements\[1\]\.uuid/);
  bad('{"type": "assert-current-schema-id", "current-schema-id": "0"}', /requirements\[1\]\.current-schema-id/);
  bad('{"type": "assert-ref-snapshot-id", "snapshot-id": 1}', /requirements\[1\]\.ref/);
  bad('{"type": "assert-ref-snapshot-id", "ref": "main", "snapshot-id": 1.5}', /requirements\[1\]\.snapshot-id/);
  bad('[]', /requirements\[1\]/);
});

t.test('requirements that hold pass', async (t) => {
  t.doesNotThrow(() =>
    checkRequirements(
      base,
      requirements(`[
        {"type": "assert-table-uuid", "uuid": "11111111-2222-4333-8444-555555555555"},
        {"type": "assert-ref-snapshot-id", "ref": "main", "snapshot-id": 2},
        {"type": "assert-ref-snapshot-id", "ref": "new-branch", "snapshot-id": null},
        {"type": "assert-last-assigned-field-id", "last-assigned-field-id": 3},
        {"type": "assert-current-schema-id", "current-schema-id": 0},
        {"type": "assert-last-assigned-partition-id", "last-assigned-partition-id": 999},
        {"type": "assert-default-spec-id", "default-spec-id": 0},
        {"type": "assert-default-sort-order-id", "default-sort-order-id": 0}
      ]`),
    ),
  );
});

t.test('the table uuid is compared ignoring case, as Java equalsIgnoreCase', async (t) => {
  t.doesNotThrow(() => checkRequirements(base, [{ type: 'assert-table-uuid', uuid: '11111111-2222-4333-8444-555555555555'.toUpperCase() }]));
});

t.test('each requirement that no longer holds fails the commit with 409 COMMIT_FAILED', async (t) => {
  const failing = [
    '{"type": "assert-table-uuid", "uuid": "00000000-0000-0000-0000-000000000000"}',
    '{"type": "assert-ref-snapshot-id", "ref": "main", "snapshot-id": 1}',
    '{"type": "assert-ref-snapshot-id", "ref": "main", "snapshot-id": null}',
    '{"type": "assert-ref-snapshot-id", "ref": "missing", "snapshot-id": 2}',
    '{"type": "assert-last-assigned-field-id", "last-assigned-field-id": 4}',
    '{"type": "assert-current-schema-id", "current-schema-id": 1}',
    '{"type": "assert-last-assigned-partition-id", "last-assigned-partition-id": 1000}',
    '{"type": "assert-default-spec-id", "default-spec-id": 1}',
    '{"type": "assert-default-sort-order-id", "default-sort-order-id": 1}',
  ];
  for (const r of failing) t.throws(() => checkRequirements(base, requirements(`[${r}]`)), { code: 'COMMIT_FAILED' }, r);
});

t.test('a v1 table without a uuid fails every uuid assertion', async (t) => {
  const v1 = smallV2((j) => {
    j['format-version'] = 1;
    delete j['table-uuid'];
  }).metadata;
  t.throws(() => checkRequirements(v1, [{ type: 'assert-table-uuid', uuid: 'x' }]), { code: 'COMMIT_FAILED' });
});

t.test('assert-create passes for a missing table and fails for an existing one', async (t) => {
  t.doesNotThrow(() => checkRequirements(undefined, [{ type: 'assert-create' }]));
  t.throws(() => checkRequirements(base, [{ type: 'assert-create' }]), { code: 'COMMIT_FAILED' });
});

t.test('a create carries no other requirement (Java CatalogHandlers.isCreate)', async (t) => {
  t.equal(isCreate([{ type: 'assert-create' }]), true);
  t.equal(isCreate([{ type: 'assert-current-schema-id', currentSchemaId: 0 }]), false);
  t.equal(isCreate([]), false);
  const mixed = requirements('[{"type": "assert-create"}, {"type": "assert-current-schema-id", "current-schema-id": 0}]');
  t.throws(() => isCreate(mixed), { code: 'ILLEGAL_ARGUMENT' });
  t.throws(() => checkRequirements(undefined, mixed), { code: 'ILLEGAL_ARGUMENT' });
});

t.test('a change that does not create a missing table is NO_SUCH_TABLE', async (t) => {
  t.throws(() => checkRequirements(undefined, []), { code: 'NO_SUCH_TABLE' });
  t.throws(() => checkRequirements(undefined, [{ type: 'assert-current-schema-id', currentSchemaId: 0 }]), { code: 'NO_SUCH_TABLE' });
});

t.test('requirements against real tables: refs that are branches and tags', { skip: realFixturesAvailable() ? false : REAL_FIXTURES_SKIP }, async (t) => {
  const real = realVersion(REAL.v2Refs).metadata;
  t.doesNotThrow(() =>
    checkRequirements(real, requirements('[{"type": "assert-ref-snapshot-id", "ref": "EOW-01", "snapshot-id": 293191470325800019}, {"type": "assert-ref-snapshot-id", "ref": "test-branch", "snapshot-id": 7558608030923099867}]')),
  );
  t.throws(() => checkRequirements(real, requirements('[{"type": "assert-ref-snapshot-id", "ref": "EOW-01", "snapshot-id": null}]')), { code: 'COMMIT_FAILED' });
  t.throws(() => checkRequirements(real, requirements('[{"type": "assert-ref-snapshot-id", "ref": "test-branch", "snapshot-id": 154324552338474173}]')), { code: 'COMMIT_FAILED' });
});
