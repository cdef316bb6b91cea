import t, { type Test } from 'tap';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createFilesystemCatalog } from '../../src/catalogs/index.js';
import type { FilesystemCatalogConfig, SqlCatalogConfig } from '../../src/config/index.js';
import { buildServer } from '../../src/http/index.js';
import { buildIcefront } from '../../src/main.js';
import { createService } from '../../src/service/index.js';
import { testConfig } from '../helpers/config.js';
import { OPENAPI_SKIP, openApiAvailable } from '../helpers/openapi.js';
import { postgresMissing, startPostgres } from '../helpers/postgres.js';
import { JAVA_V0_DDL } from '../helpers/sql-store-cases.js';
import { assertBody, assertError } from './assertions.js';

const skip = openApiAvailable() ? false : OPENAPI_SKIP;
const TABLE_SCHEMA = { type: 'struct', 'schema-id': 0, fields: [{ id: 1, name: 'id', required: true, type: 'long' }] };
const VIEW_SCHEMA = { type: 'struct', 'schema-id': 0, fields: [{ id: 1, name: 'id', required: false, type: 'long' }] };
// BaseViewOperations: %05d-<uuid> and, views defaulting to gzip (ViewProperties), .gz.metadata.json
const VIEW_FILE = /^\d{5}-[0-9a-f-]{36}\.gz\.metadata\.json$/;
const VIEW_ENDPOINTS = [
  'GET /v1/{prefix}/namespaces/{namespace}/views',
  'GET /v1/{prefix}/namespaces/{namespace}/views/{view}',
  'HEAD /v1/{prefix}/namespaces/{namespace}/views/{view}',
  'POST /v1/{prefix}/namespaces/{namespace}/views',
  'POST /v1/{prefix}/namespaces/{namespace}/views/{view}',
  'DELETE /v1/{prefix}/namespaces/{namespace}/views/{view}',
  'POST /v1/{prefix}/views/rename',
  'POST /v1/{prefix}/namespaces/{namespace}/register-view',
];

interface Row {
  table_namespace: string;
  table_name: string;
  metadata_location: string;
  previous_metadata_location: string | null;
  iceberg_type: string | null;
}

interface Store {
  readonly kind: string;
  uri(t: Test, dir: string): Promise<string>;
  rows(uri: string): Promise<Row[]>;
}

const ROWS = 'SELECT table_namespace, table_name, metadata_location, previous_metadata_location, iceberg_type FROM iceberg_tables ORDER BY table_name';

const sqlite: Store = {
  kind: 'SQLite',
  async uri(_t, dir) {
    return `sqlite:${path.join(dir, 'catalog.db')}`;
  },
  async rows(uri) {
    const { DatabaseSync } = await import('node:sqlite');
    const db = new DatabaseSync(uri.slice('sqlite:'.length), { readOnly: true });
    try {
      return db.prepare(ROWS).all() as never;
    } finally {
      db.close();
    }
  },
};

const postgres: Store & { query?: (sql: string, params: unknown[], uri: string) => Promise<Record<string, unknown>[]> } = {
  kind: 'PostgreSQL',
  async uri(t) {
    const cluster = await startPostgres();
    t.teardown(() => cluster.stop());
    this.query = cluster.query.bind(cluster);
    return cluster.createDatabase();
  },
  async rows(uri) {
    return (await this.query!(ROWS, [], uri)) as never;
  },
};

function tempDir(t: Test): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'icefront-sql-views-')));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function start(t: Test, dir: string, uri: string, extra: Partial<SqlCatalogConfig> = {}) {
  const warehouseDir = path.join(dir, 'warehouse');
  const catalog: SqlCatalogConfig = { type: 'sql', name: 'lake', uri, catalogName: 'lake', warehouseLocation: `file://${warehouseDir}`, warehouseDir, locations: [], planning: 'on', ...extra };
  const { app } = buildIcefront(testConfig([catalog]));
  t.teardown(() => app.close());
  const post = (url: string, payload: unknown) => app.inject({ method: 'POST', url, payload: payload as object, headers: { 'content-type': 'application/json' } });
  const endpoints = async () => (JSON.parse((await app.inject({ url: '/v1/config?warehouse=lake' })).body) as { endpoints: string[] }).endpoints;
  return { warehouseDir, app, post, endpoints };
}

