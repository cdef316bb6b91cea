import t, { type Test } from 'tap';
import { createRestUpstream, DEFAULT_ENDPOINTS, type RestUpstream } from '../../../src/catalogs/index.js';
import type { UpstreamAuth } from '../../../src/config/index.js';
import { startUpstreamStub, stubCatalogConfig, type UpstreamStub, type UpstreamStubOptions } from '../../helpers/upstream-stub.js';

const PUBLIC = 'https://icefront.example.com:8443';
const PLANNING = [
  'POST /v1/{prefix}/namespaces/{namespace}/tables/{table}/plan',
  'GET /v1/{prefix}/namespaces/{namespace}/tables/{table}/plan/{plan-id}',
  'DELETE /v1/{prefix}/namespaces/{namespace}/tables/{table}/plan/{plan-id}',
  'POST /v1/{prefix}/namespaces/{namespace}/tables/{table}/tasks',
];

async function loaded(t: Test, options: UpstreamStubOptions, auth: UpstreamAuth = { mode: 'forward' }): Promise<{ stub: UpstreamStub; upstream: RestUpstream }> {
  const stub = await startUpstreamStub({ ...options, ...(auth.mode === 'bearer' ? { requireToken: auth.token } : {}) });
  const upstream = createRestUpstream(stubCatalogConfig(stub, { auth }));
  t.teardown(async () => {
    await upstream.close();
    await stub.close();
  });
  await upstream.fetchConfig();
  return { stub, upstream };
}

t.test('clients get the catalog name as prefix, never the upstream\'s', async (t) => {
  const { upstream } = await loaded(t, { prefix: 'catalogs/unity', defaults: { prefix: 'other', 'table-default.k': 'v' } });
  const config = upstream.clientConfig('sales', PUBLIC, []);
  t.equal(config.overrides['prefix'], 'sales');
  t.notOk('prefix' in config.defaults, 'no competing default');
  t.equal(config.defaults['table-default.k'], 'v', 'other defaults pass');
  const { upstream: none } = await loaded(t, {});
  t.equal(none.clientConfig('plain', PUBLIC, []).overrides['prefix'], 'plain', 'set even when the upstream has no prefix');
});

t.test('the upstream uri is dropped and values pointing at the upstream are rewritten to Icefront', async (t) => {
  const stub = await startUpstreamStub({ prefix: 'wh' });
  t.teardown(() => stub.close());
  const advertised = 'https://lakekeeper.internal/catalog';
  stub.respond = (req) =>
    req.url.startsWith('/v1/config')
      ? {
          status: 200,
          body: JSON.stringify({
            defaults: { 'nessie.iceberg-base-uri': `${stub.uri}/`, 's3.endpoint': 'http://minio:9000', 'warehouse': 's3://bucket/wh' },
            overrides: {
              prefix: 'wh',
              uri: advertised,
              's3.signer.uri': advertised,
              's3.signer.endpoint': 'v1/wh/namespaces/db/tables/t/sign',
              'client.refresh-credentials-endpoint': `${stub.uri}/v1/wh/namespaces/db/tables/t/credentials?planId=1`,
              'gcs.oauth2.refresh-credentials-endpoint': '/v1/wh/namespaces/db/tables/t/credentials',
              'oauth2-server-uri': `${stub.uri}/v1/oauth/tokens`,
              'elsewhere': 'https://lakekeeper.internal/catalogue/x',
              'other-upstream-path': 'v1/aws/s3/sign',
            },
          }),
        }
      : undefined;
  const upstream = createRestUpstream(stubCatalogConfig(stub));
  t.teardown(() => upstream.close());
  await upstream.fetchConfig();
  const { defaults, overrides } = upstream.clientConfig('sales', `${PUBLIC}/`, []);
  t.notOk('uri' in overrides, 'clients keep talking to Icefront');
  t.equal(defaults['nessie.iceberg-base-uri'], `${PUBLIC}/`);
  t.equal(defaults['s3.endpoint'], 'http://minio:9000', 'storage endpoints are not the catalog');
  t.equal(defaults['warehouse'], 's3://bucket/wh');
  t.equal(overrides['s3.signer.uri'], PUBLIC, 'the advertised uri counts as the upstream too');
  t.equal(overrides['s3.signer.endpoint'], 'v1/sales/namespaces/db/tables/t/sign');
  t.equal(overrides['client.refresh-credentials-endpoint'], `${PUBLIC}/v1/sales/namespaces/db/tables/t/credentials?planId=1`);
  t.equal(overrides['gcs.oauth2.refresh-credentials-endpoint'], '/v1/sales/namespaces/db/tables/t/credentials');
  t.equal(overrides['oauth2-server-uri'], `${stub.uri}/v1/oauth/tokens`, 'token requests are never routed through Icefront');
  t.notOk('elsewhere' in overrides, "a path that only shares a string prefix is not the catalog, but it is the upstream's host: dropped, never a way around Icefront");
  t.equal(overrides['other-upstream-path'], 'v1/aws/s3/sign', 'paths outside the prefix space stay');
});

