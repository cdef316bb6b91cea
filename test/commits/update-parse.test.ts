import t from 'tap';
import { parseUpdate } from '../../src/commits/index.js';
import { parseJson } from '../../src/json/index.js';
import { updates } from '../helpers/commit-bases.js';

const one = (json: string) => parseUpdate(parseJson(json), 'updates[0]');

t.test('every table update of the spec reads from its wire form', async (t) => {
  const parsed = updates(`[
    {"action": "assign-uuid", "uuid": "u-1"},
    {"action": "upgrade-format-version", "format-version": 3},
    {"action": "add-schema", "schema": {"type": "struct", "schema-id": 5, "fields": [{"id": 1, "name": "a", "required": true, "type": "int"}]}, "last-column-id": 1},
    {"action": "set-current-schema", "schema-id": -1},
    {"action": "add-spec", "spec": {"spec-id": 0, "fields": [{"name": "a_b", "transform": "bucket[4]", "source-id": 1, "field-id": 1000}]}},
    {"action": "set-default-spec", "spec-id": -1},
    {"action": "add-sort-order", "sort-order": {"order-id": 1, "fields": [{"transform": "identity", "source-id": 1, "direction": "DESC", "null-order": "nulls-last"}]}},
    {"action": "set-default-sort-order", "sort-order-id": -1},
    {"action": "add-snapshot", "snapshot": {"snapshot-id": 9223372036854775806, "sequence-number": 3, "timestamp-ms": 1, "manifest-list": "m.avro", "summary": {"operation": "append"}}},
    {"action": "set-snapshot-ref", "ref-name": "main", "snapshot-id": 9223372036854775806, "type": "BRANCH", "min-snapshots-to-keep": 2, "max-snapshot-age-ms": 10, "max-ref-age-ms": 20},
    {"action": "remove-snapshots", "snapshot-ids": [1, 2, 1]},
    {"action": "remove-snapshot-ref", "ref-name": "tag"},
    {"action": "set-location", "location": "s3://b/t"},
    {"action": "set-properties", "updates": {"k": "v"}},
    {"action": "remove-properties", "removals": ["k", "k"]},
    {"action": "set-statistics", "snapshot-id": 7, "statistics": {"snapshot-id": 7, "statistics-path": "s.puffin", "file-size-in-bytes": 10, "file-footer-size-in-bytes": 5, "blob-metadata": []}},
    {"action": "remove-statistics", "snapshot-id": 7},
    {"action": "set-partition-statistics", "partition-statistics": {"snapshot-id": 7, "statistics-path": "p.parquet", "file-size-in-bytes": 10}},
    {"action": "remove-partition-statistics", "snapshot-id": 7},
    {"action": "remove-partition-specs", "spec-ids": [1, 2]},
    {"action": "remove-schemas", "schema-ids": [3]},
    {"action": "add-encryption-key", "encryption-key": {"key-id": "k1", "encrypted-key-metadata": "AAE="}},
    {"action": "remove-encryption-key", "key-id": "k1"}
  ]`);
  t.same(
    parsed.map((u) => u.action),
    [
      'assign-uuid',
      'upgrade-format-version',
      'add-schema',
      'set-current-schema',
      'add-spec',
      'set-default-spec',
      'add-sort-order',
      'set-default-sort-order',
      'add-snapshot',
      'set-snapshot-ref',
      'remove-snapshots',
      'remove-snapshot-ref',
      'set-location',
      'set-properties',
      'remove-properties',
      'set-statistics',
      'remove-statistics',
      'set-partition-statistics',
      'remove-partition-statistics',
      'remove-partition-specs',
      'remove-schemas',
      'add-encryption-key',
      'remove-encryption-key',
    ],
  );
  t.match(parsed[2], { action: 'add-schema', lastColumnId: 1, schema: { schemaId: 5 } });
  t.match(parsed[4], { spec: { specId: 0, fields: [{ name: 'a_b', transform: 'bucket[4]', sourceId: 1, fieldId: 1000 }] } });
  t.match(parsed[6], { sortOrder: { orderId: 1, fields: [{ direction: 'desc', nullOrder: 'nulls-last' }] } });
  t.match(parsed[8], { snapshot: { snapshotId: 9223372036854775806n, sequenceNumber: 3n } });
  t.same(parsed[9], {
    action: 'set-snapshot-ref',
    refName: 'main',
    snapshotId: 9223372036854775806n,
    type: 'branch',
    minSnapshotsToKeep: 2,
    maxSnapshotAgeMs: 10n,
    maxRefAgeMs: 20n,
  });
  t.same(parsed[10], { action: 'remove-snapshots', snapshotIds: [1n, 2n] }, 'snapshot ids are a set');
  t.same(parsed[14], { action: 'remove-properties', removals: ['k'] });
  t.match(parsed[15], { statistics: { snapshotId: 7n, statisticsPath: 's.puffin' } });
  t.match(parsed[21], { encryptionKey: { keyId: 'k1' } });
});

