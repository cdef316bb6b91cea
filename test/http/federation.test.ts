import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { IcebergRestCatalog } from 'iceberg-js';
import t from 'tap';
import type { CatalogConfig, Config, RestCatalogConfig } from '../../src/config/index.js';
import { buildIcefront } from '../../src/main.js';
import { validateAgainst } from '../helpers/openapi.js';
import { startS3Server } from '../helpers/s3-server.js';
import { startUpstreamStub, stubCatalogConfig, stubTableFromDir } from '../helpers/upstream-stub.js';
import { demoCatalog, planAndRedeem, post, DEMO_WAREHOUSE } from '../service/planning/helpers.js';
import { buildWarehouse } from '../../tools/make-fixtures.js';
import { testConfig } from '../helpers/config.js';

function withServer(config: Config, server: Partial<Config['server']>): Config {
  return { ...config, server: { ...config.server, ...server } };
}

function configOf(catalogs: CatalogConfig[], batchSize = 2): Config {
  return testConfig(catalogs, { batchSize });
}

async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

function rest(name: string, uri: string, extra: Partial<RestCatalogConfig> = {}): RestCatalogConfig {
  return { type: 'rest', name, uri, warehouse: 'demo', planning: 'auto', auth: { mode: 'forward' }, connectTimeoutMs: 1000, requestTimeoutMs: 2000, ...extra };
}

