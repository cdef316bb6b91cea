import t from 'tap';
import { applyUpdates } from '../../src/commits/index.js';
import { currentSchema, currentSnapshot, tableMetadataToJson } from '../../src/iceberg/index.js';
import { stringifyJson } from '../../src/json/index.js';
import { NOW, REAL, REAL_FIXTURES_SKIP, apply, fixedClock, realFixturesAvailable, realVersion, roundTrip, smallV2, updates } from '../helpers/commit-bases.js';

const skipReal = realFixturesAvailable() ? false : REAL_FIXTURES_SKIP;

// what Java's RESTSessionCatalog sends to commit a staged create (TableMetadata.newTableMetadata's changes)
const STAGED_CREATE = `[
  {"action": "assign-uuid", "uuid": "2cc52516-5e73-41f2-b139-545d41a4e151"},
  {"action": "upgrade-format-version", "format-version": 2},
  {"action": "add-schema", "schema": {"type": "struct", "schema-id": 0, "fields": [
    {"id": 1, "name": "id", "required": true, "type": "long"},
    {"id": 2, "name": "day", "required": false, "type": "date"}]}, "last-column-id": 2},
  {"action": "set-current-schema", "schema-id": -1},
  {"action": "add-spec", "spec": {"spec-id": 0, "fields": [{"name": "day_month", "transform": "month", "source-id": 2, "field-id": 1000}]}},
  {"action": "set-default-spec", "spec-id": -1},
  {"action": "add-sort-order", "sort-order": {"order-id": 1, "fields": [{"transform": "identity", "source-id": 1, "direction": "asc", "null-order": "nulls-first"}]}},
  {"action": "set-default-sort-order", "sort-order-id": -1},
  {"action": "set-location", "location": "s3://bucket/db/staged/"},
  {"action": "set-properties", "updates": {"write.parquet.compression-codec": "zstd", "owner": "ana"}}
]`;

t.test('a staged create commit builds a valid table from nothing', async (t) => {
  const clock = fixedClock();
  const { metadata, changed } = applyUpdates(undefined, updates(STAGED_CREATE), clock);
  t.equal(changed, true);
  t.equal(metadata.formatVersion, 2);
  t.equal(metadata.tableUuid, '2cc52516-5e73-41f2-b139-545d41a4e151', "the client's uuid replaces the builder's random one");
  t.equal(metadata.location, 's3://bucket/db/staged', 'trailing slash stripped');
  t.equal(metadata.lastUpdatedMs, NOW);
  t.equal(metadata.lastSequenceNumber, 0n);
  t.equal(metadata.lastColumnId, 2);
  t.equal(metadata.currentSchemaId, 0);
  t.same(metadata.partitionSpecs, [{ specId: 0, fields: [{ sourceId: 2, fieldId: 1000, name: 'day_month', transform: 'month' }] }]);
  t.equal(metadata.defaultSpecId, 0);
  t.equal(metadata.lastPartitionId, 1000);
  t.same(metadata.sortOrders, [{ orderId: 1, fields: [{ transform: 'identity', sourceId: 1, direction: 'asc', nullOrder: 'nulls-first' }] }]);
  t.equal(metadata.defaultSortOrderId, 1);
  t.same(metadata.properties, { 'write.parquet.compression-codec': 'zstd', owner: 'ana' });
  t.same(metadata.metadataLog, [], 'a new table has no previous file');
  t.same(metadata.snapshotLog, []);
  t.equal(metadata.currentSnapshotId, undefined);
  t.same(roundTrip(metadata), metadata, 'written and read back unchanged');
});

t.test('a staged create may add its first snapshot', async (t) => {
  const json = STAGED_CREATE.replace(
    /\]\s*$/,
    `, {"action": "add-snapshot", "snapshot": {"sequence-number": 1, "snapshot-id": 42, "timestamp-ms": 1700000000000, "manifest-list": "s3://bucket/db/staged/metadata/snap-42.avro", "summary": {"operation": "append"}, "schema-id": 0}},
       {"action": "set-snapshot-ref", "ref-name": "main", "snapshot-id": 42, "type": "branch"}]`,
  );
  const { metadata } = apply(undefined, json);
  t.equal(metadata.currentSnapshotId, 42n);
  t.equal(metadata.lastSequenceNumber, 1n);
  t.same(metadata.snapshotLog, [{ timestampMs: 1700000000000, snapshotId: 42n }], 'logged at the snapshot timestamp');
  t.same(metadata.refs, { main: { snapshotId: 42n, type: 'branch' } });
  t.same(roundTrip(metadata), metadata);
});