t.test('the action is read case-insensitively, as Java lower-cases it', async (t) => {
  t.same(one('{"action": "SET-LOCATION", "location": "x"}'), { action: 'set-location', location: 'x' });
});

t.test('set-properties and remove-properties also read Java\'s legacy `updated` / `removed`', async (t) => {
  t.same(one('{"action": "set-properties", "updated": {"a": "1"}}'), { action: 'set-properties', updates: { a: '1' } });
  t.same(one('{"action": "set-properties", "updated": {"a": "1"}, "updates": {"b": "2"}}'), { action: 'set-properties', updates: { b: '2' } });
  t.same(one('{"action": "remove-properties", "removed": ["a"]}'), { action: 'remove-properties', removals: ['a'] });
});

t.test('the deprecated set-statistics snapshot-id is read but the file\'s own counts', async (t) => {
  const u = one('{"action": "set-statistics", "snapshot-id": 1, "statistics": {"snapshot-id": 2, "statistics-path": "s", "file-size-in-bytes": 1, "file-footer-size-in-bytes": 1, "key-metadata": "AA==", "blob-metadata": []}}');
  t.same(u, { action: 'set-statistics', statistics: { snapshotId: 2n, statisticsPath: 's', fileSizeInBytes: 1n, fileFooterSizeInBytes: 1n, blobMetadata: [] } }, "Java's model keeps no key metadata");
  t.throws(() => one('{"action": "set-statistics", "snapshot-id": "x", "statistics": {}}'), { code: 'BAD_REQUEST', message: /updates\[0\]\.snapshot-id/ });
});

t.test('a snapshot: operation defaults to overwrite, unknown keys are dropped, row lineage is checked', async (t) => {
  const u = one('{"action": "add-snapshot", "snapshot": {"snapshot-id": 1, "timestamp-ms": 1, "manifest-list": "m", "summary": {"added-files": "1"}, "x-extra": 1}}');
  t.match(u, { snapshot: { summary: { operation: 'overwrite', 'added-files': '1' }, extra: {} } });
  t.same(Object.keys((u as { snapshot: { summary: object } }).snapshot.summary), ['operation', 'added-files']);
  const lineage = one('{"action": "add-snapshot", "snapshot": {"snapshot-id": 1, "timestamp-ms": 1, "manifest-list": "m", "first-row-id": 5, "added-rows": 3}}');
  t.match(lineage, { snapshot: { firstRowId: 5n, addedRows: 3n } });
  const noLineage = one('{"action": "add-snapshot", "snapshot": {"snapshot-id": 1, "timestamp-ms": 1, "manifest-list": "m", "added-rows": 3}}');
  t.equal((noLineage as { snapshot: { addedRows?: bigint } }).snapshot.addedRows, undefined, 'added-rows without first-row-id is dropped (Java BaseSnapshot)');
  t.throws(() => one('{"action": "add-snapshot", "snapshot": {"snapshot-id": 1, "timestamp-ms": 1, "manifest-list": "m", "first-row-id": -1, "added-rows": 3}}'), { code: 'ILLEGAL_ARGUMENT' });
  t.throws(() => one('{"action": "add-snapshot", "snapshot": {"snapshot-id": 1, "timestamp-ms": 1, "manifest-list": "m", "first-row-id": 1, "added-rows": -3}}'), { code: 'ILLEGAL_ARGUMENT' });
  t.throws(() => one('{"action": "add-snapshot", "snapshot": {"snapshot-id": 1, "timestamp-ms": 1, "manifest-list": "m", "first-row-id": 1}}'), { code: 'ILLEGAL_ARGUMENT' });
});