function viewVersion(sql: string, over: Record<string, unknown> = {}) {
  return { 'version-id': 1, 'timestamp-ms': 1_700_000_000_000, 'schema-id': 0, summary: { 'engine-name': 'spark' }, 'default-namespace': ['db'], representations: [{ type: 'sql', sql, dialect: 'spark' }], ...over };
}

const createView = (name: string, over: Record<string, unknown> = {}) => ({ name, schema: VIEW_SCHEMA, 'view-version': viewVersion('SELECT 1 AS id'), properties: {}, ...over });
const fileOf = (location: string) => new URL(location).pathname;
const names = (body: string) => (JSON.parse(body) as { identifiers: { name: string }[] }).identifiers.map((i) => i.name);

interface ViewResult {
  'metadata-location': string;
  metadata: { 'view-uuid': string; location: string; 'current-version-id': number; versions: unknown[]; 'version-log': { 'version-id': number }[]; properties?: Record<string, string> };
}

for (const store of [sqlite, postgres]) {
  const missing = store === postgres ? postgresMissing() : undefined;
  t.test(`a sql catalog on ${store.kind} keeps views as Java's JdbcCatalog does`, { skip: skip || missing || false }, async (t) => {
    const dir = tempDir(t);
    const uri = await store.uri(t, dir);
    const { warehouseDir, app, post, endpoints } = start(t, dir, uri);
    t.equal((await post('/v1/lake/namespaces', { namespace: ['db'] })).statusCode, 200);
    const advertised = await endpoints();
    for (const e of VIEW_ENDPOINTS) t.ok(advertised.includes(e), `advertises ${e}`);

    // create: a VIEW row naming a gzip metadata file under the default location
    const created = assertBody<ViewResult>(t, await post('/v1/lake/namespaces/db/views', createView('v', { properties: { owner: 'ana' } })), 'LoadViewResult', 'create');
    t.equal(created.metadata.location, `file://${warehouseDir}/db/v`, "JdbcCatalog's default location, the same as a table's");
    t.match(path.basename(created['metadata-location']), /^00000-/);
    t.match(path.basename(created['metadata-location']), VIEW_FILE);
    t.equal(path.dirname(fileOf(created['metadata-location'])), path.join(warehouseDir, 'db', 'v', 'metadata'));
    const bytes = fs.readFileSync(fileOf(created['metadata-location']));
    t.same([bytes[0], bytes[1]], [0x1f, 0x8b], 'the file is gzip, as its name says');
    t.same(
      (await store.rows(uri)).map((r) => [r.table_namespace, r.table_name, r.metadata_location, r.iceberg_type]),
      [['db', 'v', created['metadata-location'], 'VIEW']],
      'one iceberg_tables row of type VIEW names it',
    );
    t.equal(created.metadata.properties?.owner, 'ana');

    const loaded = assertBody<ViewResult>(t, await app.inject({ url: '/v1/lake/namespaces/db/views/v' }), 'LoadViewResult', 'load');
    t.equal(loaded['metadata-location'], created['metadata-location']);
    t.same(loaded.metadata, created.metadata);
    t.equal((await app.inject({ method: 'HEAD', url: '/v1/lake/namespaces/db/views/v' })).statusCode, 204);
    t.equal((await app.inject({ method: 'HEAD', url: '/v1/lake/namespaces/db/views/nope' })).statusCode, 404);
    assertError(t, await app.inject({ url: '/v1/lake/namespaces/db/views/nope' }), 404, 'NoSuchViewException');
    assertError(t, await post('/v1/lake/namespaces/db/views', createView('v')), 409, 'AlreadyExistsException', 'a second create');
    assertError(t, await post('/v1/lake/namespaces/nope/views', createView('v')), 404, 'NoSuchNamespaceException');

    // replace: a new version made current (-1: the one added in this commit)
    const uuid = created.metadata['view-uuid'];
    const replaced = assertBody<ViewResult>(
      t,
      await post('/v1/lake/namespaces/db/views/v', {
        requirements: [{ type: 'assert-view-uuid', uuid }],
        updates: [
          { action: 'add-view-version', 'view-version': viewVersion('SELECT 2 AS id', { 'version-id': 2 }) },
          { action: 'set-current-view-version', 'view-version-id': -1 },
        ],
      }),
      'LoadViewResult',
      'replace',
    );
    t.match(path.basename(replaced['metadata-location']), /^00001-/);
    t.match(path.basename(replaced['metadata-location']), VIEW_FILE);
    t.equal(replaced.metadata['current-version-id'], 2);
    t.same(replaced.metadata['version-log'].map((e) => e['version-id']), [1, 2], 'the version log grew');
    let [row] = await store.rows(uri);
    t.equal(row!.metadata_location, replaced['metadata-location']);
    t.equal(row!.previous_metadata_location, created['metadata-location']);

    // a stale requirement: 409 without retry, nothing moved
    assertError(t, await post('/v1/lake/namespaces/db/views/v', { requirements: [{ type: 'assert-view-uuid', uuid: '00000000-0000-0000-0000-000000000000' }], updates: [{ action: 'set-properties', updates: { k: 'v' } }] }), 409, 'CommitFailedException');
    [row] = await store.rows(uri);
    t.equal(row!.metadata_location, replaced['metadata-location'], 'the row did not move');
    t.same(fs.readdirSync(path.join(warehouseDir, 'db', 'v', 'metadata')).length, 2, 'and no file was written');
    // nothing changed: nothing written
    const same = assertBody<ViewResult>(t, await post('/v1/lake/namespaces/db/views/v', { updates: [] }), 'LoadViewResult', 'an empty commit');
    t.equal(same['metadata-location'], replaced['metadata-location']);
    assertError(t, await post('/v1/lake/namespaces/db/views/nope', { updates: [] }), 404, 'NoSuchViewException');
    assertError(t, await post('/v1/lake/namespaces/db/views/v', { updates: [{ action: 'set-properties' }] }), 400, 'BadRequestException', 'a malformed update');

    // races: every writer's change lands, each swap decided by the database
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => post('/v1/lake/namespaces/db/views/v', { updates: [{ action: 'set-properties', updates: { [`w${i}`]: '1' } }] })));
    t.same(results.map((r) => r.statusCode), Array(6).fill(200));
    const props = (JSON.parse((await app.inject({ url: '/v1/lake/namespaces/db/views/v' })).body) as ViewResult).metadata.properties!;
    t.same(Array.from({ length: 6 }, (_, i) => props[`w${i}`]), Array(6).fill('1'), 'each writer’s change is there');

    // views and tables: each listing has its kind; one name is never both
    t.equal((await post('/v1/lake/namespaces/db/tables', { name: 't', schema: TABLE_SCHEMA })).statusCode, 200);
    t.same(names((await app.inject({ url: '/v1/lake/namespaces/db/views' })).body), ['v']);
    t.same(names((await app.inject({ url: '/v1/lake/namespaces/db/tables' })).body), ['t']);
    assertError(t, await post('/v1/lake/namespaces/db/views', createView('t')), 409, 'AlreadyExistsException', 'a view named as a table');
    assertError(t, await post('/v1/lake/namespaces/db/tables', { name: 'v', schema: TABLE_SCHEMA }), 409, 'AlreadyExistsException', 'a table named as a view');
    assertError(t, await app.inject({ url: '/v1/lake/namespaces/db/views/t' }), 404, 'NoSuchViewException', 'a table is no view');
    assertError(t, await app.inject({ url: '/v1/lake/namespaces/db/tables/v' }), 404, 'NoSuchTableException', 'a view is no table');

    // rename
    const rename = (from: string, to: string) => post('/v1/lake/views/rename', { source: { namespace: ['db'], name: from }, destination: { namespace: ['db'], name: to } });
    t.equal((await rename('v', 'w')).statusCode, 204);
    assertError(t, await app.inject({ url: '/v1/lake/namespaces/db/views/v' }), 404, 'NoSuchViewException');
    t.equal((await app.inject({ url: '/v1/lake/namespaces/db/views/w' })).statusCode, 200);
    assertError(t, await rename('w', 't'), 409, 'AlreadyExistsException', 'onto a table');
    assertError(t, await rename('nope', 'x'), 404, 'NoSuchViewException');
    assertError(t, await post('/v1/lake/views/rename', { source: { namespace: ['db'] } }), 400, 'BadRequestException');

    // register: the row names the given file (here the view's first, no longer current), which is not rewritten
    const first = created['metadata-location'];
    const registered = assertBody<ViewResult>(t, await post('/v1/lake/namespaces/db/register-view', { name: 'r', 'metadata-location': first }), 'LoadViewResult', 'register');
    t.equal(registered['metadata-location'], first);
    t.equal(registered.metadata['view-uuid'], uuid);
    t.equal(registered.metadata['current-version-id'], 1);
    t.equal((await store.rows(uri)).find((r) => r.table_name === 'r')?.metadata_location, first, 'the row names that file');
    t.same(names((await app.inject({ url: '/v1/lake/namespaces/db/views' })).body), ['r', 'w']);
    assertError(t, await post('/v1/lake/namespaces/db/register-view', { name: 't', 'metadata-location': first }), 409, 'AlreadyExistsException', 'register onto a table');
    assertError(t, await post('/v1/lake/namespaces/db/register-view', { name: 'x', 'metadata-location': `file://${warehouseDir}/db/none.metadata.json` }), 404, 'NotFoundException', 'no such file');
    assertError(t, await post('/v1/lake/namespaces/db/register-view', { 'metadata-location': first }), 400, 'BadRequestException', 'no name');
    assertError(t, await post('/v1/lake/namespaces/db/views', { name: 'x', schema: VIEW_SCHEMA }), 400, 'BadRequestException', 'no view-version');

    // write.metadata.compression-codec=none: a plain .metadata.json
    const plain = assertBody<ViewResult>(t, await post('/v1/lake/namespaces/db/views', createView('p', { properties: { 'write.metadata.compression-codec': 'none' } })), 'LoadViewResult');
    t.match(path.basename(plain['metadata-location']), /^00000-[0-9a-f-]{36}\.metadata\.json$/);

    // drop: the row, then (gc.enabled, default true) the current metadata file, as JdbcCatalog.dropView
    t.equal((await app.inject({ method: 'DELETE', url: '/v1/lake/namespaces/db/views/r' })).statusCode, 204);
    t.notOk(fs.existsSync(fileOf(first)), "the dropped view's metadata file is gone");
    t.equal((await app.inject({ url: '/v1/lake/namespaces/db/views/w' })).statusCode, 200, 'w, whose current file it was not, still loads');
    assertError(t, await app.inject({ method: 'DELETE', url: '/v1/lake/namespaces/db/views/r' }), 404, 'NoSuchViewException');
    t.equal((await app.inject({ method: 'HEAD', url: '/v1/lake/namespaces/db/views/r' })).statusCode, 404);
    assertError(t, await app.inject({ method: 'DELETE', url: '/v1/lake/namespaces/db' }), 409, 'NamespaceNotEmptyException', 'views keep a namespace');
    for (const name of ['w', 'p']) t.equal((await app.inject({ method: 'DELETE', url: `/v1/lake/namespaces/db/views/${name}` })).statusCode, 204);
    t.same((await store.rows(uri)).map((r) => [r.table_name, r.iceberg_type]), [['t', 'TABLE']], 'only the table is left');
  });
}

