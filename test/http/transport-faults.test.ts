/**
 * One transport policy for both ways Icefront reaches an upstream (issue #30 step 2): a table
 * load is Icefront's own call (read whole), a namespace listing is streamed (http-proxy-3,
 * http/proxy/pass-through.ts); both go through the upstream's one transport
 * (catalogs/rest/http-client.ts). Each transport fault, met on either path, gives the client the
 * same ErrorModel: type, status and a message of one form naming the catalog; and both paths
 * share one connection pool.
 */
import path from 'node:path';
import t from 'tap';
import { buildIcefront } from '../../src/main.js';
import { testConfig } from '../helpers/config.js';
import { startUpstreamStub, stubCatalogConfig, stubTableFromDir, type StubFault } from '../helpers/upstream-stub.js';
import { REPO } from '../service/planning/helpers.js';

const ORDERS = path.join(REPO, 'fixtures/warehouse/sales/orders/metadata');
interface Model {
  readonly message: string;
  readonly type: string;
  readonly code: number;
}

t.test('each transport fault gives the same ErrorModel through an own call and a streamed one', async (t) => {
  const stub = await startUpstreamStub({ tables: [stubTableFromDir(ORDERS, ['sales'], 'orders')] });
  t.teardown(() => stub.close());
  const { app } = buildIcefront(testConfig([stubCatalogConfig(stub, { requestTimeoutMs: 800 })]));
  t.teardown(() => app.close());
  const answer = async (url: string): Promise<{ status: number; error: Model }> => {
    const res = await app.inject({ method: 'GET', url });
    return { status: res.statusCode, error: (res.json() as { error: Model }).error };
  };
  const own = () => answer('/v1/up/namespaces/sales/tables/orders');
  const streamed = () => answer('/v1/up/namespaces');
  t.equal((await own()).status, 200, 'the upstream answers at first (its /v1/config is read)');

  const faults: Array<[StubFault, number, string, RegExp]> = [
    ['hang', 504, 'GatewayTimeoutException', /timed out \(limit 800 ms\)/],
    ['reset', 502, 'BadGatewayException', /failed: the upstream closed or broke the connection/],
    ['close', 502, 'BadGatewayException', /failed: the upstream closed or broke the connection/],
  ];
  for (const [fault, status, type, reason] of faults) {
    stub.fault = { mode: fault, match: /^\/v1\/namespaces/ };
    const [a, b] = [await own(), await streamed()];
    for (const [path, got] of [['own call', a], ['streamed', b]] as const) {
      t.equal(got.status, status, `${fault}, ${path}: ${status}`);
      t.equal(got.error.code, status, `${fault}, ${path}: the ErrorModel's code is its status`);
      t.match(got.error.message, /^Catalog 'up': /, `${fault}, ${path}: the message names the catalog`);
      t.match(got.error.message, reason, `${fault}, ${path}: and the fault`, { message: got.error.message });
    }
    t.equal(a.error.type, b.error.type, `${fault}: one type on both paths (${a.error.type})`);
    t.equal(a.error.type, type);
  }
  // refused: the upstream is gone (its /v1/config was read before)
  stub.fault = undefined;
  await stub.close();
  const [a, b] = [await own(), await streamed()];
  for (const [path, got] of [['own call', a], ['streamed', b]] as const) {
    t.equal(got.status, 503, `refused, ${path}: 503`);
    t.match(got.error.message, /^Catalog 'up': .*could not reach the upstream \(ECONNREFUSED\)$/, `refused, ${path}: names the catalog and ECONNREFUSED`, { message: got.error.message });
  }
  t.equal(a.error.type, b.error.type, `refused: one type on both paths (${a.error.type})`);
});

t.test("an upstream's own calls and streamed ones share its one connection pool", async (t) => {
  const stub = await startUpstreamStub({ tables: [stubTableFromDir(ORDERS, ['sales'], 'orders')] });
  t.teardown(() => stub.close());
  stub.respond = (req) => (req.url === '/v1/namespaces' ? { status: 200, body: '{"namespaces":[["sales"]]}' } : undefined);
  const { app } = buildIcefront(testConfig([stubCatalogConfig(stub)]));
  t.teardown(() => app.close());
  // one at a time, alternating: a kept-alive connection serves whichever path comes next
  for (let i = 0; i < 4; i++) {
    t.equal((await app.inject({ method: 'GET', url: '/v1/up/namespaces/sales/tables/orders' })).statusCode, 200, `own call ${i + 1}`);
    t.equal((await app.inject({ method: 'GET', url: '/v1/up/namespaces' })).statusCode, 200, `streamed call ${i + 1}`);
  }
  const ports = (streamed: boolean) => new Set(stub.requests.filter((r) => (r.url === '/v1/namespaces') === streamed).map((r) => r.port));
  const own = ports(false);
  const reused = [...ports(true)].filter((port) => own.has(port));
  t.ok(reused.length > 0, `streamed requests came over connections Icefront's own calls opened (own: ${[...own].join(', ')}; streamed: ${[...ports(true)].join(', ')})`);
  t.equal(new Set(stub.requests.map((r) => r.port)).size, own.size, 'and opened none of their own');
});
