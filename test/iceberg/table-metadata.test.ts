import t from 'tap';
import { gzipSync } from 'node:zlib';
import { currentSchema, currentSnapshot, defaultSpec, metadataFileText, parseTableMetadata, schemaById, snapshotById, snapshotSchema, specById, sortOrderById } from '../../src/iceberg/index.js';
import { parseJson } from '../../src/json/index.js';
import { V1_LEGACY, V2, V3 } from './metadata-samples.js';

t.test('a v2 table parses every field with exact 64-bit ids', async (t) => {
  const m = parseTableMetadata(V2);
  t.equal(m.formatVersion, 2);
  t.equal(m.tableUuid, '9c12d441-03fe-4693-9a96-a0705ddf69c1');
  t.equal(m.location, 's3://bucket/test/location');
  t.equal(m.lastSequenceNumber, 34n);
  t.equal(m.lastUpdatedMs, 1602638573590);
  t.equal(m.lastColumnId, 3);
  t.equal(m.currentSchemaId, 1);
  t.equal(m.schemas.length, 2);
  t.equal(m.defaultSpecId, 1);
  t.equal(m.lastPartitionId, 1000);
  t.equal(m.defaultSortOrderId, 3);
  t.same(m.properties, { 'read.split.target.size': '134217728' });
  t.equal(m.currentSnapshotId, 3055729675574597004n);
  t.same(m.refs['v1-tag'], { snapshotId: 3051729675574597004n, type: 'tag', maxRefAgeMs: 86400000n });
  t.equal(m.snapshots.length, 3);
  t.equal(m.statistics[0]!.blobMetadata[0]!.type, 'apache-datasketches-theta-v1');
  t.equal(m.partitionStatistics[0]!.fileSizeInBytes, 43n);
  t.same(m.snapshotLog[2], { timestampMs: 1555100955770, snapshotId: 3055729675574597004n });
  t.same(m.metadataLog, [{ timestampMs: 1515100955770, metadataFile: 's3://bucket/.../v1.json' }]);
  t.same(m.extra, { 'x-vendor-extension': { keep: [1, 9158179788527662767n] } });
  t.same(m.encryptionKeys, []);
  t.equal(m.nextRowId, undefined);
});

t.test('lookups find schemas, specs, sort orders and snapshots by id', async (t) => {
  const m = parseTableMetadata(V2);
  t.equal(currentSchema(m).schemaId, 1);
  t.equal(schemaById(m, 0)?.fields.length, 1);
  t.equal(schemaById(m, 9), undefined);
  t.equal(defaultSpec(m).specId, 1);
  t.same(specById(m, 0), { specId: 0, fields: [] });
  t.equal(sortOrderById(m, 3)?.fields[0]?.sourceId, 2);
  t.equal(snapshotById(m, 3052729675574597004n)?.sequenceNumber, 1n);
  t.equal(snapshotById(m, 1n), undefined);
  t.equal(currentSnapshot(m)?.snapshotId, 3055729675574597004n);
});

t.test('snapshotSchema is the schema a snapshot recorded, else the current schema', async (t) => {
  const m = parseTableMetadata(V2);
  t.equal(snapshotSchema(m, snapshotById(m, 3051729675574597004n)!).schemaId, 0);
  t.equal(snapshotSchema(m, snapshotById(m, 3052729675574597004n)!).schemaId, 1, 'no schema-id recorded');
});

t.test('the current snapshot follows the main branch', async (t) => {
  const m = parseTableMetadata(V2);
  const moved = { ...m, refs: { ...m.refs, main: { snapshotId: 3052729675574597004n, type: 'branch' as const } } };
  t.equal(currentSnapshot(moved)?.snapshotId, 3052729675574597004n);
  t.throws(() => currentSnapshot({ ...m, refs: { main: { snapshotId: 5n, type: 'branch' } } }), {
    code: 'INVALID_METADATA',
    message: /refs\.main/,
  });
});