t.test('one front door for two upstream Icefronts, one that plans and one with planning off', async (t) => {
  const planning = buildIcefront(configOf([demoCatalog('demo')])).app;
  const noPlanning = buildIcefront(configOf([{ ...demoCatalog('demo'), planning: 'off' }])).app;
  const [uriA, uriB] = [await listen(planning), await listen(noPlanning)];
  // The tables' recorded location, s3://icefront-demo/warehouse/…, served by a real S3-compatible server.
  const s3 = await startS3Server({ bucket: 'icefront-demo', uploads: [{ dir: DEMO_WAREHOUSE, prefix: 'warehouse' }] });
  const storage = { s3: { endpoint: s3.endpoint, region: s3.region, pathStyle: true, ...s3.credentials } };
  const front = buildIcefront(configOf([rest('a', uriA), rest('b', uriB, { storage })])).app;
  const frontUrl = await listen(front);
  t.teardown(async () => {
    await Promise.all([front.close(), planning.close(), noPlanning.close()]);
    await s3.close();
  });

  await t.test('/v1/config names Icefront’s prefix, drops the upstream uri, keeps what the upstream serves', async (t) => {
    for (const name of ['a', 'b']) {
      const res = await front.inject({ url: `/v1/config?warehouse=${name}` });
      t.equal(res.statusCode, 200);
      const body = JSON.parse(res.body) as { overrides: Record<string, string>; defaults: Record<string, string>; endpoints: string[] };
      t.same(validateAgainst('CatalogConfig', body), []);
      t.equal(body.overrides.prefix, name);
      t.notOk('uri' in body.overrides || 'uri' in body.defaults, 'no upstream uri for clients to bypass Icefront with');
      // a: the upstream's own planning endpoints; b: Icefront's, since it plans for that upstream.
      t.ok(body.endpoints.includes('POST /v1/{prefix}/namespaces/{namespace}/tables/{table}/plan'), 'planning advertised');
      t.ok(body.endpoints.includes('POST /v1/{prefix}/namespaces/{namespace}/tables/{table}/tasks'));
    }
  });

  await t.test('iceberg-js walks both upstreams through the front door', async (t) => {
    for (const warehouse of ['a', 'b']) {
      const catalog = new IcebergRestCatalog({ baseUrl: frontUrl, warehouse });
      const namespaces = await catalog.listNamespaces();
      t.same(namespaces.namespaces.map((n) => n.namespace).sort(), [['events'], ['legacy'], ['sales']]);
      const tables = await catalog.listTables({ namespace: ['sales'] });
      t.same(tables.identifiers.map((x) => x.name).sort(), ['orders', 'returns']);
      const table = await catalog.loadTable({ namespace: ['sales'], name: 'orders' });
      t.equal(table?.location, 's3://icefront-demo/warehouse/sales/orders');
      t.equal(await catalog.tableExists({ namespace: ['sales'], name: 'nope' }), false);
    }
  });

  await t.test('/plan + /tasks through the front equal planning the table directly; plan-task strings arrive unchanged', async (t) => {
    const direct = await planAndRedeem(planning, '/v1/demo/namespaces/sales/tables/returns', {});
    const via = await planAndRedeem(front, '/v1/a/namespaces/sales/tables/returns', {});
    t.ok(direct.keys.length > 0, 'planning the table directly gives tasks');
    t.same([...via.keys].sort(), [...direct.keys].sort(), 'same tasks, same deletes');
    t.same(via.plan['plan-tasks'], direct.plan['plan-tasks'], 'the upstream’s plan tasks byte for byte');
    t.ok((via.plan['plan-tasks'] ?? []).length > 0);
  });

  await t.test('an upstream without planning: Icefront plans locally, reading metadata from S3, with its own plan tasks', async (t) => {
    const direct = await planAndRedeem(planning, '/v1/demo/namespaces/sales/tables/returns', {});
    const local = await planAndRedeem(front, '/v1/b/namespaces/sales/tables/returns', {});
    t.ok(direct.keys.length > 0, 'planning the table directly gives tasks');
    t.same([...local.keys].sort(), [...direct.keys].sort(), 'same tasks and deletes as planning the table directly');
    t.ok((local.plan['plan-tasks'] ?? []).length > 0, 'batched into plan tasks');
    t.not(local.plan['plan-tasks']![0], direct.plan['plan-tasks']![0], 'the plan tasks are Icefront’s, bound to catalog b');
    const filtered = await planAndRedeem(front, '/v1/b/namespaces/sales/tables/orders', { filter: { type: 'eq', term: 'region', value: 'EU' } });
    const filteredDirect = await planAndRedeem(planning, '/v1/demo/namespaces/sales/tables/orders', { filter: { type: 'eq', term: 'region', value: 'EU' } });
    t.ok(filteredDirect.keys.length > 0, 'the EU filter keeps some of the files');
    t.same([...filtered.keys].sort(), [...filteredDirect.keys].sort(), 'filtered plans agree too');
    const foreign = await post(front, '/v1/b/namespaces/sales/tables/returns/tasks', { 'plan-task': direct.plan['plan-tasks']![0] });
    t.equal(foreign.statusCode, 404, 'the planning upstream’s strings mean nothing to catalog b');
  });

  await t.test('upstream errors pass through with their status and body', async (t) => {
    const direct = await planning.inject({ url: '/v1/demo/namespaces/sales/tables/nope' });
    const via = await front.inject({ url: '/v1/a/namespaces/sales/tables/nope' });
    t.equal(via.statusCode, 404);
    t.equal(via.body, direct.body);
    const ns = await front.inject({ url: '/v1/a/namespaces/nope' });
    t.equal(JSON.parse(ns.body).error.type, 'NoSuchNamespaceException');
  });
});

t.test('forward auth: the caller’s token reaches only the addressed upstream; a rejected caller gets the upstream’s 401', async (t) => {
  const table = stubTableFromDir(path.join(DEMO_WAREHOUSE, 'sales/orders/metadata'), ['sales'], 'orders');
  const one = await startUpstreamStub({ requireToken: 'caller-token', tables: [table] });
  const two = await startUpstreamStub({ tables: [table] });
  const front = buildIcefront(configOf([stubCatalogConfig(one, { name: 'one' }), stubCatalogConfig(two, { name: 'two' })])).app;
  t.teardown(async () => {
    await front.close();
    await one.close();
    await two.close();
  });
  const ok = await front.inject({ url: '/v1/one/namespaces/sales/tables/orders', headers: { authorization: 'Bearer caller-token' } });
  t.equal(ok.statusCode, 200);
  const denied = await front.inject({ url: '/v1/one/namespaces/sales/tables/orders', headers: { authorization: 'Bearer wrong' } });
  t.equal(denied.statusCode, 401, 'the upstream’s 401');
  await front.inject({ url: '/v1/two/namespaces/sales/tables/orders' });
  t.ok(two.requests.some((r) => r.url.endsWith('/namespaces/sales/tables/orders')), 'the other upstream was asked for its table');
  t.ok(one.requests.some((r) => r.headers.authorization === 'Bearer caller-token'), 'the addressed upstream saw the token');
  t.notOk(two.requests.some((r) => String(r.headers.authorization ?? '').includes('caller-token')), 'the other upstream never did');
});

