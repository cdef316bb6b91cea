import t from 'tap';
import { parseTableMetadata, tableMetadataToJson } from '../../src/iceberg/index.js';
import { parseJson, stringifyJson } from '../../src/json/index.js';
import { V1_LEGACY, V2, V3 } from './metadata-samples.js';
import { OPENAPI_SKIP, openApiAvailable, validateAgainst } from '../helpers/openapi.js';

const write = (text: string, opts?: { snapshots?: 'all' | 'refs' }) =>
  tableMetadataToJson(parseTableMetadata(text), opts) as Record<string, unknown>;

function hasNull(v: unknown): boolean {
  if (v === null) return true;
  if (Array.isArray(v)) return v.some(hasNull);
  if (typeof v === 'object') return Object.values(v as object).some(hasNull);
  return false;
}

t.test('v2 metadata is written in Java TableMetadataParser key order, extra keys last', async (t) => {
  t.same(Object.keys(write(V2)), [
    'format-version',
    'table-uuid',
    'location',
    'last-sequence-number',
    'last-updated-ms',
    'last-column-id',
    'current-schema-id',
    'schemas',
    'default-spec-id',
    'partition-specs',
    'last-partition-id',
    'default-sort-order-id',
    'sort-orders',
    'properties',
    'current-snapshot-id',
    'refs',
    'snapshots',
    'statistics',
    'partition-statistics',
    'snapshot-log',
    'metadata-log',
    'x-vendor-extension',
  ]);
});

t.test('v1 metadata also writes the current schema as schema and the default spec as partition-spec', async (t) => {
  const out = write(V1_LEGACY);
  const keys = Object.keys(out);
  t.notOk(keys.includes('last-sequence-number'));
  t.ok(keys.indexOf('schema') < keys.indexOf('current-schema-id'));
  t.ok(keys.indexOf('partition-spec') < keys.indexOf('default-spec-id'));
  t.same(out['schema'], (out['schemas'] as unknown[])[0]);
  t.same(out['partition-spec'], [{ name: 'data', transform: 'identity', 'source-id': 2, 'field-id': 1000 }]);
  t.same(out['sort-orders'], [{ 'order-id': 0, fields: [] }]);
  t.same(out['refs'], { main: { 'snapshot-id': 7001n, type: 'branch' } });
});

t.test('ids beyond 2^53 are written with their exact digits', async (t) => {
  const text = stringifyJson(write(V2), 2);
  t.match(text, /"current-snapshot-id": 3055729675574597004,/);
  t.match(text, /"snapshot-id": 3051729675574597004,/);
  t.match(text, /"keep": \[\n\s+1,\n\s+9158179788527662767\n/);
});

t.test('no current snapshot is -1 before v3 and omitted in v3; no JSON null anywhere', async (t) => {
  const v2 = parseJson(V2) as Record<string, unknown>;
  v2['current-snapshot-id'] = null;
  delete v2['refs'];
  const outV2 = tableMetadataToJson(parseTableMetadata(v2)) as Record<string, unknown>;
  t.equal(outV2['current-snapshot-id'], -1);
  t.same(outV2['refs'], {});
  const outV3 = write(V3);
  t.notOk('current-snapshot-id' in outV3);
  t.notOk(hasNull(outV3));
  t.notOk(hasNull(outV2));
  t.notOk(hasNull(write(V1_LEGACY)));
});

t.test('v3 writes next-row-id and encryption-keys after current-snapshot-id', async (t) => {
  const keys = Object.keys(write(V3));
  t.ok(keys.indexOf('properties') < keys.indexOf('next-row-id'));
  t.ok(keys.indexOf('next-row-id') < keys.indexOf('encryption-keys'));
  t.ok(keys.indexOf('encryption-keys') < keys.indexOf('refs'));
  t.same(write(V3)['encryption-keys'], [{ 'key-id': 'k1', 'encrypted-key-metadata': 'AAEC', 'encrypted-by-id': 'kms', properties: { a: 'b' } }]);
});

t.test("snapshots: 'refs' keeps only snapshots a branch or tag references, and their statistics", async (t) => {
  const out = write(V2, { snapshots: 'refs' });
  t.same(
    (out['snapshots'] as Array<Record<string, unknown>>).map((s) => s['snapshot-id']),
    [3051729675574597004n, 3055729675574597004n],
  );
  t.same(
    (out['statistics'] as Array<Record<string, unknown>>).map((s) => s['snapshot-id']),
    [3051729675574597004n],
  );
  t.equal((out['partition-statistics'] as unknown[]).length, 1);
  t.equal((out['snapshot-log'] as unknown[]).length, 3, 'the snapshot log is kept whole, as Java does');
  t.equal((write(V2, { snapshots: 'all' })['snapshots'] as unknown[]).length, 3);
});

t.test('written metadata re-parses to the same model', async (t) => {
  for (const [name, text] of [
    ['v1', V1_LEGACY],
    ['v2', V2],
    ['v3', V3],
  ] as const) {
    const model = parseTableMetadata(text);
    t.same(parseTableMetadata(stringifyJson(tableMetadataToJson(model))), model, name);
  }
});

t.test('the REST OpenAPI TableMetadata schema accepts the written metadata', { skip: openApiAvailable() ? false : OPENAPI_SKIP }, async (t) => {
  for (const [name, text] of [
    ['v1', V1_LEGACY],
    ['v2', V2],
    ['v3', V3],
  ] as const) {
    t.same(validateAgainst('TableMetadata', tableMetadataToJson(parseTableMetadata(text))), [], name);
    t.same(validateAgainst('TableMetadata', tableMetadataToJson(parseTableMetadata(text), { snapshots: 'refs' })), [], `${name} refs`);
  }
  t.not(validateAgainst('TableMetadata', { 'format-version': 9 }).length, 0, 'the validator does reject bad input');
});

t.test('a v1 table without a uuid is written without table-uuid (Java writes "table-uuid": null)', async (t) => {
  // Java TableMetadataParser.toJson calls writeStringField(TABLE_UUID, metadata.uuid()), which
  // Jackson writes as `"table-uuid": null` for a v1 table that never had one. Icefront keeps its
  // rule (no JSON null for an absent optional field): Java reads a missing key as null
  // (JsonUtil.getStringOrNull), while pyiceberg 0.12 rejects a null (`table_uuid: uuid.UUID`
  // with a default factory: a missing key gets a fresh uuid, a null fails validation).
  const v1 = parseJson(V1_LEGACY) as Record<string, unknown>;
  delete v1['table-uuid'];
  const meta = parseTableMetadata(v1);
  t.equal(meta.tableUuid, undefined);
  const out = tableMetadataToJson(meta) as Record<string, unknown>;
  t.notOk('table-uuid' in out);
  t.notOk(hasNull(out));
  t.same(Object.keys(out).slice(0, 2), ['format-version', 'location']);
  // and a null uuid reads as no uuid, as Java's getStringOrNull reads it
  const nullUuid = parseTableMetadata({ ...v1, 'table-uuid': null });
  t.equal(nullUuid.tableUuid, undefined);
  t.notOk('table-uuid' in (tableMetadataToJson(nullUuid) as Record<string, unknown>));
});