t.test('a sql catalog on a V0 database (no iceberg_type) serves no views and advertises none', { skip }, async (t) => {
  const dir = tempDir(t);
  const file = path.join(dir, 'catalog.db');
  const { DatabaseSync } = await import('node:sqlite');
  const db = new DatabaseSync(file);
  for (const ddl of JAVA_V0_DDL) db.exec(ddl);
  db.close();
  const { app, post, endpoints } = start(t, dir, `sqlite:${file}`);
  // the first view call explains itself (the store's UNSUPPORTED_OPERATION, or no views once it is open)
  assertError(t, await app.inject({ url: '/v1/lake/namespaces/db/views' }), 406, 'UnsupportedOperationException', 'the first call');
  t.equal((await post('/v1/lake/namespaces', { namespace: ['db'] })).statusCode, 200);
  t.notOk((await endpoints()).some((e) => e.includes('/views') || e.includes('register-view')), 'no view endpoint');
  assertError(t, await app.inject({ url: '/v1/lake/namespaces/db/views' }), 406, 'UnsupportedOperationException', 'list');
  assertError(t, await post('/v1/lake/namespaces/db/views', createView('v')), 406, 'UnsupportedOperationException', 'create');
  assertError(t, await app.inject({ url: '/v1/lake/namespaces/db/views/v' }), 406, 'UnsupportedOperationException', 'load');
  assertError(t, await post('/v1/lake/views/rename', { source: { namespace: ['db'], name: 'a' }, destination: { namespace: ['db'], name: 'b' } }), 406, 'UnsupportedOperationException', 'rename');
  t.equal((await post('/v1/lake/namespaces/db/tables', { name: 't', schema: TABLE_SCHEMA })).statusCode, 200, 'tables still work');
});