// Faults are bounded by the tap timeout (a hang fails the test); durations are reported, not asserted.
t.test('a dead upstream is a 503 ErrorModel', { timeout: 20000 }, async (t) => {
  const probe = net.createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const port = (probe.address() as AddressInfo).port;
  await new Promise<void>((r) => probe.close(() => r()));
  const front = buildIcefront(configOf([rest('dead', `http://127.0.0.1:${port}`)])).app;
  t.teardown(() => front.close());
  const started = Date.now();
  const res = await front.inject({ url: '/v1/dead/namespaces' });
  t.equal(res.statusCode, 503);
  t.equal(JSON.parse(res.body).error.type, 'ServiceUnavailableException');
  t.comment(`answered in ${Date.now() - started} ms`);
});

t.test('local planning for an upstream: the upstream authorizes every /plan and /tasks through the caller’s own load', async (t) => {
  const s3 = await startS3Server({ bucket: 'icefront-demo', uploads: [{ dir: DEMO_WAREHOUSE, prefix: 'warehouse' }] });
  const table = stubTableFromDir(path.join(DEMO_WAREHOUSE, 'sales/orders/metadata'), ['sales'], 'orders');
  const stub = await startUpstreamStub({ requireToken: 'caller-token', tables: [table] });
  const storage = { s3: { endpoint: s3.endpoint, region: s3.region, pathStyle: true, ...s3.credentials } };
  const front = buildIcefront(configOf([stubCatalogConfig(stub, { name: 'up', storage })])).app;
  t.teardown(async () => {
    await front.close();
    await stub.close();
    await s3.close();
  });
  const url = '/v1/up/namespaces/sales/tables/orders';
  const as = (token: string) => ({ 'content-type': 'application/json', authorization: `Bearer ${token}` });
  const ok = await front.inject({ method: 'POST', url: `${url}/plan`, headers: as('caller-token'), payload: '{}' });
  t.equal(ok.statusCode, 200, 'an authorized caller gets a plan');
  const planTask = (JSON.parse(ok.body) as { 'plan-tasks': string[] })['plan-tasks'][0]!;
  const denied = await front.inject({ method: 'POST', url: `${url}/plan`, headers: as('wrong'), payload: '{}' });
  t.equal(denied.statusCode, 401, '/plan: the upstream’s 401');
  const tasksDenied = await front.inject({ method: 'POST', url: `${url}/tasks`, headers: as('wrong'), payload: JSON.stringify({ 'plan-task': planTask }) });
  t.equal(tasksDenied.statusCode, 401, '/tasks with a valid plan task but a rejected caller: 401');
  const tasksOk = await front.inject({ method: 'POST', url: `${url}/tasks`, headers: as('caller-token'), payload: JSON.stringify({ 'plan-task': planTask }) });
  t.equal(tasksOk.statusCode, 200);
});