t.test('a create starts at the format version of its first upgrade-format-version, else v2', async (t) => {
  const v1 = apply(undefined, STAGED_CREATE.replace('"format-version": 2', '"format-version": 1')).metadata;
  t.equal(v1.formatVersion, 1);
  t.equal(stringifyJson(tableMetadataToJson(v1)).includes('"partition-spec"'), true, 'written with v1 legacy fields');
  const v3 = apply(undefined, STAGED_CREATE.replace('"format-version": 2', '"format-version": 3')).metadata;
  t.equal(v3.formatVersion, 3);
  t.equal(v3.nextRowId, 0n, 'a v3 table starts row lineage at 0');
  const noUpgrade = apply(undefined, STAGED_CREATE.replace('{"action": "upgrade-format-version", "format-version": 2},', '')).metadata;
  t.equal(noUpgrade.formatVersion, 2);
  t.throws(() => apply(undefined, STAGED_CREATE.replace('"format-version": 2', '"format-version": 4')), { code: 'ILLEGAL_ARGUMENT' });
  t.throws(() => apply(undefined, STAGED_CREATE.replace('"format-version": 2', '"format-version": 0')), { code: 'ILLEGAL_ARGUMENT' });
});

t.test('a create without set-location takes the store\'s default location', async (t) => {
  const json = STAGED_CREATE.replace('{"action": "set-location", "location": "s3://bucket/db/staged/"},', '');
  const { metadata } = applyUpdates(undefined, updates(json), fixedClock(), { defaultLocation: 's3://warehouse/db/staged' });
  t.equal(metadata.location, 's3://warehouse/db/staged');
  const own = applyUpdates(undefined, updates(STAGED_CREATE), fixedClock(), { defaultLocation: 's3://warehouse/db/staged' }).metadata;
  t.equal(own.location, 's3://bucket/db/staged', 'the updates\' own location wins');
});

t.test('a create keeps a uuid of its own when the client assigns none', async (t) => {
  const clock = fixedClock();
  const { metadata } = applyUpdates(undefined, updates(STAGED_CREATE.replace('{"action": "assign-uuid", "uuid": "2cc52516-5e73-41f2-b139-545d41a4e151"},', '')), clock);
  t.equal(metadata.tableUuid, clock.uuids[0]);
});

t.test('a create that does not yield a table is refused', async (t) => {
  t.throws(() => apply(undefined, '[]'), { code: 'ILLEGAL_ARGUMENT' }, 'no schema');
  t.throws(() => apply(undefined, STAGED_CREATE.replace('{"action": "set-location", "location": "s3://bucket/db/staged/"},', '')), { code: 'ILLEGAL_ARGUMENT' }, 'no location');
  t.throws(
    () => apply(undefined, '[{"action": "add-schema", "schema": {"type": "struct", "fields": []}}, {"action": "set-location", "location": "s3://x"}]'),
    { code: 'ILLEGAL_ARGUMENT' },
    'no partition spec',
  );
  t.throws(
    () => apply(undefined, '[{"action": "add-spec", "spec": {"spec-id": 0, "fields": []}}]'),
    { code: 'ILLEGAL_ARGUMENT' },
    'a spec before any schema',
  );
});

t.test('updates that change nothing leave the table as it is, with nothing to commit', async (t) => {
  const base = smallV2();
  const noop = apply(
    base,
    `[
      {"action": "assign-uuid", "uuid": "11111111-2222-4333-8444-555555555555"},
      {"action": "upgrade-format-version", "format-version": 2},
      {"action": "set-current-schema", "schema-id": 0},
      {"action": "set-default-spec", "spec-id": 0},
      {"action": "set-default-sort-order", "sort-order-id": 0},
      {"action": "set-location", "location": "s3://bucket/db/t"},
      {"action": "set-properties", "updates": {}},
      {"action": "remove-properties", "removals": []},
      {"action": "set-snapshot-ref", "ref-name": "main", "snapshot-id": 2, "type": "branch"},
      {"action": "remove-snapshot-ref", "ref-name": "nope"},
      {"action": "remove-snapshots", "snapshot-ids": [99]},
      {"action": "remove-statistics", "snapshot-id": 1},
      {"action": "remove-partition-statistics", "snapshot-id": 1},
      {"action": "add-spec", "spec": {"spec-id": 7, "fields": []}},
      {"action": "add-sort-order", "sort-order": {"order-id": 0, "fields": []}},
      {"action": "remove-encryption-key", "key-id": "k"}
    ]`,
  );
  t.equal(noop.changed, false);
  t.equal(noop.metadata, base.metadata, 'the very same metadata');
  t.equal(apply(base, '[]').changed, false);
});

