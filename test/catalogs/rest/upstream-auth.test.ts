import path from 'node:path';
import t, { type Test } from 'tap';
import { createRestUpstream, type RestUpstream } from '../../../src/catalogs/index.js';
import type { UpstreamAuth } from '../../../src/config/index.js';
import { isIcefrontError } from '../../../src/errors/index.js';
import { startUpstreamStub, stubCatalogConfig, stubTableFromDir, type UpstreamStub, type UpstreamStubOptions } from '../../helpers/upstream-stub.js';

const ORDERS = path.resolve(import.meta.dirname, '../../../fixtures/warehouse/sales/orders/metadata');
const SECRET = 's3cr3t-client-secret';
const OAUTH = { clientId: 'icefront', clientSecret: SECRET };

interface Setup {
  stub: UpstreamStub;
  upstream: RestUpstream;
  clock: { now: number };
}

async function setup(t: Test, options: UpstreamStubOptions, auth: (stub: UpstreamStub) => UpstreamAuth, name = 'up'): Promise<Setup> {
  const stub = await startUpstreamStub({ prefix: 'wh', tables: [stubTableFromDir(ORDERS, ['sales'], 'orders')], ...options });
  const clock = { now: 5_000_000 };
  const upstream = createRestUpstream(stubCatalogConfig(stub, { name, auth: auth(stub) }), { now: () => clock.now });
  t.teardown(async () => {
    await upstream.close();
    await stub.close();
  });
  return { stub, upstream, clock };
}

const oauth2 = (scope?: string) => (stub: UpstreamStub): UpstreamAuth => ({
  mode: 'oauth2',
  tokenUrl: stub.tokenUrl,
  clientId: OAUTH.clientId,
  clientSecret: SECRET,
  ...(scope ? { scope } : {}),
});
const tokenRequests = (stub: UpstreamStub) => stub.requests.filter((r) => r.url === '/oauth/token');
const catalogRequests = (stub: UpstreamStub) => stub.requests.filter((r) => r.url.startsWith('/v1/'));

t.test('forward: the caller\'s Authorization reaches the upstream as is; without a caller none is sent', async (t) => {
  const { stub, upstream } = await setup(t, { requireToken: 'alice' }, () => ({ mode: 'forward' }));
  t.same(await upstream.authHeaders('Bearer alice'), { authorization: 'Bearer alice' });
  t.same(await upstream.authHeaders(undefined), {});
  const table = await upstream.loadTable(['sales'], 'orders', 'Bearer alice');
  t.equal(table.metadata.formatVersion, 2);
  t.same(
    catalogRequests(stub).map((r) => [r.url, r.headers.authorization]),
    [
      ['/v1/config', 'Bearer alice'],
      ['/v1/wh/namespaces/sales/tables/orders', 'Bearer alice'],
    ],
    'config and table loads carry the caller\'s header',
  );
  const anonymous = await upstream.loadTable(['sales'], 'orders').catch((e: unknown) => e);
  t.match(anonymous, { code: 'UPSTREAM_ERROR', status: 401 }, 'no caller, no credentials: the upstream decides');
});

t.test('forward: configs are cached per caller, never shared across identities', async (t) => {
  const { stub, upstream } = await setup(t, {}, () => ({ mode: 'forward' }));
  await upstream.fetchConfig('Bearer alice');
  await upstream.fetchConfig('Bearer alice');
  await upstream.fetchConfig('Bearer bob');
  await upstream.fetchConfig();
  const seen = stub.requests.filter((r) => r.url === '/v1/config').map((r) => r.headers.authorization ?? 'none');
  t.same(seen, ['Bearer alice', 'Bearer bob', 'none']);
});

t.test('bearer: Icefront\'s own token is sent and the caller\'s header never is', async (t) => {
  const { stub, upstream } = await setup(t, { requireToken: 'service-token' }, () => ({ mode: 'bearer', token: 'service-token' }));
  t.same(await upstream.authHeaders('Bearer alice'), { authorization: 'Bearer service-token' });
  await upstream.loadTable(['sales'], 'orders', 'Bearer alice');
  t.same(catalogRequests(stub).map((r) => [r.url, r.headers.authorization]), [
    ['/v1/config', 'Bearer service-token'],
    ['/v1/wh/namespaces/sales/tables/orders', 'Bearer service-token'],
  ], 'config and table loads carry Icefront\'s own token');
  t.notOk(JSON.stringify(stub.requests).includes('alice'));
});