t.test('load table through the front: bytes and ETag pass unchanged unless an upstream URL must be rewritten', async (t) => {
  const dir = path.join(DEMO_WAREHOUSE, 'sales/orders/metadata');
  const stub = await startUpstreamStub({ prefix: 'up-prefix', tables: [stubTableFromDir(dir, ['sales'], 'plain', { 's3.region': 'us-east-1' })] });
  const front = buildIcefront(withServer(configOf([stubCatalogConfig(stub, { name: 'front' })]), { publicUrl: 'http://icefront.test:8181' })).app;
  t.teardown(async () => {
    await front.close();
    await stub.close();
  });
  const direct = await fetch(`${stub.uri}/v1/up-prefix/namespaces/sales/tables/plain`);
  const directBody = await direct.text();
  const via = await front.inject({ url: '/v1/front/namespaces/sales/tables/plain' });
  t.equal(via.statusCode, 200);
  t.equal(via.body, directBody, 'no URL to rewrite: the upstream’s bytes');
  t.equal(via.headers.etag, direct.headers.get('etag') ?? undefined, 'and its ETag');
  t.match(via.body, /"current-snapshot-id":\d{16,}/, '64-bit ids as the upstream wrote them');

  // A table whose config sends clients back to the upstream (S3 signer, credential refresh).
  const signedBody = directBody.replace(
    /"config":\{[^}]*\}/,
    `"config":{"s3.signer.uri":"${stub.uri}","client.refresh-credentials-endpoint":"${stub.uri}/v1/up-prefix/namespaces/sales/tables/signed/credentials"}`,
  );
  t.not(signedBody, directBody, 'the test body carries upstream URLs');
  stub.respond = (req) => (req.url.includes('/tables/signed') ? { status: 200, body: signedBody, headers: { 'content-type': 'application/json', etag: '"up"' } } : undefined);
  const rewritten = await front.inject({ url: '/v1/front/namespaces/sales/tables/signed', headers: { host: 'evil.example:666' } });
  t.equal(rewritten.statusCode, 200);
  const config = (JSON.parse(rewritten.body) as { config: Record<string, string> }).config;
  t.notMatch(JSON.stringify(config), stub.uri, 'no upstream URL left for clients to bypass Icefront with');
  t.match(config['client.refresh-credentials-endpoint'], /^http:\/\/icefront\.test:8181\/v1\/front\/namespaces\/sales\/tables\/signed\/credentials$/, 'server.public-url, not the Host header');
  t.match(config['s3.signer.uri'], /^http:\/\/icefront\.test:8181/);
  t.not(rewritten.headers.etag, '"up"', 'a rewritten body has Icefront’s own ETag');
  t.match(rewritten.body, /"current-snapshot-id":\d{16,}/, 'ids stay exact through the rewrite');
  const again = await front.inject({
    url: '/v1/front/namespaces/sales/tables/signed',
    headers: { host: 'icefront.test:8181', 'if-none-match': String(rewritten.headers.etag) },
  });
  t.equal(again.statusCode, 304, 'revalidating with Icefront’s ETag gives 304');
});

t.test('upstream faults through the front door: hang → 504, garbage load-table body → 502, each bounded', { timeout: 30000 }, async (t) => {
  const table = stubTableFromDir(path.join(DEMO_WAREHOUSE, 'sales/orders/metadata'), ['sales'], 'orders');
  const stub = await startUpstreamStub({ tables: [table] });
  const front = buildIcefront(configOf([stubCatalogConfig(stub, { name: 'up', requestTimeoutMs: 500 })])).app;
  t.teardown(async () => {
    await front.close();
    await stub.close();
  });
  t.equal((await front.inject({ url: '/v1/up/namespaces/sales/tables/orders' })).statusCode, 200, 'healthy first (config cached)');
  for (const [mode, status, type] of [
    ['hang', 504, 'GatewayTimeoutException'],
    ['garbage', 502, 'BadGatewayException'],
    ['reset', 502, 'BadGatewayException'],
  ] as const) {
    stub.fault = { mode, match: /tables\/orders/ };
    const started = Date.now();
    const res = await front.inject({ url: '/v1/up/namespaces/sales/tables/orders' });
    t.equal(res.statusCode, status, `${mode}: ${status}`);
    t.equal(JSON.parse(res.body).error.type, type, `${mode}: ${type}`);
    t.comment(`${mode}: answered in ${Date.now() - started} ms`);
  }
  stub.fault = { mode: 'hang', match: /namespaces$/ };
  const started = Date.now();
  const listed = await front.inject({ url: '/v1/up/namespaces' });
  t.equal(listed.statusCode, 504, 'a streamed (pass-through) request that hangs: 504');
  t.comment(`answered in ${Date.now() - started} ms`);
});