t.test('the base is never modified', async (t) => {
  const base = smallV2();
  const before = stringifyJson(tableMetadataToJson(base.metadata));
  apply(
    base,
    `[{"action": "add-schema", "schema": {"type": "struct", "fields": [{"id": 1, "name": "id", "required": true, "type": "long"}, {"id": 4, "name": "n", "required": false, "type": "int"}]}},
      {"action": "set-current-schema", "schema-id": -1},
      {"action": "set-properties", "updates": {"a": "b"}},
      {"action": "remove-snapshots", "snapshot-ids": [1]}]`,
  );
  t.equal(stringifyJson(tableMetadataToJson(base.metadata)), before);
});

t.test('a commit stamps last-updated-ms and logs the previous metadata file', async (t) => {
  const base = smallV2();
  const { metadata, changed } = apply(base, '[{"action": "set-properties", "updates": {"a": "b"}}]', fixedClock(1800000000000));
  t.equal(changed, true);
  t.equal(metadata.lastUpdatedMs, 1800000000000);
  t.same(metadata.metadataLog.at(-1), { timestampMs: 1700000002000, metadataFile: 's3://bucket/db/t/metadata/00002-c.metadata.json' });
  t.equal(metadata.metadataLog.length, 3);
});

t.test('updates apply in order, each seeing the ones before', async (t) => {
  const { metadata } = apply(
    smallV2(),
    `[{"action": "set-properties", "updates": {"a": "1"}},
      {"action": "remove-properties", "removals": ["a"]},
      {"action": "set-properties", "updates": {"b": "2"}}]`,
  );
  t.same(metadata.properties, { owner: 'ana', b: '2' });
});

t.test('every kind of update on real tables round-trips through the metadata JSON', { skip: skipReal }, async (t) => {
  for (const [name, file] of Object.entries(REAL)) {
    const base = realVersion(file);
    const schema = currentSchema(base.metadata);
    const current = currentSnapshot(base.metadata);
    const v = base.metadata.formatVersion;
    const lineage = v >= 3 ? `, "first-row-id": ${base.metadata.nextRowId}, "added-rows": 10` : '';
    const snapshotId = 777000000000000001n;
    const newField = schema.highestFieldId() + 100;
    const { metadata, changed } = apply(
      base,
      `[
        {"action": "add-schema", "schema": {"type": "struct", "schema-id": 99, "fields": [{"id": ${newField}, "name": "only_new", "required": false, "type": "string"}]}},
        {"action": "set-properties", "updates": {"commit.test": "${name}"}},
        {"action": "add-snapshot", "snapshot": {"sequence-number": ${v === 1 ? 0 : base.metadata.lastSequenceNumber + 1n}, "snapshot-id": ${snapshotId}, ${current ? `"parent-snapshot-id": ${current.snapshotId},` : ''} "timestamp-ms": ${NOW - 1000}, "manifest-list": "${base.metadata.location}/metadata/snap-new.avro", "summary": {"operation": "append"}${lineage}}},
        {"action": "set-snapshot-ref", "ref-name": "main", "snapshot-id": ${snapshotId}, "type": "branch"},
        {"action": "set-snapshot-ref", "ref-name": "audit", "snapshot-id": ${snapshotId}, "type": "tag", "max-ref-age-ms": 86400000}
      ]`,
    );
    t.equal(changed, true, name);
    t.equal(metadata.currentSnapshotId, snapshotId, name);
    t.equal(metadata.lastColumnId, Math.max(base.metadata.lastColumnId, newField), `${name}: last-column-id never decreases`);
    t.same(metadata.snapshotLog.at(-1), { timestampMs: NOW - 1000, snapshotId }, name);
    if (v >= 3) t.equal(metadata.nextRowId, base.metadata.nextRowId! + 10n, `${name}: next-row-id moved past the added rows`);
    t.same(roundTrip(metadata), metadata, `${name}: written and read back unchanged`);
  }
});
