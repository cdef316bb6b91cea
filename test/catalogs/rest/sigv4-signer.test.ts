/**
 * `auth.mode: sigv4` (issue #42): every request to the upstream, Icefront's own and pass-through
 * alike, carries an AWS Signature Version 4 over credentials from AWS's default chain. Each
 * signature is checked here by recomputing it with aws4fetch (another SigV4 implementation than
 * the AWS SDK's that Icefront signs with) from the request the upstream received; the interop
 * suite checks them with botocore's (test/interop/sigv4-upstream.test.ts).
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { AwsV4Signer } from 'aws4fetch';
import t, { type Test } from 'tap';
import { probeUpstream } from '../../../src/catalogs/index.js';
import { createRestUpstream } from '../../../src/catalogs/index.js';
import { parseConfig, type RestCatalogConfig, type UpstreamAuth } from '../../../src/config/index.js';
import { buildIcefront } from '../../../src/main.js';
import { testConfig } from '../../helpers/config.js';
import { startUpstreamStub, stubCatalogConfig, stubTableFromDir, type LoggedRequest, type UpstreamStub } from '../../helpers/upstream-stub.js';

const ORDERS = path.resolve(import.meta.dirname, '../../../fixtures/warehouse/sales/orders/metadata');
const KEY = { id: 'AKIDICEFRONTTEST', secret: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY' };
const GLUE: UpstreamAuth = { mode: 'sigv4', signingName: 'glue', region: 'eu-west-1' };

/** Only what a test sets: no shared files, no metadata endpoints (the chain must not find this machine's own). */
function awsEnv(t: Test, vars: Record<string, string>): void {
  const names = ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN', 'AWS_PROFILE', 'AWS_REGION', 'AWS_CONTAINER_CREDENTIALS_FULL_URI', 'AWS_CONTAINER_CREDENTIALS_RELATIVE_URI', 'AWS_WEB_IDENTITY_TOKEN_FILE', 'AWS_ROLE_ARN'];
  const before = Object.fromEntries([...names, 'AWS_SHARED_CREDENTIALS_FILE', 'AWS_CONFIG_FILE', 'AWS_EC2_METADATA_DISABLED'].map((n) => [n, process.env[n]]));
  for (const n of names) delete process.env[n];
  Object.assign(process.env, { AWS_SHARED_CREDENTIALS_FILE: '/nonexistent/credentials', AWS_CONFIG_FILE: '/nonexistent/config', AWS_EC2_METADATA_DISABLED: 'true' }, vars);
  t.teardown(() => {
    for (const [n, v] of Object.entries(before)) {
      if (v === undefined) delete process.env[n];
      else process.env[n] = v;
    }
  });
}

interface Verdict {
  readonly ok: boolean;
  readonly why: string;
  readonly accessKeyId?: string;
}

/**
 * The upstream's check, as AWS makes it: the signature recomputed (aws4fetch) over the headers
 * the request names as signed, the payload hash equal to the SHA-256 of the body received.
 */
async function verify(req: LoggedRequest, secrets: ReadonlyMap<string, string>, scope = { region: 'eu-west-1', service: 'glue' }): Promise<Verdict> {
  const auth = String(req.headers.authorization ?? '');
  const m = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(auth);
  if (!m) return { ok: false, why: `not a SigV4 Authorization: ${auth.slice(0, 40)}` };
  const [, keyId, , region, service, signed, signature] = m;
  if (region !== scope.region || service !== scope.service) return { ok: false, why: `scoped to ${region}/${service}` };
  const secret = secrets.get(keyId!);
  if (secret === undefined) return { ok: false, why: `unknown key ${keyId}` };
  const names = signed!.split(';');
  for (const needed of ['host', 'x-amz-date', 'x-amz-content-sha256']) if (!names.includes(needed)) return { ok: false, why: `${needed} is not signed` };
  const bodyHash = createHash('sha256').update(req.body).digest('hex');
  if (req.headers['x-amz-content-sha256'] !== bodyHash) return { ok: false, why: 'the payload hash is not the body\'s' };
  const headers = Object.fromEntries(names.filter((n) => n !== 'host').map((n) => [n, String(req.headers[n] ?? '')]));
  const token = req.headers['x-amz-security-token'];
  const expected = new AwsV4Signer({
    method: req.method,
    url: `http://${req.headers.host}${req.url}`,
    headers,
    body: req.body,
    accessKeyId: keyId!,
    secretAccessKey: secret,
    ...(typeof token === 'string' && { sessionToken: token }),
    service: service!,
    region: region!,
    datetime: String(req.headers['x-amz-date']),
    // exactly the headers the request names as signed (aws4fetch would otherwise leave out content-type)
    allHeaders: true,
  });
  const recomputed = await expected.signature();
  return recomputed === signature ? { ok: true, why: 'signature matches', accessKeyId: keyId! } : { ok: false, why: `signature ${signature} is not ${recomputed}` };
}