t.test('a read-only sql catalog lists and loads views and changes none', { skip }, async (t) => {
  const dir = tempDir(t);
  const uri = `sqlite:${path.join(dir, 'catalog.db')}`;
  const writer = start(t, dir, uri);
  t.equal((await writer.post('/v1/lake/namespaces', { namespace: ['db'] })).statusCode, 200);
  t.equal((await writer.post('/v1/lake/namespaces/db/views', createView('v'))).statusCode, 200);
  const { app, post, endpoints } = start(t, dir, uri, { readOnly: true });
  const advertised = await endpoints();
  t.same(VIEW_ENDPOINTS.filter((e) => advertised.includes(e)), VIEW_ENDPOINTS.slice(0, 3), 'list, load and exists only');
  assertBody(t, await app.inject({ url: '/v1/lake/namespaces/db/views/v' }), 'LoadViewResult');
  assertError(t, await post('/v1/lake/namespaces/db/views', createView('x')), 406, 'UnsupportedOperationException');
  assertError(t, await app.inject({ method: 'DELETE', url: '/v1/lake/namespaces/db/views/v' }), 406, 'UnsupportedOperationException');
});

t.test('a filesystem catalog keeps no views: 406 on every view route, none advertised', { skip }, async (t) => {
  const dir = tempDir(t);
  const config: FilesystemCatalogConfig = { type: 'filesystem', name: 'lake', warehouse: dir, locations: [], planning: 'on' };
  const app = buildServer({ service: createService({ catalogs: new Map([['lake', createFilesystemCatalog(config)]]) }), bodyLimit: 1 << 20 });
  t.teardown(() => app.close());
  const cfg = JSON.parse((await app.inject({ url: '/v1/config?warehouse=lake' })).body) as { endpoints: string[] };
  t.notOk(cfg.endpoints.some((e) => VIEW_ENDPOINTS.includes(e)), 'no view endpoint');
  t.equal((await app.inject({ method: 'POST', url: '/v1/lake/namespaces', payload: { namespace: ['db'] } })).statusCode, 200);
  const json = { 'content-type': 'application/json' };
  const cases: [string, string, unknown?][] = [
    ['GET', '/v1/lake/namespaces/db/views'],
    ['POST', '/v1/lake/namespaces/db/views', createView('v')],
    ['GET', '/v1/lake/namespaces/db/views/v'],
    ['POST', '/v1/lake/namespaces/db/views/v', { updates: [] }],
    ['DELETE', '/v1/lake/namespaces/db/views/v'],
    ['POST', '/v1/lake/views/rename', { source: { namespace: ['db'], name: 'a' }, destination: { namespace: ['db'], name: 'b' } }],
    ['POST', '/v1/lake/namespaces/db/register-view', { name: 'v', 'metadata-location': `file://${dir}/x.metadata.json` }],
  ];
  for (const [method, url, payload] of cases)
    assertError(t, await app.inject({ method: method as 'GET', url, ...(payload !== undefined && { payload: payload as object, headers: json }) }), 406, 'UnsupportedOperationException', `${method} ${url}`);
  t.equal((await app.inject({ method: 'HEAD', url: '/v1/lake/namespaces/db/views/v' })).statusCode, 406);
  assertError(t, await app.inject({ url: '/v1/nope/namespaces/db/views' }), 404, 'NoSuchWarehouseException', 'an unknown catalog is still 404');
});
