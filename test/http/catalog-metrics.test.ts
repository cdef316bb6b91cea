/**
 * /metrics tells a dashboard which upstream is slow or failing: requests, upstream calls and
 * their errors are labelled by catalog (a configured one only: an unknown prefix is '').
 */
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { buildIcefront } from '../../src/main.js';
import { testConfig } from '../helpers/config.js';
import { closedPort, startUpstreamStub, stubCatalogConfig, stubTableFromDir } from '../helpers/upstream-stub.js';
import { demoCatalog, DEMO_WAREHOUSE } from '../service/planning/helpers.js';

/** The value of one series of the exposition, found by its name and exact label set. */
function series(text: string, name: string, labels: Record<string, string>): number | undefined {
  const want = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    const m = /^(\w+)\{(.*)\} (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = m[2]!.split(/,(?=\w+=")/);
    if (want.every((w) => have.includes(w)) && have.length === want.length) return Number(m[3]);
  }
  return undefined;
}

t.test('requests, upstream calls and upstream failures are labelled by catalog', async (t) => {
  const table = stubTableFromDir(path.join(DEMO_WAREHOUSE, 'sales/orders/metadata'), ['sales'], 'orders');
  const stub = await startUpstreamStub({ tables: [table] });
  const dead = await closedPort();
  const config = testConfig([
    demoCatalog('demo'),
    stubCatalogConfig(stub, { name: 'up', planning: 'upstream' }),
    stubCatalogConfig(stub, { name: 'gone', uri: `http://127.0.0.1:${dead}`, planning: 'upstream' }),
  ]);
  const { app } = buildIcefront(config);
  t.teardown(async () => {
    await app.close();
    await stub.close();
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const get = async (url: string) => {
    const res = await fetch(`${base}${url}`);
    await res.arrayBuffer();
    return res.status;
  };
  t.equal(await get('/v1/up/namespaces/sales/tables/orders'), 200);
  t.equal(await get('/v1/up/namespaces/sales/tables/orders'), 200);
  t.equal(await get('/v1/up/namespaces/sales'), 404, 'streamed to the stub, which serves no namespaces');
  t.equal(await get('/v1/demo/namespaces/sales/tables/orders'), 200);
  t.equal(await get('/v1/gone/namespaces/sales/tables/orders'), 503);
  t.equal(await get('/v1/gone/namespaces/sales'), 503);
  t.equal(await get('/v1/no-such-catalog/namespaces/sales/tables/orders'), 404);
  const text = await (await fetch(`${base}/metrics`)).text();

  const LOAD = '/v1/{prefix}/namespaces/{namespace}/tables/{table}';
  const requests = (catalog: string, status: string, route = LOAD) =>
    series(text, 'icefront_http_request_duration_seconds_count', { catalog, route, method: 'GET', status });
  t.equal(requests('up', '200'), 2, 'load-table through the upstream catalog');
  t.equal(requests('demo', '200'), 1, 'load-table of the filesystem catalog');
  t.equal(requests('gone', '503'), 1, 'the failing upstream, by its own name');
  t.equal(requests('', '404'), 1, 'an unknown prefix is no label value of its own');
  t.notOk(text.includes('no-such-catalog'), 'a prefix nobody configured never becomes a series');

  const calls = (catalog: string, outcome: string) => series(text, 'icefront_upstream_request_duration_seconds_count', { catalog, outcome });
  t.ok((calls('up', '200') ?? 0) >= 2, 'Icefront\'s own calls to the upstream (its config, load-table), by status');
  t.equal(calls('up', '404'), 1, 'a streamed call, by the status it answered');
  t.ok((calls('gone', 'UPSTREAM_UNAVAILABLE') ?? 0) >= 1, 'calls that failed, by error code');
  t.equal(calls('demo', '200'), undefined, 'a filesystem catalog makes no upstream calls');
});
