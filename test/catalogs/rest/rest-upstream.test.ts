import fs from 'node:fs';
import path from 'node:path';
import t, { type Test } from 'tap';
import { createRestUpstream, isUpstreamResponseError, type RestUpstream } from '../../../src/catalogs/index.js';
import { isIcefrontError } from '../../../src/errors/index.js';
import { createLogger } from '../../../src/observability/index.js';
import { startUpstreamStub, stubCatalogConfig, stubTableFromDir, type UpstreamStub, type UpstreamStubOptions } from '../../helpers/upstream-stub.js';

const ORDERS = path.resolve(import.meta.dirname, '../../../fixtures/warehouse/sales/orders/metadata');
const VENDED = { 's3.access-key-id': 'AKIAVENDED', 's3.secret-access-key': 'vended-secret', 's3.session-token': 'vended-session' };

async function setup(t: Test, options: UpstreamStubOptions = {}, logLines?: string[]): Promise<{ stub: UpstreamStub; upstream: RestUpstream }> {
  const stub = await startUpstreamStub({ prefix: 'wh', tables: [stubTableFromDir(ORDERS, ['sales'], 'orders', VENDED)], ...options });
  const logger = logLines ? createLogger({ level: 'debug', destination: { write: (line: string) => void logLines.push(line) } }) : undefined;
  const upstream = createRestUpstream(stubCatalogConfig(stub), logger ? { logger } : {});
  t.teardown(async () => {
    await upstream.close();
    await stub.close();
  });
  return { stub, upstream };
}