t.test('a legacy v1 table gets its schema, spec 0 with ids from 1000, the unsorted order and a main branch', async (t) => {
  const m = parseTableMetadata(V1_LEGACY);
  t.equal(m.lastSequenceNumber, 0n);
  t.equal(m.schemas.length, 1);
  t.equal(m.currentSchemaId, 0);
  t.equal(currentSchema(m).findFieldByName('data')?.id, 2);
  t.same(m.partitionSpecs, [{ specId: 0, fields: [{ sourceId: 2, fieldId: 1000, name: 'data', transform: 'identity' }] }]);
  t.equal(m.defaultSpecId, 0);
  t.equal(m.lastPartitionId, 1000, 'derived from the highest partition field id');
  t.same(m.sortOrders, [{ orderId: 0, fields: [] }]);
  t.equal(m.defaultSortOrderId, 0);
  t.same(m.refs, { main: { snapshotId: 7001n, type: 'branch' } });
  t.equal(m.snapshots[0]!.sequenceNumber, 0n);
  t.same(m.statistics, []);
  t.same(m.snapshotLog, []);
});

t.test('a v1 table without table-uuid is accepted (BigQuery writes these)', async (t) => {
  const obj = JSON.parse(V1_LEGACY) as Record<string, unknown>;
  delete obj['table-uuid'];
  t.equal(parseTableMetadata(JSON.stringify(obj)).tableUuid, undefined);
});

t.test('a v3 table keeps row lineage, encryption keys and new types; null current snapshot means none', async (t) => {
  const m = parseTableMetadata(V3);
  t.equal(m.formatVersion, 3);
  t.equal(m.currentSnapshotId, undefined);
  t.equal(currentSnapshot(m), undefined);
  t.equal(m.nextRowId, 0n);
  t.same(m.encryptionKeys, [{ keyId: 'k1', encryptedKeyMetadata: 'AAEC', encryptedById: 'kms', properties: { a: 'b' } }]);
  t.same(currentSchema(m).findField(1)?.type, { kind: 'variant' });
  t.equal(currentSchema(m).findField(2)?.initialDefault, '2024-01-01T00:00:00.000000001+00:00');
  t.same(m.refs, {});
});

t.test('current-snapshot-id of -1, null or absent all mean no current snapshot and no main branch', async (t) => {
  for (const value of ['-1', 'null', undefined]) {
    const obj = JSON.parse(V1_LEGACY) as Record<string, unknown>;
    obj['snapshots'] = [];
    if (value === undefined) delete obj['current-snapshot-id'];
    else obj['current-snapshot-id'] = JSON.parse(value);
    const m = parseTableMetadata(JSON.stringify(obj));
    t.equal(m.currentSnapshotId, undefined, String(value));
    t.same(m.refs, {}, String(value));
  }
});