t.test('bearer and oauth2 modes: Icefront’s own identity reaches the upstream, the caller’s never does', async (t) => {
  const table = stubTableFromDir(path.join(DEMO_WAREHOUSE, 'sales/orders/metadata'), ['sales'], 'orders');
  const bearerUp = await startUpstreamStub({ requireToken: 'icefront-own-token', tables: [table] });
  const oauthUp = await startUpstreamStub({ oauth: { clientId: 'icefront', clientSecret: 'client-secret-value' }, tables: [table] });
  const front = buildIcefront(
    configOf([
      stubCatalogConfig(bearerUp, { name: 'bearer', auth: { mode: 'bearer', token: 'icefront-own-token' } }),
      stubCatalogConfig(oauthUp, { name: 'oauth', auth: { mode: 'oauth2', tokenUrl: oauthUp.tokenUrl, clientId: 'icefront', clientSecret: 'client-secret-value' } }),
    ]),
  ).app;
  t.teardown(async () => {
    await front.close();
    await bearerUp.close();
    await oauthUp.close();
  });
  for (const name of ['bearer', 'oauth']) {
    const res = await front.inject({ url: `/v1/${name}/namespaces/sales/tables/orders`, headers: { authorization: 'Bearer callers-own-token' } });
    t.equal(res.statusCode, 200, `${name}: loaded with Icefront's identity`);
  }
  const isLoad = (r: { url: string }) => r.url.endsWith('/namespaces/sales/tables/orders');
  t.ok(bearerUp.requests.some(isLoad), 'bearer: the table load reached the upstream');
  t.ok(bearerUp.requests.every((r) => r.headers.authorization === 'Bearer icefront-own-token'), 'bearer: every request carried the configured token');
  t.ok(oauthUp.issuedTokens.length >= 1, 'oauth2: a token was obtained with the client credentials');
  const catalogCalls = oauthUp.requests.filter((r) => r.url.includes('/v1/'));
  t.ok(catalogCalls.some(isLoad), 'oauth2: the table load reached the upstream');
  t.ok(catalogCalls.every((r) => oauthUp.issuedTokens.some((tok) => r.headers.authorization === `Bearer ${tok}`)), 'oauth2: catalog calls carry the issued token');
  for (const up of [bearerUp, oauthUp]) t.notOk(up.requests.some((r) => JSON.stringify(r.headers).includes('callers-own-token')), 'the caller’s token never left Icefront');
});

t.test('local planning for an upstream whose tables live in local files: read through storage.local, confined to its roots', async (t) => {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'icefront-local-')));
  const warehouse = path.join(base, 'wh');
  buildWarehouse(warehouse, pathToFileURL(warehouse).href);
  const stub = await startUpstreamStub({ tables: [stubTableFromDir(path.join(warehouse, 'sales/returns/metadata'), ['sales'], 'returns')] });
  const local = (roots: string[]) => ({ local: { roots, locations: [] } });
  const front = buildIcefront(
    configOf([
      stubCatalogConfig(stub, { name: 'up', planning: 'local', storage: local([warehouse]) }),
      stubCatalogConfig(stub, { name: 'nolocal', planning: 'local' }),
      stubCatalogConfig(stub, { name: 'elsewhere', planning: 'local', storage: local([path.join(base, 'other')]) }),
      demoCatalog('direct', warehouse),
    ]),
  ).app;
  t.teardown(async () => {
    await front.close();
    await stub.close();
    fs.rmSync(base, { recursive: true, force: true });
  });
  const table = (catalog: string) => `/v1/${catalog}/namespaces/sales/tables/returns`;
  const via = await planAndRedeem(front, table('up'), {});
  const direct = await planAndRedeem(front, table('direct'), {});
  t.ok(via.keys.length > 0);
  t.same([...via.keys].sort(), [...direct.keys].sort(), 'same tasks and deletes as a filesystem catalog over the same folder');
  t.ok(via.keys.every((k) => k.includes(pathToFileURL(warehouse).href)), 'data files are the recorded file: paths');
  const noRoots = await post(front, `${table('nolocal')}/plan`, {});
  t.equal(noRoots.statusCode, 406, 'no storage.local: a clear 406');
  t.equal(JSON.parse(noRoots.body).error.type, 'UnsupportedOperationException');
  const outside = await post(front, `${table('elsewhere')}/plan`, {});
  t.equal(outside.statusCode, 403, 'a table outside the configured roots is not read');
  t.equal(JSON.parse(outside.body).error.type, 'ForbiddenException');
  t.notOk(outside.body.includes(base + '/other'), 'the error names no local root');
});

