import t, { type Test } from 'tap';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createFilesystemCatalog } from '../../src/catalogs/index.js';
import type { FilesystemCatalogConfig } from '../../src/config/index.js';
import { buildServer } from '../../src/http/index.js';
import { createService } from '../../src/service/index.js';
import { OPENAPI_SKIP, openApiAvailable } from '../helpers/openapi.js';
import { assertBody, assertError } from './assertions.js';

const skip = openApiAvailable() ? false : OPENAPI_SKIP;

const SCHEMA = {
  type: 'struct',
  'schema-id': 7,
  fields: [
    { id: 11, name: 'id', required: true, type: 'long' },
    { id: 12, name: 'region', required: false, type: 'string' },
    { id: 13, name: 'ts', required: false, type: 'timestamptz' },
  ],
};
const SPEC = { 'spec-id': 0, fields: [{ 'source-id': 12, 'field-id': 1000, name: 'region', transform: 'identity' }] };

function warehouse(t: Test, readOnly = false) {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'icefront-writes-')));
  const config: FilesystemCatalogConfig = { type: 'filesystem', name: 'lake', warehouse: dir, locations: [], planning: 'on', ...(readOnly && { readOnly: true }) };
  const app = buildServer({ service: createService({ catalogs: new Map([['lake', createFilesystemCatalog(config)]]) }), bodyLimit: 1 << 20 });
  t.teardown(async () => {
    await app.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const post = (url: string, payload: unknown) => app.inject({ method: 'POST', url, payload: payload as object, headers: { 'content-type': 'application/json' } });
  return { dir, app, post };
}

function metadataFiles(dir: string, ...table: string[]): string[] {
  const meta = path.join(dir, ...table, 'metadata');
  return fs.existsSync(meta) ? fs.readdirSync(meta).sort() : [];
}

t.test('a writable filesystem catalog advertises its mutations, a read-only one none', { skip }, async (t) => {
  const writable = warehouse(t);
  const cfg = JSON.parse((await writable.app.inject({ url: '/v1/config?warehouse=lake' })).body) as { endpoints: string[] };
  for (const e of ['POST /v1/{prefix}/namespaces', 'DELETE /v1/{prefix}/namespaces/{namespace}', 'POST /v1/{prefix}/namespaces/{namespace}/properties', 'POST /v1/{prefix}/namespaces/{namespace}/tables', 'POST /v1/{prefix}/namespaces/{namespace}/tables/{table}', 'DELETE /v1/{prefix}/namespaces/{namespace}/tables/{table}', 'POST /v1/{prefix}/namespaces/{namespace}/register'])
    t.ok(cfg.endpoints.includes(e), `advertises ${e}`);
  t.notOk(cfg.endpoints.includes('POST /v1/{prefix}/tables/rename'), 'no rename: a Hadoop table is where its name puts it');
  t.notOk(cfg.endpoints.includes('POST /v1/{prefix}/transactions/commit'), 'no multi-table transactions: one file cannot swap two tables');
  const readOnly = warehouse(t, true);
  const ro = JSON.parse((await readOnly.app.inject({ url: '/v1/config?warehouse=lake' })).body) as { endpoints: string[] };
  t.notOk(ro.endpoints.some((e) => e.startsWith('POST') && !e.endsWith('/plan') && !e.endsWith('/tasks')), 'a read-only catalog advertises no mutation');
  assertError(t, await readOnly.post('/v1/lake/namespaces', { namespace: ['x'] }), 406, 'UnsupportedOperationException', 'create namespace, read-only');
  t.same(fs.readdirSync(readOnly.dir), [], 'and nothing was written');
});

t.test('namespaces: created once, properties kept, dropped only when empty', { skip }, async (t) => {
  const { dir, app, post } = warehouse(t);
  const created = assertBody<{ namespace: string[]; properties: Record<string, string> }>(t, await post('/v1/lake/namespaces', { namespace: ['sales'], properties: { owner: 'ana' } }), 'CreateNamespaceResponse');
  t.same(created, { namespace: ['sales'], properties: { owner: 'ana' } });
  t.ok(fs.statSync(path.join(dir, 'sales')).isDirectory(), 'a directory, as HadoopCatalog makes it');
  assertError(t, await post('/v1/lake/namespaces', { namespace: ['sales'] }), 409, 'AlreadyExistsException');
  assertError(t, await post('/v1/lake/namespaces', { namespace: ['nope', 'child'] }), 404, 'NoSuchNamespaceException', 'a child of a missing parent');
  assertError(t, await post('/v1/lake/namespaces', { namespace: 'sales' }), 400, 'BadRequestException', 'namespace not an array');
  assertError(t, await post('/v1/lake/namespaces', { namespace: ['..'] }), 400, 'BadRequestException', 'a level that is a path');

  const update = assertBody<{ updated: string[]; removed: string[]; missing: string[] }>(
    t,
    await post('/v1/lake/namespaces/sales/properties', { removals: ['owner', 'absent'], updates: { team: 'eu' } }),
    'UpdateNamespacePropertiesResponse',
  );
  t.same(update, { updated: ['team'], removed: ['owner'], missing: ['absent'] });
  t.same(JSON.parse((await app.inject({ url: '/v1/lake/namespaces/sales' })).body), { namespace: ['sales'], properties: { team: 'eu', location: `file://${dir}/sales` } }, 'kept, and the folder as location (HadoopCatalog)');
  assertError(t, await post('/v1/lake/namespaces/sales/properties', { removals: ['team'], updates: { team: 'x' } }), 422, 'UnprocessableEntityException', 'a key removed and updated');

  t.equal((await post('/v1/lake/namespaces', { namespace: ['sales', 'eu'] })).statusCode, 200);
  const schema = { type: 'struct', 'schema-id': 0, fields: [{ id: 1, name: 'id', required: true, type: 'long' }] };
  assertError(t, await post('/v1/lake/namespaces/sales/tables', { name: 'eu', schema }), 409, 'AlreadyExistsException', 'a table named as a namespace');
  t.notOk(fs.existsSync(path.join(dir, 'sales', 'eu', 'metadata')), 'the namespace did not become a table');
  assertError(t, await app.inject({ method: 'DELETE', url: '/v1/lake/namespaces/sales' }), 409, 'NamespaceNotEmptyException');
  t.equal((await app.inject({ method: 'DELETE', url: '/v1/lake/namespaces/sales%1Feu' })).statusCode, 204);
  t.equal((await app.inject({ method: 'DELETE', url: '/v1/lake/namespaces/sales' })).statusCode, 204);
  assertError(t, await app.inject({ url: '/v1/lake/namespaces/sales' }), 404, 'NoSuchNamespaceException');
  t.same(fs.readdirSync(dir), [], 'the warehouse is empty again');
});

t.test('a table: created as v1 with a hint, committed as v2, refused commits change nothing', { skip }, async (t) => {
  const { dir, app, post } = warehouse(t);
  await post('/v1/lake/namespaces', { namespace: ['db'] });
  const created = assertBody<{ 'metadata-location': string; metadata: Record<string, unknown> }>(
    t,
    await post('/v1/lake/namespaces/db/tables', { name: 't', schema: SCHEMA, 'partition-spec': SPEC, properties: { 'format-version': '2', k: 'v' } }),
    'LoadTableResult',
  );
  t.same(metadataFiles(dir, 'db', 't'), ['v1.metadata.json', 'version-hint.text']);
  t.equal(fs.readFileSync(path.join(dir, 'db', 't', 'metadata', 'version-hint.text'), 'utf8'), '1');
  t.equal(created['metadata-location'], `file://${dir}/db/t/metadata/v1.metadata.json`);
  const meta = created.metadata;
  t.equal(meta['location'], `file://${dir}/db/t`);
  t.equal(meta['format-version'], 2);
  t.same((meta['properties'] as Record<string, string>)['k'], 'v');
  t.notOk('format-version' in (meta['properties'] as object), 'format-version is not kept as a property');
  const schema = (meta['schemas'] as { fields: { id: number; name: string }[] }[])[0]!;
  t.same(schema.fields.map((f) => [f.id, f.name]), [[1, 'id'], [2, 'region'], [3, 'ts']], 'fresh field ids, as Java assigns them');
  const uuid = meta['table-uuid'] as string;

  assertError(t, await post('/v1/lake/namespaces/db/tables', { name: 't', schema: SCHEMA }), 409, 'AlreadyExistsException');
  assertError(t, await post('/v1/lake/namespaces/db/tables', { name: 'u', schema: SCHEMA, location: '/elsewhere' }), 400, 'IllegalArgumentException', 'a custom location');
  assertError(t, await post('/v1/lake/namespaces/db/tables', { name: 'u' }), 400, 'BadRequestException', 'no schema');

  const commit = assertBody<{ 'metadata-location': string; metadata: Record<string, unknown> }>(
    t,
    await post('/v1/lake/namespaces/db/tables/t', {
      requirements: [{ type: 'assert-table-uuid', uuid }],
      updates: [{ action: 'set-properties', updates: { 'write.format.default': 'parquet' } }],
    }),
    'CommitTableResponse',
  );
  t.equal(commit['metadata-location'], `file://${dir}/db/t/metadata/v2.metadata.json`);
  t.same((commit.metadata['metadata-log'] as { 'metadata-file': string }[]).map((e) => e['metadata-file']), [created['metadata-location']], 'the metadata log names v1');
  t.equal(fs.readFileSync(path.join(dir, 'db', 't', 'metadata', 'version-hint.text'), 'utf8'), '2');
  const loaded = JSON.parse((await app.inject({ url: '/v1/lake/namespaces/db/tables/t' })).body) as { 'metadata-location': string };
  t.equal(loaded['metadata-location'], commit['metadata-location'], 'the next load sees the commit');

  assertError(t, await post('/v1/lake/namespaces/db/tables/t', { requirements: [{ type: 'assert-table-uuid', uuid: '00000000-0000-0000-0000-000000000000' }], updates: [] }), 409, 'CommitFailedException', 'a stale uuid');
  assertError(t, await post('/v1/lake/namespaces/db/tables/t', { requirements: [], updates: [{ action: 'no-such-update' }] }), 400, 'BadRequestException', 'an unknown update');
  assertError(t, await post('/v1/lake/namespaces/db/tables/t', { requirements: [], updates: [{ action: 'set-current-schema', 'schema-id': 42 }] }), 400, 'IllegalArgumentException', 'a schema id that does not exist');
  assertError(t, await post('/v1/lake/namespaces/db/tables/t', { requirements: [{ type: 'assert-create' }], updates: [] }), 409, 'CommitFailedException', 'assert-create on an existing table');
  assertError(t, await post('/v1/lake/namespaces/db/tables/missing', { requirements: [], updates: [] }), 404, 'NoSuchTableException');
  t.same(metadataFiles(dir, 'db', 't'), ['v1.metadata.json', 'v2.metadata.json', 'version-hint.text'], 'refused commits wrote nothing');

  t.equal((await app.inject({ method: 'DELETE', url: '/v1/lake/namespaces/db/tables/t?purgeRequested=true' })).statusCode, 204);
  assertError(t, await app.inject({ url: '/v1/lake/namespaces/db/tables/t' }), 404, 'NoSuchTableException');
  t.notOk(fs.existsSync(path.join(dir, 'db', 't')), 'the table directory is gone, as HadoopCatalog drops it');
});

t.test('a staged create writes nothing; its commit with assert-create makes the table', { skip }, async (t) => {
  const { dir, post } = warehouse(t);
  await post('/v1/lake/namespaces', { namespace: ['db'] });
  const staged = JSON.parse((await post('/v1/lake/namespaces/db/tables', { name: 's', schema: SCHEMA, 'stage-create': true })).body) as { metadata: Record<string, unknown>; 'metadata-location'?: string };
  t.notOk('metadata-location' in staged, 'no metadata location: nothing is written');
  t.notOk(fs.existsSync(path.join(dir, 'db', 's')));
  const m = staged.metadata;
  const res = await post('/v1/lake/namespaces/db/tables/s', {
    requirements: [{ type: 'assert-create' }],
    updates: [
      { action: 'assign-uuid', uuid: m['table-uuid'] },
      { action: 'upgrade-format-version', 'format-version': m['format-version'] },
      { action: 'add-schema', schema: (m['schemas'] as unknown[])[0] },
      { action: 'set-current-schema', 'schema-id': -1 },
      { action: 'add-spec', spec: (m['partition-specs'] as unknown[])[0] },
      { action: 'set-default-spec', 'spec-id': -1 },
      { action: 'add-sort-order', 'sort-order': (m['sort-orders'] as unknown[])[0] },
      { action: 'set-default-sort-order', 'sort-order-id': -1 },
      { action: 'set-location', location: m['location'] },
      { action: 'set-properties', updates: m['properties'] },
    ],
  });
  const body = assertBody<{ metadata: Record<string, unknown> }>(t, res, 'CommitTableResponse');
  t.equal(body.metadata['table-uuid'], m['table-uuid']);
  t.same(metadataFiles(dir, 'db', 's'), ['v1.metadata.json', 'version-hint.text']);
});

t.test('concurrent commits without requirements all land, each once, in one version chain', { skip }, async (t) => {
  const { dir, app, post } = warehouse(t);
  await post('/v1/lake/namespaces', { namespace: ['db'] });
  await post('/v1/lake/namespaces/db/tables', { name: 'c', schema: SCHEMA });
  const results = await Promise.all(
    Array.from({ length: 8 }, (_, i) => post('/v1/lake/namespaces/db/tables/c', { requirements: [], updates: [{ action: 'set-properties', updates: { [`writer-${i}`]: String(i) } }] })),
  );
  t.same(results.map((r) => r.statusCode), Array(8).fill(200), 'a lost race is retried from fresh state while no requirement fails');
  const loaded = JSON.parse((await app.inject({ url: '/v1/lake/namespaces/db/tables/c' })).body) as { metadata: { properties: Record<string, string>; 'metadata-log': unknown[] } };
  for (let i = 0; i < 8; i++) t.equal(loaded.metadata.properties[`writer-${i}`], String(i), `writer ${i}'s property is there`);
  t.same(metadataFiles(dir, 'db', 'c'), [...Array.from({ length: 9 }, (_, i) => `v${i + 1}.metadata.json`)].sort().concat('version-hint.text').sort(), 'v1…v9, no gap, no temporary file');
  t.equal(loaded.metadata['metadata-log'].length, 8);
});