t.test('a table loads through the upstream with exact 64-bit ids, its config and the raw bytes', async (t) => {
  const { stub, upstream } = await setup(t);
  const table = await upstream.loadTable(['sales'], 'orders', 'Bearer caller');
  const file = path.join(ORDERS, 'v4.metadata.json');
  const onDisk = JSON.parse(fs.readFileSync(file, 'utf8').replace(/"current-snapshot-id":(\d+)/, '"current-snapshot-id":"$1"')) as Record<string, string>;
  t.equal(table.metadataLocation, `file://${file}`);
  t.equal(table.metadata.currentSnapshotId, BigInt(onDisk['current-snapshot-id']!), 'a snapshot id above 2^53 is exact');
  t.equal(table.metadata.tableUuid, onDisk['table-uuid']);
  t.same(table.config, VENDED, 'vended credentials are returned to the caller');
  t.same(table.storageCredentials, []);
  t.ok(table.headers['etag'], 'response headers (ETag) are kept');
  t.match(table.raw.toString('utf8'), /^\{"metadata-location":/);
  const load = stub.requests.find((r) => r.url.includes('/tables/'))!;
  t.equal(load.url, '/v1/wh/namespaces/sales/tables/orders');
  t.equal(load.headers.accept, 'application/json');
  t.equal(load.headers['x-iceberg-access-delegation'], undefined, 'no delegation unless asked');
});

t.test('access delegation is forwarded when the caller asks for it', async (t) => {
  const { stub, upstream } = await setup(t);
  await upstream.loadTable(['sales'], 'orders', undefined, 'vended-credentials');
  t.equal(stub.requests.at(-1)!.headers['x-iceberg-access-delegation'], 'vended-credentials');
});

t.test('nested namespaces use the upstream\'s separator, levels and names percent-encoded', async (t) => {
  const namespace = ['sales', 'my ns', 'a.b'];
  const { stub, upstream } = await setup(t, {
    prefix: 'catalogs/unity',
    namespaceSeparator: '%2E',
    basePath: '/api/catalog',
    tables: [stubTableFromDir(ORDERS, namespace, 'orders v2+')],
  });
  const table = await upstream.loadTable(namespace, 'orders v2+');
  t.equal(table.metadata.formatVersion, 2);
  t.equal(stub.requests.at(-1)!.url, '/api/catalog/v1/catalogs/unity/namespaces/sales%2Emy%20ns%2Ea.b/tables/orders%20v2%2B');
});

t.test('a missing table passes the upstream\'s 404 NoSuchTableException through', async (t) => {
  const { upstream } = await setup(t);
  const err = await upstream.loadTable(['sales'], 'nope').catch((e: unknown) => e);
  if (!isUpstreamResponseError(err)) throw new Error(`expected an UpstreamResponseError, got ${String(err)}`);
  t.equal(err.code, 'UPSTREAM_ERROR');
  t.equal(err.status, 404);
  t.equal(err.type, 'NoSuchTableException');
  t.match(err.upstream.body.toString('utf8'), /"type":"NoSuchTableException"/);
});

t.test('an empty namespace is rejected before any request', async (t) => {
  const { stub, upstream } = await setup(t);
  const err = await upstream.loadTable([], 'orders').catch((e: unknown) => e);
  t.ok(isIcefrontError(err, 'INVALID_NAMESPACE'));
  t.notOk(stub.requests.some((r) => r.url.includes('/tables/')));
});

t.test('a table load that is not a LoadTableResult is UPSTREAM_BAD_GATEWAY', async (t) => {
  const { stub, upstream } = await setup(t);
  const bodies = [
    '<html>oops</html>',
    '[]',
    '{"metadata":{"format-version":9}}',
    '{"metadata-location":5,"metadata":{}}',
    `{"metadata":${fs.readFileSync(path.join(ORDERS, 'v4.metadata.json'), 'utf8')},"config":{"k":[1]}}`,
    `{"metadata":${fs.readFileSync(path.join(ORDERS, 'v4.metadata.json'), 'utf8')},"storage-credentials":[{"config":{}}]}`,
  ];
  for (const body of bodies) {
    stub.respond = (req) => (req.url.includes('/tables/') ? { status: 200, body } : undefined);
    const err = await upstream.loadTable(['sales'], 'orders').catch((e: unknown) => e);
    t.ok(isIcefrontError(err, 'UPSTREAM_BAD_GATEWAY'), body.slice(0, 40));
  }
  stub.respond = (req) => (req.url.includes('/tables/') ? { status: 204, body: '' } : undefined);
  t.ok(isIcefrontError(await upstream.loadTable(['sales'], 'orders').catch((e: unknown) => e), 'UPSTREAM_BAD_GATEWAY'), 'an unexpected 2xx');
});

t.test('storage-credentials are returned with their prefixes', async (t) => {
  const { stub, upstream } = await setup(t);
  const metadata = fs.readFileSync(path.join(ORDERS, 'v4.metadata.json'), 'utf8');
  const credentials = [{ prefix: 's3://icefront-demo/', config: { 's3.access-key-id': 'A', 's3.secret-access-key': 'B' } }];
  stub.respond = (req) =>
    req.url.includes('/tables/') ? { status: 200, body: `{"metadata":${metadata},"storage-credentials":${JSON.stringify(credentials)}}` } : undefined;
  const table = await upstream.loadTable(['sales'], 'orders');
  t.same(table.storageCredentials, credentials);
  t.equal(table.metadataLocation, undefined);
  t.same(table.config, {});
});

t.test('logs never carry caller tokens, vended credentials or client secrets', async (t) => {
  const lines: string[] = [];
  const { stub, upstream } = await setup(t, {}, lines);
  await upstream.loadTable(['sales'], 'orders', 'Bearer caller-secret-token');
  await upstream.loadTable(['sales'], 'missing', 'Bearer caller-secret-token').catch(() => undefined);
  stub.fault = { mode: 'garbage' };
  await upstream.loadTable(['sales'], 'orders', 'Bearer other-caller').catch(() => undefined);
  t.ok(lines.length >= 2, 'failures are logged');
  const text = lines.join('');
  for (const secret of ['caller-secret-token', 'other-caller', ...Object.values(VENDED)]) t.notOk(text.includes(secret), `no ${secret}`);
  t.match(text, /"catalog":"up"/);
});
