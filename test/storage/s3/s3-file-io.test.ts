import t from 'tap';
import fs from 'node:fs';
import path from 'node:path';
import type { LookupFunction } from 'node:net';
import { Agent, fetch as undiciFetch } from 'undici';
import { createS3FileIO, type FileIO } from '../../../src/storage/index.js';
import { startS3Server, type S3TestServer } from '../../helpers/s3-server.js';
import { capturingFetch, rejection } from './capture.js';

const ORDERS = path.resolve(import.meta.dirname, '../../../fixtures/warehouse/sales/orders');
const ODD_KEYS = ['odd/ts_day=2024-01-01/part 1+2.bin', 'odd/ünï/日本 (1)!.bin', 'odd/k=a%3Ab/f.bin'];

let server: S3TestServer;
let io: FileIO;

t.before(async () => {
  server = await startS3Server({ uploads: [{ dir: ORDERS, prefix: 'sales/orders' }] });
  for (const key of ODD_KEYS) await server.put(key, `bytes of ${key}`);
  await server.put('odd/top.txt', 'x');
  io = createS3FileIO({ endpoint: server.endpoint, region: server.region, pathStyle: true, credentials: server.credentials });
});
t.teardown(() => server?.close());

const s3 = (rel: string) => `s3://warehouse/sales/orders/${rel}`;
const local = (rel: string) => fs.readFileSync(path.join(ORDERS, rel));

t.test('whole objects read back byte for byte, through s3, s3a and s3n spellings', async (t) => {
  const rel = 'metadata/v4.metadata.json';
  for (const location of [s3(rel), `s3a://warehouse/sales/orders/${rel}`, `s3n://warehouse/sales/orders/${rel}`]) {
    t.same(await io.readFile(location), local(rel), location);
  }
  const manifest = fs.readdirSync(path.join(ORDERS, 'metadata')).find((f) => f.endsWith('.avro'))!;
  t.same(await io.readFile(s3(`metadata/${manifest}`)), local(`metadata/${manifest}`), 'binary files too');
});

t.test('ranged reads return exactly the requested bytes, fewer only at the end', async (t) => {
  const rel = 'metadata/v4.metadata.json';
  const all = local(rel);
  t.same(await io.readRange(s3(rel), 0, 16), all.subarray(0, 16), 'first bytes');
  t.same(await io.readRange(s3(rel), 100, 50), all.subarray(100, 150), 'middle');
  t.same(await io.readRange(s3(rel), all.length - 10, 10), all.subarray(all.length - 10), 'last bytes');
  t.same(await io.readRange(s3(rel), all.length - 4, 100), all.subarray(all.length - 4), 'straddling the end: short');
  t.equal((await io.readRange(s3(rel), all.length, 10)).length, 0, 'at the end: empty');
  t.equal((await io.readRange(s3(rel), all.length + 1000, 10)).length, 0, 'past the end: empty');
  t.equal((await io.readRange(s3(rel), 5, 0)).length, 0, 'zero length');
  t.equal((await rejection(io.readRange(s3(rel), -1, 5))).code, 'STORAGE_FAILURE', 'negative offset');
});

t.test('stat gives the size and modification time; exists tells files from missing keys', async (t) => {
  const rel = 'metadata/v4.metadata.json';
  const st = await io.stat(s3(rel));
  t.equal(st.size, local(rel).length);
  t.ok(Math.abs(st.mtimeMs - Date.now()) < 10 * 60_000, 'uploaded moments ago');
  t.equal(await io.exists(s3(rel)), true);
  t.equal(await io.exists(s3('metadata/v99.metadata.json')), false);
  t.equal(await io.exists('s3://no-such-bucket/x'), false);
  t.equal(await io.exists('s3://warehouse'), false, 'a bucket is not a file');
});

t.test('list gives the files and folders one level down, sorted', async (t) => {
  const metadata = await io.list(s3('metadata'));
  t.same(
    metadata.map((e) => e.name),
    fs.readdirSync(path.join(ORDERS, 'metadata')).sort(),
  );
  t.ok(metadata.every((e) => e.kind === 'file'));
  t.same(await io.list(s3('metadata/')), metadata, 'a trailing slash lists the same folder');
  // s3rver only reports a common prefix when some key sits directly below it, so the folders
  // listed here all hold files of their own (real S3 reports every common prefix)
  const bucketDir = 'data/region=EU/order_ts_day=2024-03-01/customer_id_bucket=4';
  t.same(await io.list(s3(bucketDir)), fs.readdirSync(path.join(ORDERS, bucketDir)).sort().map((name) => ({ name, kind: 'directory' })));
  t.same(await io.list('s3://warehouse/odd'), [
    { name: 'k=a%3Ab', kind: 'directory' },
    { name: 'top.txt', kind: 'file' },
    { name: 'ts_day=2024-01-01', kind: 'directory' },
    { name: 'ünï', kind: 'directory' },
  ]);
  t.equal((await rejection(io.list(s3('nothing-here')))).code, 'FILE_NOT_FOUND', 'a prefix with no keys is no folder');
  t.equal((await rejection(io.list(s3('metadata/v1.metadata.json')))).code, 'FILE_NOT_FOUND', 'a file is no folder');
});

