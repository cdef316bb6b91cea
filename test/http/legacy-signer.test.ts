/**
 * Java's unprefixed S3 signer through Icefront: a table config whose `s3.signer.uri` is the
 * upstream gets the catalog's signer mount instead, and Java's signing request to
 * `{mount}/v1/aws/s3/sign` reaches that catalog's upstream only, with that upstream's auth.
 */
import type { FastifyInstance } from 'fastify';
import t, { type Test } from 'tap';
import type { Config } from '../../src/config/index.js';
import { buildIcefront } from '../../src/main.js';
import { authConfig, bearer, configWith } from '../helpers/auth-config.js';
import { testConfig } from '../helpers/config.js';
import { startUpstreamStub, stubCatalogConfig, type UpstreamStub } from '../helpers/upstream-stub.js';

const PUBLIC = 'http://icefront.test:8181';
const SIGN_REQUEST = '{"region":"us-east-1","method":"GET","uri":"https://bucket.s3.amazonaws.com/t/data/f.parquet","headers":{"host":["bucket.s3.amazonaws.com"]}}';
const signed = (who: string) => `{"uri":"https://bucket.s3.amazonaws.com/t/data/f.parquet","headers":{"authorization":["AWS4-HMAC-SHA256 by ${who}"]}}`;

/** Java 1.11: resolveEndpoint(s3.signer.uri, "v1/aws/s3/sign"). */
const javaSignerUrl = (signerUri: string) => `${signerUri.replace(/\/+$/, '')}/v1/aws/s3/sign`;

/** An upstream whose table `signed` names the upstream itself as its signer, and which signs as `who`. */
async function signingUpstream(t: Test, who: string, token: string, basePath: string): Promise<UpstreamStub> {
  const stub = await startUpstreamStub({ prefix: 'wh', basePath, requireToken: token });
  t.teardown(() => stub.close());
  stub.respond = (req) => {
    if (req.url === `${basePath}/v1/wh/namespaces/sales/tables/signed`)
      return { status: 200, body: `{"metadata-location":"s3://bucket/t/metadata/v1.metadata.json","metadata":{"format-version":2},"config":{"s3.signer.uri":"${stub.uri}/","s3.remote-signing-enabled":"true"}}` };
    if (req.url === `${basePath}/v1/aws/s3/sign` && req.headers.authorization === `Bearer ${token}`)
      return { status: 200, body: signed(who), headers: { 'cache-control': 'private' } };
    return undefined;
  };
  return stub;
}

async function front(t: Test, config: Config): Promise<FastifyInstance> {
  const app = buildIcefront({ ...config, server: { ...config.server, publicUrl: PUBLIC } }).app;
  t.teardown(() => app.close());
  return app;
}

const signerUriOf = async (app: FastifyInstance, catalog: string, headers: Record<string, string> = {}) => {
  const res = await app.inject({ url: `/v1/${catalog}/namespaces/sales/tables/signed`, headers });
  return (JSON.parse(res.body) as { config: Record<string, string> }).config['s3.signer.uri']!;
};

const sign = (app: FastifyInstance, signerUri: string, headers: Record<string, string> = {}, payload = SIGN_REQUEST) =>
  app.inject({ method: 'POST', url: javaSignerUrl(signerUri).slice(PUBLIC.length), headers: { 'content-type': 'application/json', ...headers }, payload });

const signings = (stub: UpstreamStub) => stub.requests.filter((r) => r.url.endsWith('/v1/aws/s3/sign'));

t.test('each catalog gets its own signer mount, and signing through it reaches that upstream only, with its own auth', async (t) => {
  const a = await signingUpstream(t, 'a', 'token-a', '/api/catalog');
  const b = await signingUpstream(t, 'b', 'token-b', '');
  const app = await front(
    t,
    testConfig([
      stubCatalogConfig(a, { name: 'a', auth: { mode: 'bearer', token: 'token-a' } }),
      stubCatalogConfig(b, { name: 'b', auth: { mode: 'bearer', token: 'token-b' } }),
    ]),
  );
  const uriA = await signerUriOf(app, 'a');
  const uriB = await signerUriOf(app, 'b');
  t.equal(uriA, `${PUBLIC}/v1/a/s3-signer`, 'a: the mount names Icefront and the catalog');
  t.equal(uriB, `${PUBLIC}/v1/b/s3-signer`);
  for (const [name, uri, own, other] of [['a', uriA, a, b], ['b', uriB, b, a]] as const) {
    const before = { own: signings(own).length, other: signings(other).length };
    const res = await sign(app, uri, { authorization: 'Bearer callers-own' });
    t.equal(res.statusCode, 200, `${name}: signed`);
    t.equal(res.body, signed(name), `${name}: by its own upstream`);
    t.equal(res.headers['cache-control'], 'private', 'the signer’s caching hint passes (Java caches only private answers)');
    const seen = signings(own).slice(before.own);
    t.equal(seen.length, 1, `${name}: one request to its upstream`);
    t.equal(seen[0]?.url, `${name === 'a' ? '/api/catalog' : ''}/v1/aws/s3/sign`, `${name}: the upstream's own unprefixed signer path`);
    t.equal(seen[0]?.headers.authorization, `Bearer token-${name}`, `${name}: that upstream's credentials, not the caller's`);
    t.equal(seen[0]?.body, SIGN_REQUEST, 'the signing request as sent');
    t.equal(signings(other).length, before.other, `${name}: the other upstream saw nothing`);
  }
});

