/**
 * Authorization meets federation, through a real listening Icefront and a real upstream stub:
 * what Authorization the upstream receives in each mode, and that a caller the rules refuse
 * never gets a request to the upstream at all (in bearer/oauth2 mode that request would carry
 * Icefront's own identity).
 */
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import t from 'tap';
import type { RestCatalogConfig, UpstreamAuth } from '../../src/config/index.js';
import { buildIcefront } from '../../src/main.js';
import { authConfig, bearer, configWith, TOKENS } from '../helpers/auth-config.js';
import { startIdentityProvider } from '../helpers/identity-provider.js';
import { startUpstreamStub, stubCatalogConfig, stubTableFromDir, type LoggedRequest, type StubAnswer } from '../helpers/upstream-stub.js';
import { DEMO_WAREHOUSE } from '../service/planning/helpers.js';
import { assertError } from './assertions.js';

const UPSTREAM_TOKEN = 'upstream-service-token-6f5e';
const OAUTH = { clientId: 'icefront', clientSecret: 'icefront-client-secret-3c2b' };
const ORDERS = '/v1/up/namespaces/sales%1Feu/tables/orders';

/** What the stub answers beyond config and load-table: listings, a namespace, rename, tasks; a table its own rules refuse. */
function upstreamRoutes(req: LoggedRequest): StubAnswer | undefined {
  const [route, query = ''] = req.url.split('?') as [string, string?];
  const ok = (value: unknown): StubAnswer => ({ status: 200, body: JSON.stringify(value) });
  if (req.method === 'GET' && route === '/v1/cat/namespaces') {
    const parent = new URLSearchParams(query).get('parent');
    if (parent === 'sales') return ok({ namespaces: [['sales', 'eu'], ['sales', 'us']], 'next-page-token': 'p2' });
    return ok({ namespaces: [['events'], ['legacy'], ['sales']] });
  }
  if (req.method === 'GET' && route === '/v1/cat/namespaces/sales/tables') return ok({ identifiers: [{ namespace: ['sales'], name: 'top' }] });
  if (req.method === 'GET' && route === '/v1/cat/namespaces/sales%1Feu') return ok({ namespace: ['sales', 'eu'], properties: {} });
  if (req.method === 'POST' && route === '/v1/cat/tables/rename') return { status: 204, body: '' };
  if (req.method === 'POST' && route.endsWith('/tasks')) return ok({ 'file-scan-tasks': [] });
  if (route === '/v1/cat/namespaces/sales%1Feu/tables/secret')
    return { status: 403, body: JSON.stringify({ error: { message: 'upstream says no', type: 'ForbiddenException', code: 403 } }) };
  return undefined;
}

const MODES: [string, UpstreamAuth, (issued: string[]) => string][] = [
  ['forward', { mode: 'forward' }, () => `Bearer ${TOKENS.alice}`],
  ['bearer', { mode: 'bearer', token: UPSTREAM_TOKEN }, () => `Bearer ${UPSTREAM_TOKEN}`],
  ['oauth2', { mode: 'oauth2', tokenUrl: '', clientId: OAUTH.clientId, clientSecret: OAUTH.clientSecret }, (issued) => `Bearer ${issued[0]}`],
];

