/**
 * What an operator reads about proxied requests: one line per request at info, each naming its
 * catalog; an upstream that cannot be reached is one warning per request (no stack, no key twice);
 * the request id Icefront logs is the one the upstream receives.
 */
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { buildIcefront } from '../../src/main.js';
import { createLogger } from '../../src/observability/index.js';
import { testConfig } from '../helpers/config.js';
import { logLines } from '../helpers/log-lines.js';
import { closedPort, startUpstreamStub, stubCatalogConfig, stubTableFromDir } from '../helpers/upstream-stub.js';
import { DEMO_WAREHOUSE } from '../service/planning/helpers.js';
import path from 'node:path';

/** Keys of a raw JSON line, in order, duplicates kept (JSON.parse would keep only the last). */
function rawKeys(line: string): string[] {
  return [...line.matchAll(/[{,]"([^"]+)":/g)].map((m) => m[1]!);
}

t.test('proxied requests log one line each, name their catalog, and an unreachable upstream is one warning', async (t) => {
  const table = stubTableFromDir(path.join(DEMO_WAREHOUSE, 'sales/orders/metadata'), ['sales'], 'orders');
  const stub = await startUpstreamStub({ tables: [table] });
  const dead = await closedPort();
  const raw: string[] = [];
  const { lines, destination } = logLines();
  const tee = { write: (s: string) => (raw.push(...s.split('\n').filter(Boolean)), destination.write(s)) };
  const config = testConfig([stubCatalogConfig(stub, { name: 'up', planning: 'upstream' }), stubCatalogConfig(stub, { name: 'gone', uri: `http://127.0.0.1:${dead}`, planning: 'upstream' })]);
  const { app } = buildIcefront(config, { logger: createLogger({ level: 'info', destination: tee }) });
  t.teardown(async () => {
    await app.close();
    await stub.close();
  });

  // a real socket: pass-through streams through http-proxy-3, which app.inject does not drive
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const get = async (url: string, id?: string) => {
    const res = await fetch(`${base}${url}`, id === undefined ? {} : { headers: { 'x-request-id': id } });
    await res.arrayBuffer();
    return res;
  };
  const ids = ['rid-load', 'rid-list', 'rid-ns'];
  t.equal((await get('/v1/up/namespaces/sales/tables/orders', ids[0])).status, 200, 'load-table (read and rewritten)');
  // the stub serves config and tables only: its 404 ErrorModel is streamed back as it sent it
  t.equal((await get('/v1/up/namespaces/sales/tables', ids[1])).status, 404, 'list tables (streamed)');
  t.equal((await get('/v1/up/namespaces/sales', ids[2])).status, 404, 'load namespace (streamed)');
  const generated = (await get('/v1/up/namespaces/sales/tables/orders')).headers.get('x-request-id');
  const upstreamIds = stub.requests.map((r) => r.headers['x-request-id']);
  for (const id of [...ids, generated]) t.ok(upstreamIds.includes(id!), `the upstream received request id ${String(id)}`);
  // the audit stream (its own logger name, routed apart) is not part of a request's log lines
  const requestLines = (l: Record<string, unknown>) => l.name !== 'icefront.audit';
  for (const id of ids) {
    const of = lines.filter((l) => l.reqId === id && requestLines(l));
    t.equal(of.length, 1, `${id}: one line at info`);
    t.equal(of[0]?.catalog, 'up', `${id}: the line names its catalog`);
  }

  const before = raw.length;
  for (const url of ['/v1/gone/namespaces/sales/tables/orders', '/v1/gone/namespaces', '/v1/gone/namespaces/sales/tables']) {
    const res = await get(url, `rid-dead-${url.length}`);
    t.equal(res.status, 503, `${url}: 503`);
    const of = raw.slice(before).filter((l) => l.includes(`"rid-dead-${url.length}"`) && !l.includes('"name":"icefront.audit"'));
    const parsed = of.map((l) => JSON.parse(l) as Record<string, unknown>);
    t.same(parsed.map((l) => l.level), [40, 30], `${url}: one warning, then the access line`);
    t.notOk(of[0]?.includes('"stack"'), `${url}: no stack trace`);
    t.equal(parsed[0]?.catalog, 'gone');
    for (const line of of) {
      const keys = rawKeys(line);
      t.same(keys, [...new Set(keys)], `${url}: no key twice in a line`);
    }
  }
  t.notOk(raw.slice(before).some((l) => !l.includes('"reqId"')), 'nothing about the dead upstream is logged outside its requests');
});