t.test('keys with spaces, plus, equals, percent and unicode round-trip', async (t) => {
  for (const key of ODD_KEYS) {
    t.equal((await io.readFile(`s3://warehouse/${key}`)).toString(), `bytes of ${key}`, key);
    t.equal((await io.readRange(`s3://warehouse/${key}`, 9, 4)).toString(), key.slice(0, 4), `${key} (range)`);
    t.equal(await io.exists(`s3://warehouse/${key}`), true, `${key} (exists)`);
    const dir = key.slice(0, key.lastIndexOf('/'));
    t.same(await io.list(`s3://warehouse/${dir}`), [{ name: key.slice(dir.length + 1), kind: 'file' }], `${key} (list)`);
  }
  t.equal(await io.exists('s3://warehouse/odd/k=a:b/f.bin'), false, 'a literal %3A is not a colon');
});

t.test('missing keys and unknown buckets are FILE_NOT_FOUND naming the location', async (t) => {
  for (const [location, run] of [
    [s3('metadata/v99.metadata.json'), (l: string) => io.readFile(l)],
    [s3('metadata/v99.metadata.json'), (l: string) => io.readRange(l, 0, 10)],
    [s3('metadata/v99.metadata.json'), (l: string) => io.stat(l)],
    ['s3://no-such-bucket/a/b', (l: string) => io.readFile(l)],
    ['s3://no-such-bucket/a', (l: string) => io.list(l)],
  ] as const) {
    const err = await rejection(run(location));
    t.equal(err.code, 'FILE_NOT_FOUND', location);
    t.equal(err.message, `File not found: ${location}`);
  }
});

t.test('an unknown access key id is FORBIDDEN and the message names only the location', async (t) => {
  const secret = 'very-secret-key-material';
  const wrong = createS3FileIO({
    endpoint: server.endpoint,
    region: server.region,
    pathStyle: true,
    credentials: { accessKeyId: 'AKIAUNKNOWN', secretAccessKey: secret, sessionToken: 'session-token-material' },
  });
  for (const run of [() => wrong.readFile(s3('metadata/v1.metadata.json')), () => wrong.stat(s3('metadata/v1.metadata.json')), () => wrong.list(s3('metadata'))]) {
    const err = await rejection(run());
    t.equal(err.code, 'FORBIDDEN');
    t.match(err.message, /s3:\/\/warehouse\/sales\/orders\/metadata/);
    for (const leak of [secret, 'session-token-material', 'AKIAUNKNOWN', server.endpoint]) t.notOk(err.message.includes(leak), `no ${leak}`);
  }
  t.equal((await rejection(wrong.exists(s3('metadata/v1.metadata.json')))).code, 'FORBIDDEN', 'exists cannot tell, so it refuses');
});

t.test('locations that are not S3 are refused', async (t) => {
  for (const location of ['/etc/passwd', 'file:///etc/passwd', 'gs://warehouse/x', 's3://warehouse/sales/../../etc/passwd']) {
    t.equal((await rejection(io.readFile(location))).code, 'PATH_OUTSIDE_WAREHOUSE', location);
    t.equal((await rejection(io.exists(location))).code, 'PATH_OUTSIDE_WAREHOUSE', `${location} (exists)`);
  }
});

t.test('virtual-hosted requests reach the bucket through the host name', async (t) => {
  // s3rver maps <bucket>.s3.<region>.amazonaws.com to a bucket; resolve that name to the test server
  const lookup: LookupFunction = (_host, options, cb) => (options.all ? cb(null, [{ address: '127.0.0.1', family: 4 }]) : cb(null, '127.0.0.1', 4));
  const agent = new Agent({ connect: { lookup } });
  t.teardown(() => agent.close());
  const urls: string[] = [];
  const viaAgent = ((url: string, init: RequestInit) => {
    urls.push(url);
    return undiciFetch(url, { ...(init as object), dispatcher: agent });
  }) as unknown as typeof fetch;
  const port = new URL(server.endpoint).port;
  const vio = createS3FileIO({ endpoint: `http://s3.us-east-1.amazonaws.com:${port}`, region: 'us-east-1', pathStyle: false, credentials: server.credentials, fetch: viaAgent });
  t.same(await vio.readFile(s3('metadata/v1.metadata.json')), local('metadata/v1.metadata.json'));
  t.same((await vio.list(s3('metadata'))).map((e) => e.name), fs.readdirSync(path.join(ORDERS, 'metadata')).sort());
  t.ok(urls.length >= 2, `the read and the listing went through the given fetch (${urls.length} requests)`);
  t.ok(urls.every((u) => u.startsWith(`http://warehouse.s3.us-east-1.amazonaws.com:${port}/`)), urls.join(' '));
});

t.test('anonymous requests need no credentials (s3rver serves unsigned GETs)', async (t) => {
  const cap = capturingFetch((req) => fetch(req.url, { headers: req.headers }));
  const anon = createS3FileIO({ endpoint: server.endpoint, region: server.region, pathStyle: true, fetch: cap.fetch });
  t.same(await anon.readFile(s3('metadata/v1.metadata.json')), local('metadata/v1.metadata.json'));
  t.equal(cap.requests[0]!.headers.authorization, undefined);
});