t.test('a schema a client sends is validated as Java\'s Schema constructor does', async (t) => {
  const schema = (fields: string, ids = '[]') => one(`{"action": "add-schema", "schema": {"type": "struct", "identifier-field-ids": ${ids}, "fields": ${fields}}}`);
  t.throws(() => schema('[{"id": 1, "name": "a", "required": true, "type": "int"}, {"id": 2, "name": "a", "required": true, "type": "int"}]'), { code: 'VALIDATION_FAILED' });
  t.throws(() => schema('[{"id": 1, "name": "a", "required": true, "type": "int"}]', '[2]'), { code: 'ILLEGAL_ARGUMENT' });
  t.throws(() => schema('[{"id": 1, "name": "a", "required": false, "type": "int"}]', '[1]'), { code: 'ILLEGAL_ARGUMENT' });
  t.throws(() => schema('[{"id": 1, "name": "a", "required": true, "type": "double"}]', '[1]'), { code: 'ILLEGAL_ARGUMENT' });
  t.throws(
    () => schema('[{"id": 1, "name": "s", "required": false, "type": {"type": "struct", "fields": [{"id": 2, "name": "x", "required": true, "type": "int"}]}}]', '[2]'),
    { code: 'ILLEGAL_ARGUMENT' },
    'nested in an optional struct',
  );
  t.throws(
    () => schema('[{"id": 1, "name": "l", "required": true, "type": {"type": "list", "element-id": 2, "element-required": true, "element": "int"}}]', '[2]'),
    { code: 'ILLEGAL_ARGUMENT' },
    'a list element',
  );
  t.doesNotThrow(() =>
    schema('[{"id": 1, "name": "s", "required": true, "type": {"type": "struct", "fields": [{"id": 2, "name": "x", "required": true, "type": "int"}]}}]', '[2]'),
  );
});

t.test('a spec whose fields mix given and missing field ids is refused, as Java\'s parser does', async (t) => {
  t.throws(
    () => one('{"action": "add-spec", "spec": {"spec-id": 0, "fields": [{"name": "a", "transform": "identity", "source-id": 1, "field-id": 1000}, {"name": "b", "transform": "identity", "source-id": 2}]}}'),
    { code: 'BAD_REQUEST', message: /updates\[0\]\.spec\.fields/ },
  );
  t.match(one('{"action": "add-spec", "spec": {"spec-id": 0, "fields": [{"name": "a", "transform": "identity", "source-id": 1}, {"name": "b", "transform": "identity", "source-id": 2}]}}'), {
    spec: { fields: [{ fieldId: 1000 }, { fieldId: 1001 }] },
  });
});