t.test('local planning of a table Icefront cannot read (gs://) is a 406 naming the catalog and the fix, not a 403', async (t) => {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'icefront-gs-')));
  buildWarehouse(base, 'gs://some-bucket/wh');
  const stub = await startUpstreamStub({ tables: [stubTableFromDir(path.join(base, 'sales/returns/metadata'), ['sales'], 'returns')] });
  const front = buildIcefront(configOf([stubCatalogConfig(stub, { name: 'gcs', planning: 'local' })])).app;
  t.teardown(async () => {
    await front.close();
    await stub.close();
    fs.rmSync(base, { recursive: true, force: true });
  });
  const res = await post(front, '/v1/gcs/namespaces/sales/tables/returns/plan', {});
  t.equal(res.statusCode, 406, 'the configuration cannot serve it: not the caller\'s authorization problem');
  const error = JSON.parse(res.body).error as { type: string; message: string };
  t.equal(error.type, 'UnsupportedOperationException');
  t.match(error.message, /Catalog "gcs"/, 'names the catalog');
  t.match(error.message, /planning: upstream/, 'and the fix');
  t.match(error.message, /gs:\/\/some-bucket\/wh/, 'and the location it cannot read');
});

t.test('a dot segment (raw or percent-encoded) under an upstream catalog is a 400 and never reaches the upstream', async (t) => {
  const stub = await startUpstreamStub({});
  const front = buildIcefront(configOf([stubCatalogConfig(stub, { name: 'up' })])).app;
  const base = await listen(front);
  t.teardown(async () => {
    await front.close();
    await stub.close();
  });
  const before = stub.requests.length;
  for (const path of ['/namespaces/prod/tables/%2e%2e', '/namespaces/prod/tables/%2E%2e', '/namespaces/prod/tables/.%2e', '/namespaces/prod/tables/%2e', '/namespaces/%2e%2e/tables/t', '/namespaces/prod/tables/..']) {
    // fetch and URL-string requests resolve dot segments client-side; a raw path is sent as written
    const res = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const { hostname, port } = new URL(base);
      const req = http.request({ hostname, port, path: `/v1/up${path}`, method: 'DELETE' }, (r) => {
        let body = '';
        r.on('data', (c: Buffer) => (body += c.toString()));
        r.on('end', () => resolve({ status: r.statusCode!, body }));
      });
      req.on('error', reject);
      req.end();
    });
    t.equal(res.status, 400, `DELETE …${path}: 400`);
    t.equal(JSON.parse(res.body).error.type, 'BadRequestException');
  }
  t.equal(stub.requests.length, before, 'the upstream saw none of them (the config fetch aside)');
  const named = await front.inject({ url: '/v1/up/namespaces/prod/tables/..x' });
  t.not(named.statusCode, 400, 'a name that merely starts with dots is a name');
});

