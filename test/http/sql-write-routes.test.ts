import t, { type Test } from 'tap';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { SqlCatalogConfig } from '../../src/config/index.js';
import { buildIcefront } from '../../src/main.js';
import { testConfig } from '../helpers/config.js';
import { OPENAPI_SKIP, openApiAvailable } from '../helpers/openapi.js';
import { postgresMissing, startPostgres } from '../helpers/postgres.js';
import { assertBody, assertError } from './assertions.js';

const skip = openApiAvailable() ? false : OPENAPI_SKIP;
const SCHEMA = { type: 'struct', 'schema-id': 0, fields: [{ id: 1, name: 'id', required: true, type: 'long' }] };
const METADATA_FILE = /^\d{5}-[0-9a-f-]{36}\.metadata\.json$/;

interface Store {
  readonly kind: string;
  uri(t: Test, dir: string): Promise<string>;
  rows(uri: string): Promise<{ table_namespace: string; table_name: string; metadata_location: string; previous_metadata_location: string | null }[]>;
}

const sqlite: Store = {
  kind: 'SQLite',
  async uri(_t, dir) {
    return `sqlite:${path.join(dir, 'catalog.db')}`;
  },
  async rows(uri) {
    const { DatabaseSync } = await import('node:sqlite');
    const db = new DatabaseSync(uri.slice('sqlite:'.length), { readOnly: true });
    try {
      return db.prepare('SELECT table_namespace, table_name, metadata_location, previous_metadata_location FROM iceberg_tables ORDER BY table_name').all() as never;
    } finally {
      db.close();
    }
  },
};

const postgres: Store = {
  kind: 'PostgreSQL',
  async uri(t) {
    const cluster = await startPostgres();
    t.teardown(() => cluster.stop());
    this.query = cluster.query.bind(cluster);
    return cluster.createDatabase();
  },
  async rows(uri) {
    return (await this.query!('SELECT table_namespace, table_name, metadata_location, previous_metadata_location FROM iceberg_tables ORDER BY table_name', [], uri)) as never;
  },
} as Store & { query?: (sql: string, params: unknown[], uri: string) => Promise<Record<string, unknown>[]> };

async function start(t: Test, store: Store) {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'icefront-sql-writes-')));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  const warehouseDir = path.join(dir, 'warehouse');
  const uri = await store.uri(t, dir);
  const catalog: SqlCatalogConfig = { type: 'sql', name: 'lake', uri, catalogName: 'lake', warehouseLocation: `file://${warehouseDir}`, warehouseDir, locations: [], planning: 'on' };
  const { app } = buildIcefront(testConfig([catalog]));
  // closing the app closes the service, and so the catalog's database connections
  t.teardown(() => app.close());
  const post = (url: string, payload: unknown) => app.inject({ method: 'POST', url, payload: payload as object, headers: { 'content-type': 'application/json' } });
  return { dir, warehouseDir, uri, app, post };
}