t.test('the mount forwards nothing but the signer: other paths, methods and catalogs are 404s that reach no upstream', async (t) => {
  const a = await signingUpstream(t, 'a', 'token-a', '');
  const app = await front(t, testConfig([stubCatalogConfig(a, { name: 'a', auth: { mode: 'bearer', token: 'token-a' } })]));
  await signerUriOf(app, 'a');
  const before = a.requests.length;
  for (const [method, url] of [
    ['POST', '/v1/a/s3-signer/v1/wh/namespaces/sales/tables/signed'],
    ['POST', '/v1/a/s3-signer/v1/aws/s3/sign/extra'],
    ['GET', '/v1/a/s3-signer/v1/aws/s3/sign'],
    ['POST', '/v1/nope/s3-signer/v1/aws/s3/sign'],
  ] as const) {
    const res = await app.inject({ method, url, headers: { 'content-type': 'application/json' }, ...(method === 'POST' && { payload: SIGN_REQUEST }) });
    t.equal(res.statusCode, 404, `${method} ${url}: 404`);
    t.equal((JSON.parse(res.body) as { error: { code: number } }).error.code, 404, 'an ErrorModel');
  }
  t.equal(a.requests.length, before, 'no upstream request');
});

t.test('a signer that hangs is a 504 ErrorModel, asked once', { timeout: 20000 }, async (t) => {
  const a = await signingUpstream(t, 'a', 'token-a', '');
  const app = await front(t, testConfig([stubCatalogConfig(a, { name: 'a', auth: { mode: 'bearer', token: 'token-a' }, requestTimeoutMs: 300 })]));
  const uri = await signerUriOf(app, 'a');
  a.fault = { mode: 'hang', match: /\/v1\/aws\/s3\/sign$/ };
  const res = await sign(app, uri);
  t.equal(res.statusCode, 504);
  t.equal((JSON.parse(res.body) as { error: { type: string } }).error.type, 'GatewayTimeoutException');
  t.equal(signings(a).length, 1, 'one request, no retry');
});

t.test('with auth on: signing a read needs a read rule in the catalog, anything else a write rule', async (t) => {
  const up = await signingUpstream(t, 'up', 'token-up', '');
  const app = await front(t, configWith([stubCatalogConfig(up, { name: 'up', auth: { mode: 'bearer', token: 'token-up' } })], authConfig()));
  const uri = await signerUriOf(app, 'up', bearer('admin'));
  const put = SIGN_REQUEST.replace('"GET"', '"PUT"');
  t.equal((await sign(app, uri)).statusCode, 401, 'no credential: 401');
  t.equal((await sign(app, uri, bearer('carol'))).statusCode, 403, 'no rule for the catalog: 403');
  t.equal((await sign(app, uri, bearer('alice'))).statusCode, 200, 'a reader signs a GET');
  t.equal((await sign(app, uri, bearer('alice'), put)).statusCode, 403, 'but not a PUT');
  t.equal((await sign(app, uri, bearer('writer'), put)).statusCode, 200, 'a writer signs a PUT');
  t.equal((await sign(app, uri, bearer('writer'), 'not json')).statusCode, 400, 'a body that is not JSON cannot be authorized: 400');
  t.equal(signings(up).length, 2, 'only the allowed requests reached the upstream');
});

t.test('the upstream signer is the configured uri plus /v1/aws/s3/sign, even when that uri has v1 segments of its own', async (t) => {
  const up = await signingUpstream(t, 'up', 'token-up', '/api/v1/iceberg/v1');
  const app = await front(t, testConfig([stubCatalogConfig(up, { name: 'up', auth: { mode: 'bearer', token: 'token-up' } })]));
  const res = await sign(app, await signerUriOf(app, 'up'));
  t.equal(res.statusCode, 200, res.body);
  t.same(signings(up).map((r) => r.url), ['/api/v1/iceberg/v1/v1/aws/s3/sign']);
});