t.test('without an upstream prefix, relative catalog paths gain the catalog name', async (t) => {
  const { upstream } = await loaded(t, { overrides: { 'client.refresh-credentials-endpoint': 'v1/namespaces/db/tables/t/credentials' } });
  t.equal(upstream.clientConfig('c', PUBLIC, []).overrides['client.refresh-credentials-endpoint'], 'v1/c/namespaces/db/tables/t/credentials');
});

t.test('the namespace separator clients see is always %1F', async (t) => {
  const { upstream } = await loaded(t, { prefix: 'wh', namespaceSeparator: '%2E', defaults: { 'namespace-separator': '%2E' } });
  const config = upstream.clientConfig('c', PUBLIC, []);
  t.equal(config.overrides['namespace-separator'], '%1F');
  t.notOk('namespace-separator' in config.defaults);
  t.equal(upstream.namespaceSeparator(), '%2E', 'the upstream\'s own stays available to the proxy');
  const { upstream: plain } = await loaded(t, { prefix: 'wh' });
  t.notOk('namespace-separator' in plain.clientConfig('c', PUBLIC, []).overrides, 'not added when the upstream never set one');
});

t.test('endpoints are the upstream\'s verbatim plus the extra ones, without duplicates', async (t) => {
  const upstreamList = ['GET /v1/{prefix}/namespaces', 'post /v1/{prefix}/namespaces/{namespace}/tables/{table}/plan', 'GET /v1/{prefix}/namespaces'];
  const { upstream } = await loaded(t, { prefix: 'wh', endpoints: upstreamList, idempotencyKeyLifetime: 'PT1H' });
  const config = upstream.clientConfig('c', PUBLIC, PLANNING);
  t.same(config.endpoints, ['GET /v1/{prefix}/namespaces', 'post /v1/{prefix}/namespaces/{namespace}/tables/{table}/plan', ...PLANNING.slice(1)]);
  t.equal(config['idempotency-key-lifetime'], 'PT1H');
});

t.test('an upstream without endpoints gets the 14 defaults spelled out, so the extras do not hide them', async (t) => {
  const { upstream } = await loaded(t, { prefix: 'wh' });
  const config = upstream.clientConfig('c', PUBLIC, PLANNING);
  t.same(config.endpoints, [...DEFAULT_ENDPOINTS, ...PLANNING]);
  t.notOk('idempotency-key-lifetime' in config);
});

t.test('secrets reach a client only from a config fetched with that client\'s own forwarded identity', async (t) => {
  const overrides = { 's3.access-key-id': 'AKIA', 's3.secret-access-key': 'shh', 's3.session-token': 'st', token: 't', credential: 'id:secret', 'token-refresh-enabled': 'true', 's3.region': 'eu' };
  const withoutSecrets = { 'token-refresh-enabled': 'true', 's3.region': 'eu', prefix: 'c' };
  const { upstream } = await loaded(t, { overrides }, { mode: 'bearer', token: 'service-token' });
  const asIcefront = await upstream.fetchConfig('Bearer alice');
  t.same(upstream.clientConfig('c', PUBLIC, [], asIcefront).overrides, withoutSecrets, 'fetched as Icefront');
  const { upstream: forwarded } = await loaded(t, { overrides });
  const asAlice = await forwarded.fetchConfig('Bearer alice');
  const { token: _token, credential: _credential, ...storage } = overrides;
  t.same(forwarded.clientConfig('c', PUBLIC, [], asAlice).overrides, { ...storage, prefix: 'c' }, 'fetched as the caller: storage secrets are the caller’s to see');
  t.notOk('token' in forwarded.clientConfig('c', PUBLIC, [], asAlice).overrides, 'but never a token the caller would then send to Icefront as its own');
  t.same(forwarded.clientConfig('c', PUBLIC, []).overrides, withoutSecrets, 'the last config of whoever asked last');
});