async function signedStub(t: Test, extra: Parameters<typeof startUpstreamStub>[0] = {}): Promise<UpstreamStub> {
  const stub = await startUpstreamStub({ prefix: 'wh', tables: [stubTableFromDir(ORDERS, ['sales'], 'orders')], ...extra });
  t.teardown(() => stub.close());
  return stub;
}

function icefront(t: Test, stub: UpstreamStub, auth: UpstreamAuth = GLUE, overrides: Partial<RestCatalogConfig> = {}) {
  const app = buildIcefront(testConfig([stubCatalogConfig(stub, { name: 'glue', auth, ...overrides })])).app;
  t.teardown(() => app.close());
  return app;
}

t.test('every request to a sigv4 upstream is signed, its own calls and pass-through alike, and the caller\'s Authorization never goes', async (t) => {
  awsEnv(t, { AWS_ACCESS_KEY_ID: KEY.id, AWS_SECRET_ACCESS_KEY: KEY.secret });
  const stub = await signedStub(t);
  const app = icefront(t, stub);
  const caller = { authorization: 'Bearer callers-own-token' };
  const answers = [
    await app.inject({ url: '/v1/config?warehouse=glue', headers: caller }),
    await app.inject({ url: '/v1/glue/namespaces?pageSize=10&pageToken=a%2Bb%3Dc+d%20e', headers: caller }),
    await app.inject({ url: '/v1/glue/namespaces/sales/tables/orders', headers: caller }),
    await app.inject({ method: 'POST', url: '/v1/glue/namespaces', headers: { ...caller, 'content-type': 'application/json' }, payload: { namespace: ['ünïcode'], properties: { owner: 'x y' } } }),
    await app.inject({ method: 'HEAD', url: '/v1/glue/namespaces/sales', headers: caller }),
    // bodiless DELETEs, as curl sends them: no Content-Type, with and without Content-Length: 0
    await app.inject({ method: 'DELETE', url: '/v1/glue/namespaces/scratch', headers: caller }),
    await app.inject({ method: 'DELETE', url: '/v1/glue/namespaces/scratch', headers: { ...caller, 'content-length': '0' } }),
  ];
  t.same(answers.map((a) => a.statusCode < 500), answers.map(() => true), `answers: ${answers.map((a) => a.statusCode)}`);
  const catalogRequests = stub.requests.filter((r) => r.url.startsWith('/v1/'));
  t.ok(catalogRequests.length >= 7, `${catalogRequests.length} requests reached the upstream`);
  t.equal(catalogRequests.filter((r) => r.method === 'DELETE').length, 2, 'both DELETEs reached it');
  const secrets = new Map([[KEY.id, KEY.secret]]);
  for (const req of catalogRequests) {
    const verdict = await verify(req, secrets);
    t.match(verdict, { ok: true }, `${req.method} ${req.url}: ${verdict.why}`);
    t.notMatch(String(req.headers.authorization), /callers-own-token/, 'the caller\'s token is not sent');
    t.equal(req.headers['x-amz-security-token'], undefined, 'long-term keys carry no session token');
  }
  const created = catalogRequests.find((r) => r.method === 'POST');
  t.match(created?.body, /"ünïcode"/, 'the body the upstream got is the one hashed and signed');
  const listed = catalogRequests.find((r) => r.url.includes('pageToken'));
  t.equal(listed?.url, '/v1/wh/namespaces?pageSize=10&pageToken=a%2Bb%3Dc%20d%20e', 'the query is sent in SigV4\'s encoding (a form\'s + as %20)');
});

t.test('temporary credentials are signed with their session token', async (t) => {
  awsEnv(t, { AWS_ACCESS_KEY_ID: 'ASIATEMPORARY', AWS_SECRET_ACCESS_KEY: 'temporary-secret', AWS_SESSION_TOKEN: 'session-token-value' });
  const stub = await signedStub(t);
  const app = icefront(t, stub);
  t.equal((await app.inject({ url: '/v1/glue/namespaces/sales/tables/orders' })).statusCode, 200);
  for (const req of stub.requests) {
    t.equal(req.headers['x-amz-security-token'], 'session-token-value');
    t.match(String(req.headers.authorization), /SignedHeaders=[^,]*x-amz-security-token/, 'the token is signed');
    t.match(await verify(req, new Map([['ASIATEMPORARY', 'temporary-secret']])), { ok: true }, `${req.method} ${req.url}`);
  }
});

