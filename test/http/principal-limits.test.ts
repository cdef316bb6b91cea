/**
 * auth.limits through a listening Icefront: a principal past its rate or its in-flight bound gets
 * a 429 SlowDownException with Retry-After at once; other principals are served meanwhile.
 */
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { buildIcefront } from '../../src/main.js';
import { authConfig, configWith, TOKENS } from '../helpers/auth-config.js';
import { startUpstreamStub, stubCatalogConfig } from '../helpers/upstream-stub.js';
import { demoCatalog } from '../service/planning/helpers.js';

const as = (who: keyof typeof TOKENS) => ({ headers: { authorization: `Bearer ${TOKENS[who]}` } });

async function listen(config: Parameters<typeof buildIcefront>[0]) {
  const { app } = buildIcefront(config);
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, base: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` };
}

t.test('requests-per-second: past the burst a principal gets 429 with Retry-After; another is served', async (t) => {
  const { app, base } = await listen(configWith([demoCatalog('demo')], authConfig({ limits: { requestsPerSecond: 1, burst: 2 } })));
  t.teardown(() => app.close());
  const url = `${base}/v1/config?warehouse=demo`;
  t.equal((await fetch(url, as('alice'))).status, 200);
  t.equal((await fetch(url, as('alice'))).status, 200);
  const refused = await fetch(url, as('alice'));
  t.equal(refused.status, 429, 'the third within a second: 429');
  t.equal(refused.headers.get('retry-after'), '1', 'Retry-After: 1');
  const body = (await refused.json()) as { error: { type: string; code: number; message: string } };
  t.same([body.error.type, body.error.code], ['SlowDownException', 429], 'an ErrorModel');
  t.notMatch(body.error.message, new RegExp(TOKENS.alice), 'naming the principal, never the token');
  t.equal((await fetch(url, as('admin'))).status, 200, 'another principal is served');
  t.equal((await fetch(`${base}/healthz`)).status, 200, '/healthz is not counted');
  t.equal((await fetch(url)).status, 401, 'no credential is still a 401, not a 429');
});

t.test('max-in-flight: a principal whose request hangs upstream gets 429 for the next one; others are served', { timeout: 20000 }, async (t) => {
  const stub = await startUpstreamStub();
  stub.respond = (req) => (/\/namespaces\/events\/tables$/.test(req.url) ? { status: 200, body: '{"identifiers":[]}' } : undefined);
  const { app, base } = await listen(
    configWith([stubCatalogConfig(stub, { name: 'up', requestTimeoutMs: 1500, auth: { mode: 'bearer', token: 'icefront-own' } })], authConfig({ limits: { maxInFlight: 1 } })),
  );
  t.teardown(async () => {
    await app.close();
    await stub.close();
  });
  const url = `${base}/v1/up/namespaces/events/tables`;
  t.equal((await fetch(url, as('bob'))).status, 200, 'healthy first');
  stub.fault = { mode: 'hang', match: /\/namespaces\/events\/tables$/ };
  const before = stub.requests.length;
  const hung = fetch(url, as('bob')).then((r) => r.status);
  let hungEnded = false;
  void hung.finally(() => (hungEnded = true));
  for (let i = 0; i < 100 && stub.requests.length === before; i++) await new Promise((r) => setTimeout(r, 20));
  t.equal(stub.requests.length, before + 1, 'the first request reached the upstream, which hangs');
  const refused = await fetch(url, as('bob'));
  t.equal(refused.status, 429, 'bob’s second request while the first hangs: 429');
  t.equal(refused.headers.get('retry-after'), '1');
  t.notOk(hungEnded, 'at once: while the first still hangs');
  stub.fault = undefined;
  t.equal((await fetch(url, as('admin'))).status, 200, 'admin is served meanwhile');
  t.equal(await hung, 504, 'the hung one ends with the upstream timeout');
  t.equal((await fetch(url, as('bob'))).status, 200, 'and bob is admitted again once it has ended');
});
