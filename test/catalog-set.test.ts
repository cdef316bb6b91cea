import t from 'tap';
import { buildCatalogSet } from '../src/catalog-set.js';
import { createByteBudget } from '../src/cache/index.js';
import type { CatalogConfig } from '../src/config/index.js';
import { startUpstreamStub, stubCatalogConfig } from './helpers/upstream-stub.js';
import { demoCatalog } from './service/planning/helpers.js';

const configs = (...list: CatalogConfig[]) => new Map(list.map((c) => [c.name, c]));

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