t.test('oauth2: a client-credentials grant with a form body; the token is reused until shortly before expiry', async (t) => {
  const { stub, upstream, clock } = await setup(t, { oauth: { ...OAUTH, expiresIn: 3600 } }, oauth2('catalog sign'));
  t.same(await upstream.authHeaders('Bearer alice'), { authorization: 'Bearer tok-1' });
  const [first] = tokenRequests(stub);
  t.equal(first!.method, 'POST');
  t.match(first!.headers['content-type'], /^application\/x-www-form-urlencoded/);
  const form = new URLSearchParams(first!.body);
  t.same(Object.fromEntries(form), { grant_type: 'client_credentials', client_id: 'icefront', client_secret: SECRET, scope: 'catalog sign' });
  await upstream.loadTable(['sales'], 'orders');
  clock.now += 3_500_000;
  t.same(await upstream.authHeaders(undefined), { authorization: 'Bearer tok-1' }, 'still valid 100 s before expiry');
  t.equal(tokenRequests(stub).length, 1);
  clock.now += 80_000;
  t.same(await upstream.authHeaders(undefined), { authorization: 'Bearer tok-2' }, 'renewed within 30 s of expiry');
  t.equal(tokenRequests(stub).length, 2);
});

t.test('oauth2: concurrent callers share one token request', async (t) => {
  const { stub, upstream } = await setup(t, { oauth: OAUTH }, oauth2());
  const headers = await Promise.all(Array.from({ length: 8 }, () => upstream.authHeaders(undefined)));
  t.ok(headers.every((h) => h['authorization'] === 'Bearer tok-1'));
  t.equal(tokenRequests(stub).length, 1);
});

t.test('oauth2: a token without expires_in is still reused, for a bounded time', async (t) => {
  const { stub, upstream, clock } = await setup(t, { oauth: { ...OAUTH, expiresIn: null } }, oauth2());
  await upstream.authHeaders(undefined);
  clock.now += 60_000;
  await upstream.authHeaders(undefined);
  t.equal(tokenRequests(stub).length, 1);
  clock.now += 600_000;
  await upstream.authHeaders(undefined);
  t.equal(tokenRequests(stub).length, 2);
});

t.test('oauth2: a failing token endpoint is 503 and the failure is not cached', async (t) => {
  const { stub, upstream } = await setup(t, { oauth: OAUTH }, oauth2());
  stub.tokenFailures = 1;
  const err = await upstream.fetchConfig().catch((e: unknown) => e);
  t.ok(isIcefrontError(err, 'UPSTREAM_UNAVAILABLE'));
  t.equal((await upstream.fetchConfig()).prefix, 'wh', 'the next call asks for a token again');
  t.equal(tokenRequests(stub).length, 2);
});

t.test('oauth2: refused client credentials are 502, and no message carries the secret', async (t) => {
  const { upstream } = await setup(t, { oauth: { clientId: 'icefront', clientSecret: 'the-right-one' } }, oauth2());
  const err = await upstream.loadTable(['sales'], 'orders').catch((e: unknown) => e);
  t.ok(isIcefrontError(err, 'UPSTREAM_BAD_GATEWAY'));
  t.match((err as Error).message, /invalid_client/);
  t.notOk(JSON.stringify({ message: (err as Error).message, stack: (err as Error).stack }).includes(SECRET));
});

t.test('oauth2: an unreachable token endpoint is 503 without the secret in the message', { timeout: 5000 }, async (t) => {
  const unreachable: UpstreamAuth = { mode: 'oauth2', tokenUrl: 'http://127.0.0.1:9/token', clientId: 'icefront', clientSecret: SECRET };
  const { upstream } = await setup(t, { oauth: OAUTH }, () => unreachable);
  const err = await upstream.authHeaders(undefined).catch((e: unknown) => e);
  t.ok(isIcefrontError(err, 'UPSTREAM_UNAVAILABLE'));
  t.notOk((err as Error).message.includes(SECRET));
});

t.test('oauth2: a token the upstream stops accepting is replaced and the call retried once', async (t) => {
  const { stub, upstream } = await setup(t, { oauth: OAUTH }, oauth2());
  await upstream.fetchConfig();
  stub.revokeTokens();
  const table = await upstream.loadTable(['sales'], 'orders');
  t.equal(table.metadata.formatVersion, 2);
  t.same(stub.issuedTokens, ['tok-1', 'tok-2']);
  const loads = catalogRequests(stub).filter((r) => r.url.includes('/tables/'));
  t.same(loads.map((r) => r.headers.authorization), ['Bearer tok-1', 'Bearer tok-2']);
});

t.test('a caller\'s Authorization reaches only the upstream it addressed', async (t) => {
  const a = await setup(t, { requireToken: 'alice-token' }, () => ({ mode: 'forward' }), 'a');
  const b = await setup(t, {}, () => ({ mode: 'forward' }), 'b');
  await a.upstream.loadTable(['sales'], 'orders', 'Bearer alice-token');
  await b.upstream.loadTable(['sales'], 'orders');
  await b.upstream.fetchConfig();
  t.ok(catalogRequests(a.stub).length >= 2);
  t.ok(a.stub.requests.every((r) => r.headers.authorization === 'Bearer alice-token'));
  t.ok(b.stub.requests.length >= 2);
  t.ok(b.stub.requests.every((r) => r.headers.authorization === undefined), 'the other upstream never sees it');
  t.notOk(JSON.stringify(b.stub.requests).includes('alice-token'));
});