/** A container credentials endpoint (as ECS and EKS Pod Identity serve): each fetch hands out new keys that expire `lifetimeMs` later. */
async function containerCredentials(t: Test, lifetimeMs: number) {
  const issued: { AccessKeyId: string; SecretAccessKey: string; expires: number }[] = [];
  const server = http.createServer((req, res) => {
    if (req.headers.authorization !== 'container-auth-token') {
      res.writeHead(403).end();
      return;
    }
    const keys = { AccessKeyId: `ASIACONTAINER${issued.length}`, SecretAccessKey: `container-secret-${issued.length}`, expires: Date.now() + lifetimeMs };
    issued.push(keys);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ AccessKeyId: keys.AccessKeyId, SecretAccessKey: keys.SecretAccessKey, Token: `container-token-${issued.length - 1}`, Expiration: new Date(keys.expires).toISOString() }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v2/credentials/icefront`, issued };
}

/** `20261206T155724Z` → ms since the epoch. */
const amzDate = (d: string) => Date.parse(d.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6Z'));

t.test('credentials from the container endpoint are renewed as they near expiry and never used past it', async (t) => {
  // AWS's chain renews credentials within 5 minutes of expiry: in the background while they are still
  // good, before the request once they are not. Keys that live 2.5 s see both within a few requests.
  const endpoint = await containerCredentials(t, 2_500);
  awsEnv(t, { AWS_CONTAINER_CREDENTIALS_FULL_URI: endpoint.url, AWS_CONTAINER_AUTHORIZATION_TOKEN: 'container-auth-token' });
  const stub = await signedStub(t);
  const app = icefront(t, stub);
  for (let i = 0; i < 6; i++) {
    t.equal((await app.inject({ url: '/v1/glue/namespaces/sales/tables/orders' })).statusCode, 200);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
  const byKey = new Map(endpoint.issued.map((k) => [k.AccessKeyId, k]));
  const used = new Set<string>();
  for (const req of stub.requests) {
    const verdict = await verify(req, new Map(endpoint.issued.map((k) => [k.AccessKeyId, k.SecretAccessKey])));
    t.match(verdict, { ok: true }, `${req.method} ${req.url}: ${verdict.why}`);
    if (!verdict.accessKeyId) continue;
    used.add(verdict.accessKeyId);
    // x-amz-date has whole seconds: signed no later than the second its keys expired in
    t.ok(amzDate(String(req.headers['x-amz-date'])) <= byKey.get(verdict.accessKeyId)!.expires, `${verdict.accessKeyId} used before it expired`);
  }
  t.ok(used.size >= 3, `requests signed with ${used.size} keys of the ${endpoint.issued.length} fetched`);
});

t.test('credentials kept while they are good: one fetch for many requests', async (t) => {
  const endpoint = await containerCredentials(t, 60 * 60_000);
  awsEnv(t, { AWS_CONTAINER_CREDENTIALS_FULL_URI: endpoint.url, AWS_CONTAINER_AUTHORIZATION_TOKEN: 'container-auth-token' });
  const stub = await signedStub(t);
  const app = icefront(t, stub);
  await Promise.all(Array.from({ length: 8 }, () => app.inject({ url: '/v1/glue/namespaces/sales/tables/orders' })));
  t.equal(endpoint.issued.length, 1, 'eight concurrent requests, one credentials fetch');
});

t.test('without credentials anywhere, a request is a 503 naming the catalog, and /readyz says why', async (t) => {
  awsEnv(t, {});
  const stub = await signedStub(t);
  const app = icefront(t, stub);
  const res = await app.inject({ url: '/v1/glue/namespaces' });
  t.equal(res.statusCode, 503);
  t.match(JSON.parse(res.body), { error: { code: 503, type: 'ServiceUnavailableException', message: /^Catalog 'glue': no AWS credentials to sign its requests with \(.+\)/ } });
  t.equal(stub.requests.length, 0, 'nothing unsigned reached the upstream');
  const config = stubCatalogConfig(stub, { name: 'glue', auth: GLUE });
  const upstream = createRestUpstream(config);
  t.teardown(() => upstream.close());
  t.match(await probeUpstream(upstream, config), { ready: false, reason: 'credentials', message: /no AWS credentials/ });
});

t.test('an AWS refusal (403 and its error type) reaches the caller as an ErrorModel naming the catalog, and /readyz quotes it', async (t) => {
  awsEnv(t, { AWS_ACCESS_KEY_ID: KEY.id, AWS_SECRET_ACCESS_KEY: KEY.secret });
  const stub = await signedStub(t);
  const expired = {
    status: 403,
    headers: { 'content-type': 'application/json', 'x-amzn-errortype': 'InvalidSignatureException:http://internal.amazon.com/coral/com.amazon.coral.service/' },
    body: JSON.stringify({ message: 'Signature expired: 20261206T100000Z is now earlier than 20261206T101000Z (20261206T101500Z - 5 min.)\nThe Canonical String for this request should have been\nx-amz-security-token:SECRET-TOKEN' }),
  };
  stub.respond = () => expired;
  const app = icefront(t, stub);
  for (const url of ['/v1/glue/namespaces', '/v1/glue/namespaces/sales/tables/orders']) {
    const res = await app.inject({ url });
    t.equal(res.statusCode, 403, url);
    const body = JSON.parse(res.body) as { error: { message: string } };
    t.match(body, { error: { code: 403, type: 'ForbiddenException', message: /^Catalog 'glue': the upstream answered .*403.*InvalidSignatureException: Signature expired: 20261206T100000Z/ } }, url);
    t.notMatch(body.error.message, /SECRET-TOKEN|Canonical String/, 'only the first line of AWS\'s message is quoted');
  }
  const config = stubCatalogConfig(stub, { name: 'glue', auth: GLUE });
  const upstream = createRestUpstream(config);
  t.teardown(() => upstream.close());
  t.match(await probeUpstream(upstream, config), { ready: false, reason: 'status', status: 403, message: 'GET /v1/config answered HTTP 403 (InvalidSignatureException: Signature expired: 20261206T100000Z is now earlier than 20261206T101000Z (20261206T101500Z - 5 min.))' });

  stub.respond = () => ({ status: 403, headers: { 'content-type': 'application/xml' }, body: '<?xml version="1.0"?><Error><Code>SignatureDoesNotMatch</Code><Message>The request signature we calculated does not match the signature you provided.</Message></Error>' });
  const xml = await app.inject({ url: '/v1/glue/namespaces' });
  t.match(JSON.parse(xml.body), { error: { code: 403, message: /^Catalog 'glue': the upstream answered .*403 .*SignatureDoesNotMatch: The request signature we calculated does not match the signature you provided\.\)$/ } }, 'S3\'s XML refusal too');
});

t.test('config: sigv4 takes its region from the config or from AWS_REGION, and refuses to start without one', async (t) => {
  const yaml = (auth: string) => `catalogs:\n  glue:\n    type: rest\n    uri: https://glue.eu-west-1.amazonaws.com/iceberg\n    warehouse: "123456789012"\n    auth: ${auth}\n`;
  const auth = (text: string, env: NodeJS.ProcessEnv = {}) => (parseConfig(yaml(text), 'icefront.yaml', env).catalogs.get('glue') as RestCatalogConfig).auth;
  t.same(auth('{ mode: sigv4, signing-name: glue, region: eu-west-1 }'), { mode: 'sigv4', signingName: 'glue', region: 'eu-west-1' });
  t.same(auth('{ mode: sigv4, signing-name: glue }', { AWS_REGION: 'us-east-2' }), { mode: 'sigv4', signingName: 'glue', region: 'us-east-2' });
  t.same(auth('{ mode: sigv4, signing-name: s3tables }', { AWS_DEFAULT_REGION: 'ap-south-1' }), { mode: 'sigv4', signingName: 's3tables', region: 'ap-south-1' });
  t.same(auth('{ mode: sigv4, signing-name: glue, region: eu-west-1, role-arn: "arn:aws:iam::123456789012:role/reader", role-session-name: icefront-a, profile: prod }'), {
    mode: 'sigv4',
    signingName: 'glue',
    region: 'eu-west-1',
    profile: 'prod',
    roleArn: 'arn:aws:iam::123456789012:role/reader',
    roleSessionName: 'icefront-a',
  });
  t.throws(() => auth('{ mode: sigv4, signing-name: glue }'), /catalogs\.glue\.auth.*sigv4 needs a region to sign for: set auth\.region \(or AWS_REGION/s);
  t.throws(() => auth('{ mode: sigv4, region: eu-west-1 }'), /signing-name/);
  t.throws(() => auth('{ mode: sigv4, signing-name: glue, region: eu-west-1, token: x }'), /token/);
  t.throws(() => auth('{ mode: sigv4, signing-name: glue, region: eu-west-1, role-arn: reader }'), /role-arn/);
});
