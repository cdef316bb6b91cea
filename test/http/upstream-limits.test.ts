/**
 * limits.max-in-flight / max-queued through a listening Icefront: a hung upstream holds only its
 * own share; beyond it callers get a 503 at once (with Retry-After), and every other catalog and
 * /healthz answer as usual meanwhile.
 */
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { buildIcefront } from '../../src/main.js';
import { startUpstreamStub, stubCatalogConfig } from '../helpers/upstream-stub.js';
import { testConfig } from '../helpers/config.js';


t.test('a hung upstream takes at most its max-in-flight; past its queue a caller gets 503 with Retry-After at once, others are served', { timeout: 30000 }, async (t) => {
  const slowStub = await startUpstreamStub();
  const fastStub = await startUpstreamStub();
  // The stubs list no namespaces of their own: an empty listing (ListNamespacesResponse).
  const listing = (req: { url: string }) => (/\/namespaces$/.test(req.url) ? { status: 200, body: '{"namespaces":[]}' } : undefined);
  slowStub.respond = listing;
  fastStub.respond = listing;
  const { app } = buildIcefront(
    testConfig([
      stubCatalogConfig(slowStub, { name: 'slow', requestTimeoutMs: 3000, limits: { maxInFlight: 2, maxQueued: 1 } }),
      stubCatalogConfig(fastStub, { name: 'fast' }),
    ]),
  );
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  t.teardown(async () => {
    await app.close();
    await slowStub.close();
    await fastStub.close();
  });
  t.equal((await fetch(`${base}/v1/slow/namespaces`)).status, 200, 'healthy first (its /v1/config is cached)');
  slowStub.fault = { mode: 'hang', match: /\/namespaces$/ };
  const before = slowStub.requests.length;
  const hung = [0, 1, 2].map(() => fetch(`${base}/v1/slow/namespaces`).then((r) => r.status));
  // "at once" is an order, not a stopwatch: answered while the hung requests are still hanging
  let hungEnded = false;
  void Promise.allSettled(hung).then(() => (hungEnded = true));
  for (let i = 0; i < 100 && slowStub.requests.length < before + 2; i++) await new Promise((r) => setTimeout(r, 20));
  await new Promise((r) => setTimeout(r, 100));
  t.equal(slowStub.requests.length - before, 2, 'two requests reached the hung upstream, the third waits in Icefront');

  const refused = await fetch(`${base}/v1/slow/namespaces`);
  t.equal(refused.status, 503, 'the fourth: 503');
  t.equal(refused.headers.get('retry-after'), '1', 'with Retry-After');
  const body = (await refused.json()) as { error: { type: string; code: number; message: string } };
  t.equal(body.error.type, 'ServiceUnavailableException');
  t.equal(body.error.code, 503);
  t.notOk(hungEnded, 'answered at once: before the upstream’s timeout ended the hung ones');
  t.equal(slowStub.requests.length - before, 2, 'and it never reached the upstream');

  for (const [url, what] of [
    [`${base}/healthz`, '/healthz'],
    [`${base}/v1/fast/namespaces`, 'another catalog'],
  ] as const) {
    const res = await fetch(url);
    t.equal(res.status, 200, `${what} answers`);
    t.notOk(hungEnded, `${what}: while the slow upstream still hangs`);
  }
  const statuses = await Promise.all(hung);
  t.ok(statuses.every((s) => s === 504 || s === 503), `the hung ones end with 504 (timeout) or 503 (no turn in time): ${statuses.join(', ')}`);
  slowStub.fault = undefined;
  t.equal((await fetch(`${base}/v1/slow/namespaces`)).status, 200, 'the slow catalog serves again once its upstream does');
});