t.test('a planning body of any content type reaches a planning upstream as sent, promptly', { timeout: 20000 }, async (t) => {
  const stub = await startUpstreamStub({});
  stub.respond = (req) => (req.url.endsWith('/plan') || req.url.endsWith('/tasks') ? { status: 200, body: '{"status":"completed","file-scan-tasks":[]}' } : undefined);
  const front = buildIcefront(configOf([stubCatalogConfig(stub, { name: 'up', planning: 'upstream' }), stubCatalogConfig(stub, { name: 'mine', planning: 'local' })])).app;
  t.teardown(async () => {
    await front.close();
    await stub.close();
  });
  for (const route of ['plan', 'tasks']) {
    const started = Date.now();
    const res = await front.inject({ method: 'POST', url: `/v1/up/namespaces/sales/tables/orders/${route}`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'a=1&b=%20' });
    t.comment(`${route}: ${Date.now() - started} ms`);
    t.equal(res.statusCode, 200, `${route}: the upstream's answer`);
    const seen = stub.requests.find((r) => r.url.endsWith(`/${route}`));
    t.equal(seen?.body, 'a=1&b=%20', `${route}: the body bytes as received`);
    t.equal(seen?.headers['content-type'], 'application/x-www-form-urlencoded');
  }
  const local = await front.inject({ method: 'POST', url: '/v1/mine/namespaces/sales/tables/orders/plan', headers: { 'content-type': 'text/plain' }, payload: 'hello' });
  t.equal(local.statusCode, 400, 'Icefront planning itself refuses a body that is not a JSON object');
});

t.test('a load-table error that is not an ErrorModel reaches the caller wrapped in one, with the upstream status', async (t) => {
  const stub = await startUpstreamStub({});
  stub.respond = (req) => (req.url.includes('/tables/') ? { status: 500, body: 'java.lang.IllegalStateException: at com.example.Internal(Internal.java:7)', headers: { 'content-type': 'text/plain' } } : undefined);
  const front = buildIcefront(configOf([stubCatalogConfig(stub, { name: 'up' })])).app;
  t.teardown(async () => {
    await front.close();
    await stub.close();
  });
  const res = await front.inject({ url: '/v1/up/namespaces/sales/tables/orders' });
  t.equal(res.statusCode, 500);
  const body = JSON.parse(res.body) as { error: { type: string; code: number; message: string } };
  t.same(validateAgainst('IcebergErrorResponse', body), []);
  t.same([body.error.type, body.error.code], ['ServiceFailureException', 500]);
  t.notOk(res.body.includes('Internal.java'), 'the stack trace is not relayed');
});

t.test('a load-table 200 that is not a JSON object is a 502; one with an empty config passes byte for byte', async (t) => {
  const stub = await startUpstreamStub({});
  let body = '';
  stub.respond = (req) => (req.url.includes('/tables/') ? { status: 200, body, headers: { 'content-type': 'application/json' } } : undefined);
  const front = buildIcefront(configOf([stubCatalogConfig(stub, { name: 'up' })])).app;
  t.teardown(async () => {
    await front.close();
    await stub.close();
  });
  for (const bad of ['<html>oops</html>', '[1,2]', 'null', '', '{"metadata-location":"s3://b/m.json"']) {
    body = bad;
    const res = await front.inject({ url: '/v1/up/namespaces/sales/tables/orders' });
    t.equal(res.statusCode, 502, `${JSON.stringify(bad)}: 502`);
    t.equal((JSON.parse(res.body) as { error: { type: string } }).error.type, 'BadGatewayException');
  }
  body = ' {"metadata-location":"s3://b/m.json","metadata":{"format-version":2},"config":{ }}\n';
  const ok = await front.inject({ url: '/v1/up/namespaces/sales/tables/orders' });
  t.equal(ok.statusCode, 200);
  t.equal(ok.body, body, 'the bytes as the upstream sent them');
});

t.test('a load-table redirect from the upstream is a 502 ErrorModel; the redirect target never reaches the caller', async (t) => {
  const stub = await startUpstreamStub({});
  const front = buildIcefront(configOf([stubCatalogConfig(stub, { name: 'up' })])).app;
  t.teardown(async () => {
    await front.close();
    await stub.close();
  });
  for (const status of [301, 302, 307, 308]) {
    stub.respond = (req) => (req.url.includes('/tables/') ? { status, body: '', headers: { location: 'http://evil.example/steal' } } : undefined);
    const res = await front.inject({ url: '/v1/up/namespaces/sales/tables/orders' });
    t.equal(res.statusCode, 502, `${status} → 502`);
    t.equal(res.headers.location, undefined);
    t.same((JSON.parse(res.body) as { error: { code: number } }).error.code, 502);
  }
});