t.test('a table config keeps its vended credentials and has its refresh endpoint rewritten', async (t) => {
  const { upstream, stub } = await loaded(t, { prefix: 'wh' }, { mode: 'bearer', token: 'svc' });
  const rewritten = upstream.rewriteTableConfig(
    {
      's3.access-key-id': 'AKIA',
      's3.secret-access-key': 'shh',
      'client.refresh-credentials-endpoint': 'v1/wh/namespaces/db/tables/t/credentials',
      's3.signer.uri': stub.uri,
      uri: stub.uri,
    },
    'sales',
    PUBLIC,
  );
  t.same(rewritten, {
    's3.access-key-id': 'AKIA',
    's3.secret-access-key': 'shh',
    'client.refresh-credentials-endpoint': 'v1/sales/namespaces/db/tables/t/credentials',
    // no signer endpoint: Java posts to {uri}/v1/aws/s3/sign, so the uri names the catalog (signer-uri.ts)
    's3.signer.uri': `${PUBLIC}/v1/sales/s3-signer`,
  });
});

t.test('clientConfig before any successful fetch is UPSTREAM_UNAVAILABLE', async (t) => {
  const stub = await startUpstreamStub();
  const upstream = createRestUpstream(stubCatalogConfig(stub));
  t.teardown(async () => {
    await upstream.close();
    await stub.close();
  });
  t.throws(() => upstream.clientConfig('c', PUBLIC, []), { code: 'UPSTREAM_UNAVAILABLE' });
  t.throws(() => upstream.namespaceSeparator(), { code: 'UPSTREAM_UNAVAILABLE' });
});

t.test('hostile /v1/config values never reach clients: control characters, non-template or dot-segment endpoints, upstream URLs through ../, credentials', async (t) => {
  const stub = await startUpstreamStub({ prefix: 'wh', basePath: '/api/catalog' });
  t.teardown(() => stub.close());
  stub.respond = (req) =>
    req.url.startsWith('/api/catalog/v1/config')
      ? {
          status: 200,
          body: JSON.stringify({
            defaults: { 'header.X-Injected': 'a\r\nAuthorization: Bearer stolen', 'header.X-Fine': 'ok', 'bad\nkey': 'v' },
            overrides: {
              prefix: 'wh',
              'client.refresh-credentials-endpoint': `${stub.uri}/../../api/catalog/v1/wh/namespaces/db/tables/t/credentials`,
              'sneaky-admin': `${stub.uri.replace('/api/catalog', '')}/admin/../admin/drop-everything`,
              'other-host': 'https://objects.example/x',
              token: 'upstream-chosen',
            },
            endpoints: ['GET /v1/{prefix}/namespaces', 'GET /v1/../../admin', 'POST /v1/{prefix}/%2E%2e/x', 'GET /v1/./config', 'GET http://evil.example/steal', 'POST /v1/{prefix}/namespaces\r\nX: y', 'BREW /v1/{prefix}/coffee', 'get /v1/{prefix}/namespaces/{namespace}'],
          }),
        }
      : undefined;
  const upstream = createRestUpstream(stubCatalogConfig(stub));
  t.teardown(() => upstream.close());
  await upstream.fetchConfig();
  const { defaults, overrides, endpoints } = upstream.clientConfig('sales', PUBLIC, PLANNING);
  t.notOk('header.X-Injected' in defaults, 'a header value with CR/LF is dropped');
  t.notOk('bad\nkey' in defaults, 'a key with a control character is dropped');
  t.equal(defaults['header.X-Fine'], 'ok', 'a well-formed header value passes');
  t.equal(overrides['client.refresh-credentials-endpoint'], `${PUBLIC}/v1/sales/namespaces/db/tables/t/credentials`, 'dot segments resolved before comparing, then rewritten to Icefront');
  t.notOk('sneaky-admin' in overrides, "the upstream's host outside its base is dropped");
  t.equal(overrides['other-host'], 'https://objects.example/x', 'URLs on other hosts are not the upstream');
  t.notOk('token' in overrides, 'a token the upstream sets for clients is dropped (forward mode)');
  t.same(endpoints.filter((e) => !PLANNING.includes(e)), ['GET /v1/{prefix}/namespaces', 'get /v1/{prefix}/namespaces/{namespace}'], 'only METHOD /v1/… templates without dot segments pass');
});