for (const store of [sqlite, postgres]) {
  const missing = store === postgres ? postgresMissing() : undefined;
  t.test(`a sql catalog on ${store.kind}: Iceberg's JDBC rows, Java's file names, every mutation`, { skip: skip || missing || false }, async (t) => {
    const { warehouseDir, uri, app, post } = await start(t, store);
    const cfg = JSON.parse((await app.inject({ url: '/v1/config?warehouse=lake' })).body) as { endpoints: string[] };
    for (const e of ['POST /v1/{prefix}/tables/rename', 'POST /v1/{prefix}/transactions/commit', 'POST /v1/{prefix}/namespaces/{namespace}/properties'])
      t.ok(cfg.endpoints.includes(e), `advertises ${e}`);

    t.equal((await post('/v1/lake/namespaces', { namespace: ['db'], properties: { owner: 'ana' } })).statusCode, 200);
    assertError(t, await post('/v1/lake/namespaces', { namespace: ['db'] }), 409, 'AlreadyExistsException');
    t.same(JSON.parse((await app.inject({ url: '/v1/lake/namespaces/db' })).body).properties, { owner: 'ana', location: `file://${warehouseDir}/db` }, 'kept, with the default location (JdbcCatalog)');

    const created = assertBody<{ 'metadata-location': string; metadata: { location: string; 'table-uuid': string } }>(t, await post('/v1/lake/namespaces/db/tables', { name: 'a', schema: SCHEMA }), 'LoadTableResult');
    t.equal(created.metadata.location, `file://${warehouseDir}/db/a`, "JdbcCatalog's default location: <warehouse>/<namespace>/<table>");
    t.match(path.basename(created['metadata-location']), /^00000-/);
    t.match(path.basename(created['metadata-location']), METADATA_FILE);
    t.ok(fs.existsSync(new URL(created['metadata-location']).pathname), 'the metadata file is on disk');
    t.same((await store.rows(uri)).map((r) => [r.table_namespace, r.table_name, r.metadata_location]), [['db', 'a', created['metadata-location']]], 'one iceberg_tables row names it');

    const committed = assertBody<{ 'metadata-location': string }>(
      t,
      await post('/v1/lake/namespaces/db/tables/a', { requirements: [{ type: 'assert-table-uuid', uuid: created.metadata['table-uuid'] }], updates: [{ action: 'set-properties', updates: { k: 'v' } }] }),
      'CommitTableResponse',
    );
    t.match(path.basename(committed['metadata-location']), /^00001-/);
    const [row] = await store.rows(uri);
    t.equal(row!.metadata_location, committed['metadata-location']);
    t.equal(row!.previous_metadata_location, created['metadata-location'], 'the previous location, as Java keeps it');

    // all or nothing: a transaction whose second change fails applies neither
    t.equal((await post('/v1/lake/namespaces/db/tables', { name: 'b', schema: SCHEMA })).statusCode, 200);
    const before = await store.rows(uri);
    const change = (name: string, requirements: unknown[]) => ({ identifier: { namespace: ['db'], name }, requirements, updates: [{ action: 'set-properties', updates: { tx: '1' } }] });
    assertError(t, await post('/v1/lake/transactions/commit', { 'table-changes': [change('a', []), change('b', [{ type: 'assert-current-schema-id', 'current-schema-id': 99 }])] }), 409, 'CommitFailedException');
    t.same(await store.rows(uri), before, 'no row moved');
    t.equal((await app.inject({ method: 'POST', url: '/v1/lake/transactions/commit', payload: { 'table-changes': [change('a', []), change('b', [])] } })).statusCode, 204);
    for (const name of ['a', 'b']) t.equal(JSON.parse((await app.inject({ url: `/v1/lake/namespaces/db/tables/${name}` })).body).metadata.properties.tx, '1', `${name} has the transaction's change`);

    // races: every commit lands once; the database decides each swap
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => post('/v1/lake/namespaces/db/tables/a', { requirements: [], updates: [{ action: 'set-properties', updates: { [`w${i}`]: '1' } }] })));
    t.same(results.map((r) => r.statusCode), Array(8).fill(200));
    const props = JSON.parse((await app.inject({ url: '/v1/lake/namespaces/db/tables/a' })).body).metadata.properties as Record<string, string>;
    t.same(Array.from({ length: 8 }, (_, i) => props[`w${i}`]), Array(8).fill('1'), 'each writer’s change is there');

    t.equal((await post('/v1/lake/tables/rename', { source: { namespace: ['db'], name: 'b' }, destination: { namespace: ['db'], name: 'c' } })).statusCode, 204);
    assertError(t, await app.inject({ url: '/v1/lake/namespaces/db/tables/b' }), 404, 'NoSuchTableException');
    t.equal((await app.inject({ url: '/v1/lake/namespaces/db/tables/c' })).statusCode, 200);
    assertError(t, await post('/v1/lake/tables/rename', { source: { namespace: ['db'], name: 'c' }, destination: { namespace: ['db'], name: 'a' } }), 409, 'AlreadyExistsException');

    assertError(t, await app.inject({ method: 'DELETE', url: '/v1/lake/namespaces/db' }), 409, 'NamespaceNotEmptyException');
    t.equal((await app.inject({ method: 'DELETE', url: '/v1/lake/namespaces/db/tables/c?purgeRequested=true' })).statusCode, 204);
    t.notOk(fs.existsSync(path.join(warehouseDir, 'db', 'c')), 'purge removed the table folder');
    // a location the client chose may hold more than the table: purge takes only the table's metadata files
    const chosen = path.join(warehouseDir, 'shared');
    fs.mkdirSync(chosen, { recursive: true });
    fs.writeFileSync(path.join(chosen, 'keep.txt'), 'not the table’s');
    const p = assertBody<{ 'metadata-location': string }>(t, await post('/v1/lake/namespaces/db/tables', { name: 'p', schema: SCHEMA, location: `file://${chosen}` }), 'LoadTableResult');
    t.equal((await app.inject({ method: 'DELETE', url: '/v1/lake/namespaces/db/tables/p?purgeRequested=true' })).statusCode, 204);
    t.ok(fs.existsSync(path.join(chosen, 'keep.txt')), 'a file that is not the table’s stays');
    t.notOk(fs.existsSync(new URL(p['metadata-location']).pathname), 'the table’s metadata file went');
    t.equal((await app.inject({ method: 'DELETE', url: '/v1/lake/namespaces/db/tables/a' })).statusCode, 204);
    t.ok(fs.existsSync(path.join(warehouseDir, 'db', 'a', 'metadata')), 'a drop without purge leaves the files');
    t.equal((await app.inject({ method: 'DELETE', url: '/v1/lake/namespaces/db' })).statusCode, 204);
    t.same(await store.rows(uri), []);
  });
}
