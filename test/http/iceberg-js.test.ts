import t from 'tap';
import { IcebergError } from 'iceberg-js';
import { buildServer } from '../../src/http/index.js';
import { createService } from '../../src/service/index.js';
import { icebergJsCatalog, listen } from '../helpers/iceberg-js.js';
import { REAL_FIXTURES_SKIP, realFixturesAvailable } from '../helpers/real-fixtures.js';
import { AWKWARD_TABLES, buildAwkwardWarehouse, V2_CURRENT_SNAPSHOT } from './temp-warehouse.js';

const skip = realFixturesAvailable() ? false : REAL_FIXTURES_SKIP;

async function icebergError(p: Promise<unknown>): Promise<IcebergError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof IcebergError) return err;
    throw err;
  }
  throw new Error('expected an IcebergError');
}

t.test('iceberg-js 1.0.0 against a listening server', { skip }, async (t) => {
  const wh = buildAwkwardWarehouse('awk');
  const app = buildServer({ service: createService({ catalogs: new Map([['awk', wh.catalog]]) }), bodyLimit: 1 << 20 });
  const baseUrl = await listen(app);
  t.teardown(async () => {
    await app.close();
    wh.remove();
  });
  const catalog = icebergJsCatalog(baseUrl, 'awk', { token: 'ignored-token' });

  t.test('it reads its prefix from /v1/config', async (t) => {
    const config = (await catalog.loadConfig()) as { overrides: Record<string, string> };
    t.equal(config.overrides.prefix, 'awk');
  });

  t.test('listNamespaces, recursively through parent, finds every awkward namespace', async (t) => {
    const top = await catalog.listNamespaces();
    t.same(top.namespaces.map((n) => n.namespace).sort(), [['%41'], ['a+b'], ['dots.and.more'], ['sp ace']]);
    const nested = await catalog.listNamespaces({ parent: { namespace: ['sp ace'] } });
    t.same(nested.namespaces.map((n) => n.namespace), [['sp ace', 'ü ni%code']]);
  });

  t.test('pageSize and pageToken page through namespaces', async (t) => {
    const seen: string[][] = [];
    let pageToken: string | undefined;
    do {
      const page = await catalog.listNamespaces({ pageSize: 1, ...(pageToken ? { pageToken } : {}) });
      t.equal(page.namespaces.length, 1);
      seen.push(...page.namespaces.map((n) => n.namespace));
      pageToken = page.nextPageToken;
    } while (pageToken);
    t.equal(seen.length, 4);
  });

  t.test('listTables and loadTable work for every awkward name', async (t) => {
    for (const table of AWKWARD_TABLES) {
      const listed = await catalog.listTables({ namespace: [...table.namespace] });
      t.ok(listed.identifiers.some((i) => i.name === table.name), `${table.name} listed`);
      const metadata = await catalog.loadTable({ namespace: [...table.namespace], name: table.name });
      t.type(metadata?.['table-uuid'], 'string', `${table.name} loaded`);
      t.ok(await catalog.tableExists({ namespace: [...table.namespace], name: table.name }), 'tableExists');
      t.ok(await catalog.namespaceExists({ namespace: [...table.namespace] }), 'namespaceExists');
    }
  });

  t.test('loadTableResult returns the ETag; sending it back as ifNoneMatch yields null (304)', async (t) => {
    const id = { namespace: ['sp ace', 'ü ni%code'], name: 't +plus' };
    const result = await catalog.loadTableResult(id);
    t.ok(result);
    t.match(result!.etag, /^"[^"]+"$/);
    t.type(result!['metadata-location'], 'string');
    // iceberg-js parses with JSON.parse: it sees the id as its nearest double (the wire digits are exact, load-table.test.ts).
    t.equal(result!.metadata['current-snapshot-id'], Number(V2_CURRENT_SNAPSHOT));
    t.equal(await catalog.loadTableResult(id, { ifNoneMatch: result!.etag! }), null);
    const refs = await catalog.loadTableResult(id, { ifNoneMatch: result!.etag!, snapshots: 'refs' });
    t.ok(refs, 'a different representation is not a 304');
  });

  t.test('namespaceExists and tableExists are false for missing ones', async (t) => {
    t.equal(await catalog.namespaceExists({ namespace: ['missing'] }), false);
    t.equal(await catalog.namespaceExists({ namespace: ['sp ace', 'missing'] }), false);
    t.equal(await catalog.tableExists({ namespace: ['dots.and.more'], name: 'missing' }), false);
    t.equal(await catalog.tableExists({ namespace: ['missing'], name: 'x' }), false);
  });

  t.test('errors surface as IcebergError with the Iceberg type', async (t) => {
    const noTable = await icebergError(catalog.loadTable({ namespace: ['dots.and.more'], name: 'missing' }));
    t.equal(noTable.status, 404);
    t.equal(noTable.icebergType, 'NoSuchTableException');
    const noNs = await icebergError(catalog.listTables({ namespace: ['missing'] }));
    t.equal(noNs.icebergType, 'NoSuchNamespaceException');
    const readOnly = await icebergError(catalog.createNamespace({ namespace: ['new'] }));
    t.equal(readOnly.status, 406);
    t.equal(readOnly.icebergType, 'UnsupportedOperationException');
    const drop = await icebergError(catalog.dropTable({ namespace: ['dots.and.more'], name: 'tbl.v1' }));
    t.equal(drop.icebergType, 'UnsupportedOperationException');
    const badPage = await icebergError(catalog.listTables({ namespace: ['dots.and.more'] }, { pageToken: 'garbage' }));
    t.equal(badPage.status, 400);
  });

  t.test('an unknown warehouse: iceberg-js falls back to v1/<warehouse> and then gets NoSuchWarehouseException', async (t) => {
    const lost = icebergJsCatalog(baseUrl, 'nope');
    const err = await icebergError(lost.listNamespaces());
    t.equal(err.status, 404);
    t.equal(err.icebergType, 'NoSuchWarehouseException');
  });
});
