import t, { type Test } from 'tap';
import { createRestUpstream, DEFAULT_ENDPOINTS, VIEW_ENDPOINTS, type RestUpstream } from '../../../src/catalogs/index.js';
import type { RestCatalogConfig } from '../../../src/config/index.js';
import { isIcefrontError } from '../../../src/errors/index.js';
import { startUpstreamStub, stubCatalogConfig, type UpstreamStub, type UpstreamStubOptions } from '../../helpers/upstream-stub.js';

interface Clock {
  now: number;
}

async function setup(
  t: Test,
  options: UpstreamStubOptions = {},
  catalog: Partial<RestCatalogConfig> = {},
): Promise<{ stub: UpstreamStub; upstream: RestUpstream; clock: Clock }> {
  const stub = await startUpstreamStub(options);
  const clock = { now: 1_000_000 };
  const upstream = createRestUpstream(stubCatalogConfig(stub, catalog), { now: () => clock.now });
  t.teardown(async () => {
    await upstream.close();
    await stub.close();
  });
  return { stub, upstream, clock };
}

const configRequests = (stub: UpstreamStub) => stub.requests.filter((r) => r.url.includes('/v1/config')).length;

t.test('an upstream without an endpoints list is assumed to serve Java\'s 14 default endpoints', async (t) => {
  const { upstream } = await setup(t);
  const config = await upstream.fetchConfig();
  t.equal(config.endpoints.length, 14);
  t.same(config.endpoints, DEFAULT_ENDPOINTS);
  t.equal(config.endpointsAdvertised, false);
  t.notOk(config.endpoints.some((e) => e.includes('/plan')), 'no planning endpoint is ever assumed');
});

t.test('an empty endpoints list means the defaults too, plus views when view-endpoints-supported', async (t) => {
  const { upstream } = await setup(t, { endpoints: [], overrides: { 'view-endpoints-supported': 'TRUE' } });
  const config = await upstream.fetchConfig();
  t.same(config.endpoints, [...DEFAULT_ENDPOINTS, ...VIEW_ENDPOINTS]);
  t.equal(config.endpointsAdvertised, false);
});

t.test('an advertised endpoints list is kept verbatim', async (t) => {
  const endpoints = ['GET /v1/{prefix}/namespaces', 'post /v1/{prefix}/namespaces/{namespace}/tables/{table}/plan'];
  const { upstream } = await setup(t, { endpoints });
  const config = await upstream.fetchConfig();
  t.same(config.endpoints, endpoints);
  t.equal(config.endpointsAdvertised, true);
});

t.test('the prefix comes from overrides before defaults and is kept as the raw string', async (t) => {
  const { upstream } = await setup(t, { prefix: 'catalogs/sales', defaults: { prefix: 'ignored' } });
  t.equal((await upstream.fetchConfig()).prefix, 'catalogs/sales');
  const { upstream: viaDefaults } = await setup(t, { prefix: 'main%7Cwh', prefixIn: 'defaults' });
  t.equal((await viaDefaults.fetchConfig()).prefix, 'main%7Cwh');
  const { upstream: none } = await setup(t);
  t.equal((await none.fetchConfig()).prefix, undefined);
});

t.test('the namespace separator is the upstream\'s, %1F when it names none', async (t) => {
  const { upstream } = await setup(t, { namespaceSeparator: '%2E' });
  t.equal((await upstream.fetchConfig()).namespaceSeparator, '%2E');
  t.equal(upstream.namespaceSeparator(), '%2E');
  const { upstream: plain } = await setup(t);
  t.equal((await plain.fetchConfig()).namespaceSeparator, '%1F');
});

t.test('the configured warehouse is sent as ?warehouse= and the base path is kept', async (t) => {
  const { stub, upstream } = await setup(t, { warehouse: 'my wh', basePath: '/api/catalog', idempotencyKeyLifetime: 'PT30M' }, { warehouse: 'my wh' });
  const config = await upstream.fetchConfig();
  t.equal(stub.requests[0]!.url, '/api/catalog/v1/config?warehouse=my%20wh');
  t.equal(config.idempotencyKeyLifetime, 'PT30M');
});

