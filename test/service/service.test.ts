import t from 'tap';
import { createFilesystemCatalog, type Catalog } from '../../src/catalogs/index.js';
import { isIcefrontError } from '../../src/errors/index.js';
import { createService, READ_ENDPOINTS, type Service } from '../../src/service/index.js';
import { validateAgainst } from '../helpers/openapi.js';
import { REAL_FIXTURES_SKIP, realFixturesAvailable } from '../helpers/real-fixtures.js';
import { AWKWARD_TABLES, buildAwkwardWarehouse, V2_CURRENT_SNAPSHOT, type TempWarehouse } from '../http/temp-warehouse.js';

async function errorCode(fn: () => unknown): Promise<string> {
  try {
    await fn();
  } catch (err) {
    if (isIcefrontError(err)) return err.code;
    throw err;
  }
  return 'OK';
}

const skip = realFixturesAvailable() ? false : REAL_FIXTURES_SKIP;

t.test('service over a temp warehouse', { skip }, async (t) => {
  const wh: TempWarehouse = buildAwkwardWarehouse('awk');
  t.teardown(() => wh.remove());
  const other: Catalog = { ...wh.catalog, name: 'second' };
  const single = createService({ catalogs: new Map([['awk', wh.catalog]]) });
  const multi = createService({ catalogs: new Map([['awk', wh.catalog], ['second', other]]) });

  t.test('config names the catalog as prefix and advertises exactly the served read endpoints', async (t) => {
    const config = single.getConfig('awk');
    t.same(validateAgainst('CatalogConfig', config), []);
    t.equal(config.overrides.prefix, 'awk');
    t.equal(config.overrides['namespace-separator'], '%1F');
    t.same(config.defaults, {});
    t.same([...config.endpoints].sort(), [...READ_ENDPOINTS].sort());
    t.notOk('idempotency-key-lifetime' in config, 'nothing mutates, so no idempotency window');
    for (const e of config.endpoints) t.match(e, /^(GET|HEAD) \/v1\/\{prefix\}\/namespaces/, `endpoint ${e}`);
  });

  t.test('config without a warehouse picks the only catalog; with several it asks for one', async (t) => {
    t.equal(single.getConfig(undefined).overrides.prefix, 'awk');
    t.equal(await errorCode(() => multi.getConfig(undefined)), 'BAD_REQUEST');
    t.equal(multi.getConfig('second').overrides.prefix, 'second');
    t.equal(await errorCode(() => multi.getConfig('nope')), 'NO_SUCH_WAREHOUSE');
  });

  t.test('an unknown prefix is NO_SUCH_WAREHOUSE for every operation, including unsupported ones', async (t) => {
    const s: Service = single;
    t.equal(await errorCode(() => s.listNamespaces('nope', [], {})), 'NO_SUCH_WAREHOUSE');
    t.equal(await errorCode(() => s.loadNamespace('nope', ['a']), ), 'NO_SUCH_WAREHOUSE');
    t.equal(await errorCode(() => s.listTables('nope', ['a'], {})), 'NO_SUCH_WAREHOUSE');
    t.equal(await errorCode(() => s.loadTable('nope', { namespace: ['a'], name: 'b' }, undefined)), 'NO_SUCH_WAREHOUSE');
    t.equal(await errorCode(() => s.rejectUnsupported('nope', 'POST x')), 'NO_SUCH_WAREHOUSE');
    t.equal(await errorCode(() => s.rejectUnsupported('awk', 'POST x')), 'UNSUPPORTED_OPERATION');
  });

  t.test('namespaces with empty levels or NUL, and empty table names, are rejected before the catalog', async (t) => {
    t.equal(await errorCode(() => single.loadNamespace('awk', [])), 'INVALID_NAMESPACE');
    t.equal(await errorCode(() => single.loadNamespace('awk', ['a', ''])), 'INVALID_NAMESPACE');
    t.equal(await errorCode(() => single.listTables('awk', ['a\0b'], {})), 'INVALID_NAMESPACE');
    t.equal(await errorCode(() => single.listNamespaces('awk', ['', 'x'], {})), 'INVALID_NAMESPACE');
    t.equal(await errorCode(() => single.loadTable('awk', { namespace: ['dots.and.more'], name: '' }, undefined)), 'INVALID_IDENTIFIER');
    t.equal(await errorCode(() => single.loadTable('awk', { namespace: ['dots.and.more'], name: 'a\0' }, undefined)), 'INVALID_IDENTIFIER');
  });

  t.test('listings follow the warehouse: every awkward table is found under its namespace', async (t) => {
    for (const table of AWKWARD_TABLES) {
      const ns = await single.loadNamespace('awk', table.namespace);
      t.same(validateAgainst('GetNamespaceResponse', ns), []);
      t.same(ns.namespace, table.namespace);
      const list = await single.listTables('awk', table.namespace, {});
      t.same(validateAgainst('ListTablesResponse', list), []);
      t.ok(list.identifiers.some((i) => i.name === table.name), `${table.name} listed`);
    }
    const top = await single.listNamespaces('awk', [], {});
    t.same(validateAgainst('ListNamespacesResponse', top), []);
    t.same(top.namespaces.map((n) => n.join('/')).sort(), ['%41', 'a+b', 'dots.and.more', 'sp ace']);
  });

  t.test('loadTable returns a LoadTableResult with exact snapshot ids and a stable ETag per snapshots mode', async (t) => {
    const id = { namespace: ['sp ace', 'ü ni%code'], name: 't +plus' };
    const all = await single.loadTable('awk', id, undefined);
    t.same(validateAgainst('LoadTableResult', all.result), []);
    t.match(all.result['metadata-location'], /\/metadata\/[^/]+\.metadata\.json$/);
    const meta = all.result.metadata as { 'current-snapshot-id': unknown; snapshots: { 'snapshot-id': unknown }[] };
    t.equal(String(meta['current-snapshot-id']), V2_CURRENT_SNAPSHOT, 'id beyond 2^53 kept exactly');
    t.equal((await single.loadTable('awk', id, 'all')).etag, all.etag, 'absent means all');
    t.equal((await single.loadTable('awk', id, undefined)).etag, all.etag, 'stable across loads');
    t.match(all.etag, /^"[0-9a-f]{32}"$/, 'strong, quoted');

    const refs = await single.loadTable('awk', id, 'refs');
    t.not(refs.etag, all.etag, 'refs and all are different representations');
    const refSnaps = (refs.result.metadata as typeof meta).snapshots.map((s) => String(s['snapshot-id']));
    t.same(refSnaps, [V2_CURRENT_SNAPSHOT], 'refs keeps only the snapshot main points at');
    t.ok(meta.snapshots.length > refSnaps.length, 'all keeps the older snapshot too');

    const otherTable = await single.loadTable('awk', { namespace: ['%41'], name: '100%' }, undefined);
    t.not(otherTable.etag, all.etag, 'different tables, different ETags');
    for (const bad of ['ALL', 'none', '', 'refs,all']) {
      t.equal(await errorCode(() => single.loadTable('awk', id, bad)), 'BAD_REQUEST', `snapshots=${JSON.stringify(bad)}`);
    }
  });

  t.test('a warm load-table is at hand without waiting, the same answer loadTable gives, per snapshots mode', async (t) => {
    const id = { namespace: ['sp ace', 'ü ni%code'], name: 't +plus' };
    // a catalog that reuses its resolutions (refresh-ms), as configured catalogs do by default
    const fresh = createService({ catalogs: new Map([['awk', createFilesystemCatalog({ ...wh.config, refreshMs: 60_000 })]]) });
    t.equal(fresh.loadedTable?.('awk', id, undefined), undefined, 'nothing before a first load');
    const all = await fresh.loadTable('awk', id, undefined);
    t.equal(fresh.loadedTable?.('awk', id, undefined), all, 'the answer loadTable gave');
    t.equal(fresh.loadedTable?.('awk', id, 'all'), all, 'absent means all');
    t.equal(fresh.loadedTable?.('awk', id, 'refs'), undefined, 'refs not made yet');
    const refs = await fresh.loadTable('awk', id, 'refs');
    t.equal(fresh.loadedTable?.('awk', id, 'refs'), refs);
    for (const bad of ['ALL', '', 'refs,all']) t.equal(fresh.loadedTable?.('awk', id, bad), undefined, `snapshots=${JSON.stringify(bad)} is left to loadTable's 400`);
    t.equal(fresh.loadedTable?.('nope', id, undefined), undefined, 'an unknown prefix is left to loadTable');
    t.equal(fresh.loadedTable?.('awk', { ...id, name: 'missing' }, undefined), undefined);
  });

  t.test('a missing namespace or table is reported by its Iceberg code', async (t) => {
    t.equal(await errorCode(() => single.listTables('awk', ['missing'], {})), 'NO_SUCH_NAMESPACE');
    t.equal(await errorCode(() => single.loadTable('awk', { namespace: ['dots.and.more'], name: 'missing' }, undefined)), 'NO_SUCH_TABLE');
    t.equal(await errorCode(() => single.loadTable('awk', { namespace: ['missing'], name: 'x' }, undefined)), 'NO_SUCH_TABLE', 'REST spec loadTable 404: NoSuchTableException');
  });
});