t.test('missing optional lists read as empty; python-style spacing parses', async (t) => {
  const obj = JSON.parse(V2) as Record<string, unknown>;
  for (const k of ['snapshots', 'snapshot-log', 'metadata-log', 'statistics', 'partition-statistics', 'properties', 'refs']) delete obj[k];
  delete obj['current-snapshot-id'];
  const m = parseTableMetadata(JSON.stringify(obj, null, 4).replace(/": /g, '" : '));
  t.same(m.snapshots, []);
  t.same(m.snapshotLog, []);
  t.same(m.metadataLog, []);
  t.same(m.statistics, []);
  t.same(m.partitionStatistics, []);
  t.same(m.properties, {});
  t.same(m.refs, {});
});

t.test('gzip-compressed metadata files are read through metadataFileText', async (t) => {
  const m = parseTableMetadata(metadataFileText(gzipSync(Buffer.from(V2))));
  t.equal(m.currentSnapshotId, 3055729675574597004n);
  t.equal(metadataFileText(Buffer.from('{"a":1}')), '{"a":1}');
});

t.test('an already parsed value is accepted as input, and a rounded 64-bit id in one is refused', async (t) => {
  const m = parseTableMetadata(JSON.parse(V1_LEGACY));
  t.equal(m.currentSnapshotId, 7001n);
  const exact = parseTableMetadata(parseJson(V2));
  t.equal(exact.currentSnapshotId, 3055729675574597004n, 'parseJson keeps an id above 2^53 exact');
  t.equal(snapshotById(exact, 3052729675574597004n)?.parentSnapshotId, 3051729675574597004n);
  // JSON.parse rounds 3055729675574597004 to 3055729675574597120: another snapshot's id, or none
  t.not(BigInt(Number(3055729675574597004n)), 3055729675574597004n, 'the sample id is one a double cannot hold');
  t.throws(() => parseTableMetadata(JSON.parse(V2)), { code: 'INVALID_METADATA', message: /snapshot-id' must be a long read exactly, got 30517296755745970\d\d, which a lossy JSON parse rounded/ }, 'JSON.parse rounded it: refused, not used');
});

function without(text: string, mutate: (o: Record<string, any>) => void): string {
  const o = JSON.parse(text) as Record<string, any>;
  mutate(o);
  return JSON.stringify(o);
}

t.test('broken metadata throws INVALID_METADATA naming the field', async (t) => {
  const cases: Array<[string, string, RegExp]> = [
    ['missing table-uuid (v2)', without(V2, (o) => delete o['table-uuid']), /'table-uuid'/],
    ['missing location', without(V2, (o) => delete o['location']), /'location'/],
    ['missing format-version', without(V2, (o) => delete o['format-version']), /'format-version'/],
    ['format-version 4', without(V2, (o) => (o['format-version'] = 4)), /'format-version'/],
    ['schema field with no type', without(V2, (o) => delete o['schemas'][1]['fields'][2]['type']), /'schemas\[1\]\.fields\[2\]\.type'/],
    ['unknown type', without(V2, (o) => (o['schemas'][0]['fields'][0]['type'] = 'int128')), /'schemas\[0\]\.fields\[0\]\.type'/],
    ['v2 without schemas', without(V2, (o) => delete o['schemas']), /'schemas'/],
    ['current schema not in list', without(V2, (o) => (o['current-schema-id'] = 7)), /'current-schema-id'/],
    ['default spec not in list', without(V2, (o) => (o['default-spec-id'] = 7)), /'default-spec-id'/],
    ['v2 without last-sequence-number', without(V2, (o) => delete o['last-sequence-number']), /'last-sequence-number'/],
    ['v2 without last-partition-id', without(V2, (o) => delete o['last-partition-id']), /'last-partition-id'/],
    ['snapshot without id', without(V2, (o) => delete o['snapshots'][1]['snapshot-id']), /'snapshots\[1\]\.snapshot-id'/],
    ['current snapshot not in snapshots', without(V2, (o) => (o['current-snapshot-id'] = 1)), /'current-snapshot-id'/],
    ['bad ref type', without(V2, (o) => (o['refs']['v1-tag']['type'] = 'label')), /'refs\.v1-tag\.type'/],
    ['properties not an object', without(V2, (o) => (o['properties'] = ['a'])), /'properties'/],
    ['snapshots not an array', without(V2, (o) => (o['snapshots'] = {})), /'snapshots'/],
    ['v1 with neither schema nor schemas', without(V1_LEGACY, (o) => delete o['schema']), /'schemas'/],
    ['v1 with neither partition-spec nor partition-specs', without(V1_LEGACY, (o) => delete o['partition-spec']), /'partition-specs'/],
    ['not an object', '[1, 2]', /'\(root\)'/],
    ['not JSON', '{"format-version": 2,', /not valid JSON/],
  ];
  for (const [name, text, field] of cases) {
    t.throws(() => parseTableMetadata(text), { code: 'INVALID_METADATA', message: field }, name);
  }
});