t.test('an unknown warehouse passes the upstream\'s 404 NoSuchWarehouseException through', async (t) => {
  const { upstream } = await setup(t, { warehouse: 'right' }, { warehouse: 'wrong' });
  const err = await upstream.fetchConfig().catch((e: unknown) => e);
  t.ok(isIcefrontError(err, 'UPSTREAM_ERROR'));
  t.match(err, { status: 404, type: 'NoSuchWarehouseException' });
});

t.test('the config is cached for 30 s, fetched once for concurrent callers, then refetched', async (t) => {
  const { stub, upstream, clock } = await setup(t, { prefix: 'wh' });
  const all = await Promise.all(Array.from({ length: 5 }, () => upstream.fetchConfig()));
  t.equal(configRequests(stub), 1, 'five concurrent callers, one request');
  t.ok(all.every((c) => c === all[0]));
  clock.now += 29_000;
  await upstream.fetchConfig();
  t.equal(configRequests(stub), 1, 'still fresh at 29 s');
  clock.now += 2_000;
  await upstream.fetchConfig();
  t.equal(configRequests(stub), 2, 'refetched after 30 s');
});

t.test('a failed config fetch is not cached', { timeout: 5000 }, async (t) => {
  const { stub, upstream } = await setup(t, { prefix: 'wh' });
  stub.fault = { mode: 'garbage' };
  const first = await upstream.fetchConfig().catch((e: unknown) => e);
  t.ok(isIcefrontError(first, 'UPSTREAM_BAD_GATEWAY'));
  t.throws(() => upstream.upstreamPath('/namespaces'), { code: 'UPSTREAM_UNAVAILABLE' }, 'nothing was loaded');
  stub.fault = undefined;
  t.equal((await upstream.fetchConfig()).prefix, 'wh', 'the next call asks again and succeeds');
  t.equal(configRequests(stub), 2);
});

t.test('a malformed config is UPSTREAM_BAD_GATEWAY', async (t) => {
  const { stub, upstream } = await setup(t);
  for (const body of ['[]', '{"defaults":[1]}', '{"overrides":{"a":{"b":1}}}', '{"endpoints":"GET /v1/x"}', '{"endpoints":[1]}']) {
    stub.respond = () => ({ status: 200, body });
    const err = await upstream.fetchConfig().catch((e: unknown) => e);
    t.ok(isIcefrontError(err, 'UPSTREAM_BAD_GATEWAY'), body);
  }
});

t.test('non-string property values keep their JSON text, 64-bit numbers included', async (t) => {
  const { stub, upstream } = await setup(t);
  stub.respond = () => ({ status: 200, body: '{"defaults":{"a":true,"b":12345678901234567890,"c":1.50,"d":null},"overrides":{}}' });
  t.same((await upstream.fetchConfig()).defaults, { a: 'true', b: '12345678901234567890', c: '1.50' });
});

t.test('an upstream prefix that would climb out of (or change) the base URI is refused as a 502, before any request uses it', async (t) => {
  for (const prefix of ['../../admin%2F..', '..', 'a/../../b', '%2e%2e/x', 'a/%2E', 'a//b', 'a?x=1', 'a#f', 'a\\..\\b']) {
    const { stub, upstream } = await setup(t, { prefix, basePath: '/api/catalog', prefixPath: 'unused' });
    const err = await upstream.fetchConfig().then(() => undefined, (e: unknown) => e);
    t.ok(isIcefrontError(err, 'UPSTREAM_BAD_GATEWAY'), `${prefix}: 502 (${String(err)})`);
    t.same(stub.requests.map((r) => r.url), ['/api/catalog/v1/config'], `${prefix}: only the config request was sent, nothing outside the base path`);
  }
  for (const prefix of ['catalogs/sales', 'main%7Cwh', '..x', 'a.b', '/wh/']) {
    const { upstream } = await setup(t, { prefix });
    t.equal((await upstream.fetchConfig()).prefix, prefix, `${prefix}: a prefix below the base path is kept as sent`);
  }
});