t.test('every malformed update is a bad request whose message names the field path', async (t) => {
  const cases: Array<[string, RegExp]> = [
    ['{"action": "frobnicate"}', /updates\[0\]\.action/],
    ['{"action": "add-view-version", "view-version": {}}', /updates\[0\]\.action/],
    ['{"action": 3}', /updates\[0\]\.action/],
    ['{}', /updates\[0\]\.action/],
    ['"add-schema"', /updates\[0\]/],
    ['{"action": "assign-uuid"}', /updates\[0\]\.uuid/],
    ['{"action": "upgrade-format-version", "format-version": "2"}', /updates\[0\]\.format-version/],
    ['{"action": "add-schema"}', /updates\[0\]\.schema/],
    ['{"action": "add-schema", "schema": {"type": "struct", "fields": [{"id": 1, "name": "a", "required": true}]}}', /updates\[0\]\.schema\.fields\[0\]\.type/],
    ['{"action": "add-schema", "schema": {"type": "struct", "fields": []}, "last-column-id": "x"}', /updates\[0\]\.last-column-id/],
    ['{"action": "set-current-schema", "schema-id": 1.5}', /updates\[0\]\.schema-id/],
    ['{"action": "add-spec", "spec": {"fields": []}}', /updates\[0\]\.spec\.spec-id/],
    ['{"action": "set-default-spec"}', /updates\[0\]\.spec-id/],
    ['{"action": "add-sort-order", "sort-order": {"order-id": 1, "fields": [{"transform": "identity", "source-id": 1, "direction": "up", "null-order": "nulls-last"}]}}', /updates\[0\]\.sort-order\.fields\[0\]\.direction/],
    ['{"action": "set-default-sort-order", "sort-order-id": null}', /updates\[0\]\.sort-order-id/],
    ['{"action": "add-snapshot", "snapshot": {"snapshot-id": 1, "timestamp-ms": 1}}', /updates\[0\]\.snapshot\.manifest-list/],
    ['{"action": "set-snapshot-ref", "ref-name": "main", "snapshot-id": 1, "type": "bough"}', /updates\[0\]\.type/],
    ['{"action": "set-snapshot-ref", "snapshot-id": 1, "type": "branch"}', /updates\[0\]\.ref-name/],
    ['{"action": "set-snapshot-ref", "ref-name": "main", "snapshot-id": 9223372036854775808, "type": "branch"}', /updates\[0\]\.snapshot-id/],
    ['{"action": "remove-snapshots", "snapshot-ids": null}', /updates\[0\]\.snapshot-ids/],
    ['{"action": "remove-snapshots", "snapshot-ids": ["1"]}', /updates\[0\]\.snapshot-ids\[0\]/],
    ['{"action": "remove-snapshot-ref"}', /updates\[0\]\.ref-name/],
    ['{"action": "set-location", "location": 7}', /updates\[0\]\.location/],
    ['{"action": "set-properties", "updates": {"a": 1}}', /updates\[0\]\.updates\.a/],
    ['{"action": "set-properties"}', /updates\[0\]\.updates/],
    ['{"action": "remove-properties", "removals": "a"}', /updates\[0\]\.removals/],
    ['{"action": "set-statistics", "statistics": {"snapshot-id": 1, "blob-metadata": []}}', /updates\[0\]\.statistics\.statistics-path/],
    ['{"action": "set-statistics", "statistics": {"snapshot-id": 1, "statistics-path": "s", "file-size-in-bytes": 1, "file-footer-size-in-bytes": 1}}', /updates\[0\]\.statistics\.blob-metadata/],
    ['{"action": "set-statistics", "statistics": {"snapshot-id": 1, "statistics-path": "s", "file-size-in-bytes": 1, "file-footer-size-in-bytes": 1, "blob-metadata": [{"type": "t", "snapshot-id": 1, "sequence-number": 1}]}}', /updates\[0\]\.statistics\.blob-metadata\[0\]\.fields/],
    ['{"action": "remove-statistics"}', /updates\[0\]\.snapshot-id/],
    ['{"action": "set-partition-statistics", "partition-statistics": []}', /updates\[0\]\.partition-statistics/],
    ['{"action": "remove-partition-statistics", "snapshot-id": "1"}', /updates\[0\]\.snapshot-id/],
    ['{"action": "remove-partition-specs", "spec-ids": [true]}', /updates\[0\]\.spec-ids\[0\]/],
    ['{"action": "remove-schemas"}', /updates\[0\]\.schema-ids/],
    ['{"action": "add-encryption-key", "encryption-key": {"key-id": "k"}}', /updates\[0\]\.encryption-key\.encrypted-key-metadata/],
    ['{"action": "add-encryption-key"}', /updates\[0\]\.encryption-key/],
    ['{"action": "remove-encryption-key", "key-id": null}', /updates\[0\]\.key-id/],
  ];
  for (const [json, path] of cases) t.throws(() => one(json), { code: 'BAD_REQUEST', message: path }, json);
});
