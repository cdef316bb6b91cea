import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { buildCatalogSet } from '../src/catalog-set.js';
import { createByteBudget } from '../src/cache/index.js';
import type { CatalogConfig } from '../src/config/index.js';
import { startUpstreamStub, stubCatalogConfig } from './helpers/upstream-stub.js';
import { appWith, DEMO_WAREHOUSE, demoCatalog, metric } from './service/planning/helpers.js';

const configs = (...list: CatalogConfig[]) => new Map(list.map((c) => [c.name, c]));

/** The sizes of a demo table's metadata files on disk: what its table-metadata cache entry weighs. */
function metadataFileSizes(table: string): number[] {
  const dir = path.join(DEMO_WAREHOUSE, 'sales', table, 'metadata');
  return fs.readdirSync(dir).filter((f) => f.endsWith('.metadata.json')).map((f) => fs.statSync(path.join(dir, f)).size);
}

/** Bytes the demo catalog's table-metadata cache holds, from /metrics. */
async function heldBytes(app: ReturnType<typeof appWith>): Promise<number> {
  return metric((await app.inject({ method: 'GET', url: '/metrics' })).body, 'icefront_cache_bytes{cache="table-metadata:demo"}');
}

t.test('a rebuilt set keeps the objects of unchanged catalogs (their caches and pools) and builds the rest anew', async (t) => {
  const a = await startUpstreamStub();
  const b = await startUpstreamStub();
  t.teardown(() => Promise.all([a.close(), b.close()]));
  const deps = { bufferBudget: createByteBudget(1 << 20) };
  const first = buildCatalogSet(configs(demoCatalog('fs'), stubCatalogConfig(a, { name: 'kept' }), stubCatalogConfig(a, { name: 'moved' }), demoCatalog('gone')), deps);
  // the same settings, as a reload reads them again: equal, not the same objects
  const again = configs({ ...demoCatalog('fs') }, stubCatalogConfig(a, { name: 'kept' }), stubCatalogConfig(b, { name: 'moved' }), demoCatalog('new'));
  const second = buildCatalogSet(again, deps, first.next);
  t.teardown(() => Promise.all([...second.next.upstreams.values()].map((u) => u.upstream.close())));

  t.same([second.kept, second.changed, second.added, second.removed], [['fs', 'kept'], ['moved'], ['new'], ['gone']]);
  t.equal(second.next.catalogs.get('fs'), first.next.catalogs.get('fs'), 'an unchanged filesystem catalog is the same object');
  t.equal(second.next.upstreams.get('kept'), first.next.upstreams.get('kept'), 'an unchanged upstream is the same client');
  t.not(second.next.upstreams.get('moved'), first.next.upstreams.get('moved'), 'a changed one is new');
  t.equal(second.next.upstreams.get('moved')!.upstream.origin, b.origin);
  t.equal(second.retired.length, 1, 'one client to close');
  t.equal(second.retired[0], first.next.upstreams.get('moved'), 'the replaced one');
  await first.next.upstreams.get('moved')!.upstream.close();
});

t.test("a catalog Icefront keeps itself shows its table-metadata cache on /metrics, under the catalog's name", async (t) => {
  const app = appWith([demoCatalog()]);
  t.teardown(() => app.close());
  const budget = metric((await app.inject({ method: 'GET', url: '/metrics' })).body, 'icefront_cache_budget_bytes{cache="table-metadata:demo"}');
  t.equal(budget, 64 * 1024 * 1024, 'its budget');
  t.equal(await heldBytes(app), 0, 'nothing held before a load');
  t.equal((await app.inject({ method: 'GET', url: '/v1/demo/namespaces/sales/tables/orders' })).statusCode, 200);
  const held = await heldBytes(app);
  t.ok(metadataFileSizes('orders').includes(held), `it holds ${held} bytes, the size of a metadata file of the table on disk`);
});

t.test('with planning.cache-idle-seconds, a table nobody loads for that long leaves the table-metadata cache', async (t) => {
  // waits bound from below only (a late timer cannot fail it); keeping a value read meanwhile is
  // test/cache/compute-cache.test.ts's, on a clock of its own
  const app = appWith([demoCatalog()], { cacheIdleMs: 1000 });
  t.teardown(() => app.close());
  const load = async (table: string) => t.equal((await app.inject({ method: 'GET', url: `/v1/demo/namespaces/sales/tables/${table}` })).statusCode, 200, `${table} loads`);
  await load('orders');
  t.ok(metadataFileSizes('orders').includes(await heldBytes(app)), 'orders held');
  await new Promise((r) => setTimeout(r, 1300));
  await load('returns'); // the cache's next use after orders has been idle past the second
  const held = await heldBytes(app);
  t.ok(metadataFileSizes('returns').includes(held), `it holds ${held} bytes, one metadata file of returns: orders left`);
});

t.test("an own catalog's metadata-cache-bytes is its table-metadata cache's budget: a table file larger than it is answered, not held", async (t) => {
  const app = appWith([{ ...demoCatalog(), metadataCacheBytes: 1000 }]);
  t.teardown(() => app.close());
  const gauge = async (name: string) => metric((await app.inject({ method: 'GET', url: '/metrics' })).body, `${name}{cache="table-metadata:demo"}`);
  t.equal(await gauge('icefront_cache_budget_bytes'), 1000, 'the budget on /metrics');
  const dir = path.join(DEMO_WAREHOUSE, 'sales', 'orders', 'metadata');
  const smallest = Math.min(...fs.readdirSync(dir).filter((f) => f.endsWith('.metadata.json')).map((f) => fs.statSync(path.join(dir, f)).size));
  t.ok(smallest > 1000, `the table's metadata files (${smallest} bytes at least) are larger than the budget`);
  t.equal((await app.inject({ method: 'GET', url: '/v1/demo/namespaces/sales/tables/orders' })).statusCode, 200, 'the table still loads');
  t.equal(await gauge('icefront_cache_bytes'), 0, 'and nothing is held');
});