for (const [mode, upstreamAuth, expectedAuthorization] of MODES) {
  t.test(`${mode} mode`, async (t) => {
    const idp = await startIdentityProvider();
    const stub = await startUpstreamStub({
      prefix: 'cat',
      tables: [stubTableFromDir(path.join(DEMO_WAREHOUSE, 'sales/orders/metadata'), ['sales', 'eu'], 'orders')],
      ...(mode === 'bearer' && { requireToken: UPSTREAM_TOKEN }),
      ...(mode === 'oauth2' && { oauth: OAUTH }),
    });
    stub.respond = upstreamRoutes;
    const auth: UpstreamAuth = upstreamAuth.mode === 'oauth2' ? { ...upstreamAuth, tokenUrl: stub.tokenUrl } : upstreamAuth;
    const catalog: RestCatalogConfig = stubCatalogConfig(stub, { name: 'up', auth, planning: 'upstream' });
    const { app } = buildIcefront(configWith([catalog], authConfig({ jwt: idp.config() })));
    await app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    t.teardown(async () => {
      await app.close();
      await stub.close();
      await idp.close();
    });
    const call = async (url: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) => {
      const res = await fetch(`${base}${url}`, { ...init, headers: { ...(init.body !== undefined && { 'content-type': 'application/json' }), ...init.headers } });
      return { statusCode: res.status, headers: Object.fromEntries(res.headers), body: await res.text() };
    };
    const catalogRequests = () => stub.requests.filter((r) => r.url.startsWith('/v1/cat/'));

    await t.test('no credential, or one no rule allows: refused before anything reaches the upstream', async (t) => {
      const before = stub.requests.length;
      assertError(t, await call(ORDERS), 401, 'NotAuthorizedException', 'no credential');
      assertError(t, await call(ORDERS, { headers: bearer('carol') }), 403, 'ForbiddenException', 'carol');
      assertError(t, await call('/v1/up/namespaces/events/tables/clicks', { headers: bearer('alice') }), 403, 'ForbiddenException', 'alice elsewhere');
      assertError(t, await call('/v1/config?warehouse=up', { headers: bearer('carol') }), 403, 'ForbiddenException', 'config');
      assertError(t, await call('/v1/up/namespaces/legacy', { headers: bearer('alice') }), 403, 'ForbiddenException', 'a pass-through route');
      t.equal(stub.requests.length, before, 'the upstream saw none of these');
    });

    await t.test('an allowed caller reaches the upstream with the Authorization of this mode, and only that', async (t) => {
      const loaded = await call(ORDERS, { headers: bearer('alice') });
      t.equal(loaded.statusCode, 200, 'load table');
      const passed = await call('/v1/up/namespaces/sales%1Feu', { headers: bearer('alice') });
      t.equal(passed.statusCode, 200, 'a pass-through route');
      const seen = catalogRequests();
      t.ok(seen.length >= 2);
      const expected = expectedAuthorization(stub.issuedTokens);
      for (const r of seen) t.equal(r.headers.authorization, expected, `${r.method} ${r.url}`);
      if (mode !== 'forward') {
        const jane = await idp.sign({ sub: 'jane', groups: ['analyst'] });
        t.equal((await call(ORDERS, { headers: { authorization: `Bearer ${jane}` } })).statusCode, 200, 'a JWT caller');
        const entry = [...Object.values(TOKENS), jane];
        const leaked = stub.requests.filter((r) => entry.some((token) => JSON.stringify(r.headers).includes(token) || r.body.includes(token)));
        t.same(leaked, [], "no token used to enter Icefront ever reaches an upstream that gets Icefront's identity");
      }
    });

    await t.test('listings through the upstream show only what the caller may see', async (t) => {
      const listed = async (url: string, who: keyof typeof TOKENS) => JSON.parse((await call(url, { headers: bearer(who) })).body) as Record<string, unknown>;
      t.same((await listed('/v1/up/namespaces', 'alice')).namespaces, [['sales']]);
      t.same(await listed('/v1/up/namespaces?parent=sales', 'alice'), { namespaces: [['sales', 'eu']], 'next-page-token': 'p2' }, 'the page token is kept');
      t.same((await listed('/v1/up/namespaces/sales/tables', 'alice')).identifiers, [], 'an ancestor shows no tables');
      t.same((await listed('/v1/up/namespaces', 'admin')).namespaces, [['events'], ['legacy'], ['sales']], 'a whole-catalog rule: the upstream answer as it is');
    });

    await t.test('a write reaches the upstream only when every namespace it changes is writable', async (t) => {
      const rename = (to: string[]) =>
        JSON.stringify({ source: { namespace: ['sales', 'eu'], name: 'orders' }, destination: { namespace: to, name: 'orders2' } });
      const inside = ` ${rename(['sales', 'eu'])}`; // the leading space: forwarded as sent, not re-serialised
      const ok = await call('/v1/up/tables/rename', { method: 'POST', headers: bearer('writer'), body: inside });
      t.equal(ok.statusCode, 204);
      t.equal(stub.requests.at(-1)!.body, inside, 'the body reached the upstream byte for byte');
      const before = stub.requests.length;
      assertError(t, await call('/v1/up/tables/rename', { method: 'POST', headers: bearer('writer'), body: rename(['events']) }), 403, 'ForbiddenException', 'out of sales.eu');
      assertError(t, await call('/v1/up/tables/rename', { method: 'POST', headers: bearer('alice'), body: rename(['sales', 'eu']) }), 403, 'ForbiddenException', 'a reader');
      assertError(t, await call(ORDERS, { method: 'DELETE', headers: bearer('alice') }), 403, 'ForbiddenException', 'a reader dropping a table');
      t.equal(stub.requests.length, before, 'none of them was forwarded');
    });

    await t.test('plan tasks are redeemed for the table in the path, as its rules allow', async (t) => {
      const task = JSON.stringify({ 'plan-task': 'upstream-opaque-task' });
      t.equal((await call(`${ORDERS}/tasks`, { method: 'POST', headers: bearer('alice'), body: task })).statusCode, 200, 'alice');
      const before = stub.requests.length;
      assertError(t, await call(`${ORDERS}/tasks`, { method: 'POST', headers: bearer('bob'), body: task }), 403, 'ForbiddenException', 'bob');
      assertError(t, await call(`${ORDERS}/plan/some-plan`, { headers: bearer('bob') }), 403, 'ForbiddenException', 'bob fetching a plan');
      t.equal(stub.requests.length, before, "bob's never reached the upstream");
    });

    if (mode === 'forward') {
      await t.test("the caller must pass the upstream's own rules as well", async (t) => {
        assertError(t, await call('/v1/up/namespaces/sales%1Feu/tables/secret', { headers: bearer('alice') }), 403, 'ForbiddenException');
        t.equal(stub.requests.at(-1)!.headers.authorization, `Bearer ${TOKENS.alice}`, 'the upstream decided on the caller’s own token');
      });
    }
  });
}