t.test('URLs written for clients never come from the Host header; X-Forwarded-* count only from trusted proxies', async (t) => {
  const table = stubTableFromDir(path.join(DEMO_WAREHOUSE, 'sales/orders/metadata'), ['sales'], 'signed');
  const stub = await startUpstreamStub({});
  const metadata = fs.readFileSync(table.metadataFile, 'utf8');
  stub.respond = (req) =>
    req.url.includes('/tables/signed')
      ? { status: 200, body: `{"metadata-location":"s3://b/m.json","metadata":${metadata},"config":{"s3.signer.uri":"${stub.uri}"}}`, headers: { 'content-type': 'application/json' } }
      : undefined;
  const open = buildIcefront(configOf([stubCatalogConfig(stub, { name: 'up' })])).app;
  const behindProxy = buildIcefront(withServer(configOf([stubCatalogConfig(stub, { name: 'up' })]), { trustedProxies: ['127.0.0.0/8'] })).app;
  const [openUrl, proxiedUrl] = [await listen(open), await listen(behindProxy)];
  t.teardown(async () => {
    await Promise.all([open.close(), behindProxy.close()]);
    await stub.close();
  });
  const signer = async (base: string, headers: Record<string, string>) => {
    const { hostname, port } = new URL(base);
    return new Promise<string>((resolve, reject) => {
      const req = http.request({ hostname, port, path: '/v1/up/namespaces/sales/tables/signed', headers }, (r) => {
        let body = '';
        r.on('data', (c: Buffer) => (body += c.toString()));
        r.on('end', () => resolve((JSON.parse(body) as { config: Record<string, string> }).config['s3.signer.uri']!));
      });
      req.on('error', reject);
      req.end();
    });
  };
  const forged = { host: 'evil.example:666', 'x-forwarded-host': 'evil.example:667', 'x-forwarded-proto': 'https' };
  // the signer uri is the catalog's signer mount (no signer endpoint: Java's unprefixed default; signer-uri.ts)
  t.equal(await signer(openUrl, forged), `${openUrl}/v1/up/s3-signer`, 'an untrusted caller: the listen address, whatever Host and X-Forwarded-Host say');
  t.equal(await signer(proxiedUrl, { ...forged, 'x-forwarded-host': 'icefront.example:443' }), 'https://icefront.example:443/v1/up/s3-signer', 'a trusted proxy: its X-Forwarded-Host and -Proto');
  t.equal(await signer(proxiedUrl, { 'x-forwarded-host': 'a b/c' }), `${proxiedUrl}/v1/up/s3-signer`, 'a malformed forwarded host is ignored');

  stub.requests.length = 0;
  await fetch(`${openUrl}/v1/up/namespaces`, { headers: { 'x-forwarded-for': '6.6.6.6', 'x-forwarded-host': 'evil.example', forwarded: 'for=6.6.6.6' } });
  const seen = stub.requests.find((r) => r.url.endsWith('/namespaces'))!;
  t.equal(seen.headers['x-forwarded-for'], '127.0.0.1', 'an untrusted caller’s X-Forwarded-For is replaced by its own address');
  t.not(seen.headers['x-forwarded-host'], 'evil.example');
  t.equal(seen.headers.forwarded, undefined);
  stub.requests.length = 0;
  await fetch(`${proxiedUrl}/v1/up/namespaces`, { headers: { 'x-forwarded-for': '10.1.2.3' } });
  t.equal(stub.requests.find((r) => r.url.endsWith('/namespaces'))!.headers['x-forwarded-for'], '10.1.2.3,127.0.0.1', 'a trusted proxy’s chain is kept and extended');
});
