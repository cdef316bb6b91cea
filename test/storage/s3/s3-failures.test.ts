import t from 'tap';
import net from 'node:net';
import http from 'node:http';
import { createS3FileIO, type S3FileIOOptions } from '../../../src/storage/index.js';
import { capturingFetch, rejection, type Answer } from './capture.js';

const CREDENTIALS = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret-material' };
const LOC = 's3://warehouse/db/t/metadata/snap-1.avro';

function scripted(answer: Answer, options: Partial<S3FileIOOptions> = {}) {
  const cap = capturingFetch(answer);
  const io = createS3FileIO({ endpoint: 'http://s3.test:9000', region: 'us-east-1', pathStyle: true, credentials: CREDENTIALS, fetch: cap.fetch, ...options });
  return { io, requests: cap.requests };
}

/** A server that accepts connections and never answers; `sockets` are the connections it got. */
async function silentServerWithSockets(t: { teardown(fn: () => void): void }): Promise<{ endpoint: string; sockets: Set<net.Socket> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((s) => sockets.add(s));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    for (const s of sockets) s.destroy();
    server.close();
  });
  return { endpoint: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`, sockets };
}

t.test('a server that never answers fails with STORAGE_FAILURE within the timeout', async (t) => {
  const { endpoint, sockets } = await silentServerWithSockets(t);
  const io = createS3FileIO({ endpoint, region: 'us-east-1', pathStyle: true, credentials: CREDENTIALS, timeoutMs: 300 });
  const started = Date.now();
  const err = await rejection(io.readFile(LOC));
  t.equal(err.code, 'STORAGE_FAILURE');
  t.match(err.message, /timed out/);
  t.equal(sockets.size, 1, 'a timeout is not retried');
  t.comment(`gave up after ${Date.now() - started} ms`);
});

t.test('a body that stalls half way also times out', async (t) => {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-length': '1000' });
    res.write('only a few bytes');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    server.closeAllConnections();
    server.close();
  });
  const io = createS3FileIO({ endpoint: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`, region: 'us-east-1', pathStyle: true, timeoutMs: 300 });
  const started = Date.now();
  const err = await rejection(io.readFile(LOC));
  t.equal(err.code, 'STORAGE_FAILURE');
  t.comment(`gave up after ${Date.now() - started} ms`);
});

t.test('a refused connection is STORAGE_FAILURE after the retries', async (t) => {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as net.AddressInfo).port;
  await new Promise((resolve) => probe.close(resolve));
  const io = createS3FileIO({ endpoint: `http://127.0.0.1:${port}`, region: 'us-east-1', pathStyle: true, credentials: CREDENTIALS });
  const err = await rejection(io.stat(LOC));
  t.equal(err.code, 'STORAGE_FAILURE');
  t.equal(err.message, `Cannot read ${LOC} (ECONNREFUSED)`);
});

t.test('5xx answers are retried, then STORAGE_FAILURE naming the status and S3 code', async (t) => {
  const slowDown = () => new Response('<Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>', { status: 503 });
  const flaky = scripted((req) => (flaky.requests.length < 3 ? slowDown() : new Response(`body of ${new URL(req.url).pathname}`)));
  t.equal((await flaky.io.readFile(LOC)).toString(), 'body of /warehouse/db/t/metadata/snap-1.avro', 'the third attempt succeeds');
  t.equal(flaky.requests.length, 3);

  const down = scripted(slowDown);
  const err = await rejection(down.io.readFile(LOC));
  t.equal(err.code, 'STORAGE_FAILURE');
  t.equal(err.message, `Cannot read ${LOC} (HTTP 503 SlowDown)`);
  t.equal(down.requests.length, 3, 'one attempt and two retries by default');

  const noRetry = scripted(() => new Response('<Error><Code>InternalError</Code></Error>', { status: 500 }), { retries: 0 });
  t.equal((await rejection(noRetry.io.readRange(LOC, 0, 4))).code, 'STORAGE_FAILURE');
  t.equal(noRetry.requests.length, 1);
});

t.test('4xx answers are not retried: 404 FILE_NOT_FOUND, 403 FORBIDDEN, others STORAGE_FAILURE', async (t) => {
  const cases: Array<[number, string, string]> = [
    [404, '<Error><Code>NoSuchKey</Code></Error>', 'FILE_NOT_FOUND'],
    [404, '<Error><Code>NoSuchBucket</Code></Error>', 'FILE_NOT_FOUND'],
    [403, '<Error><Code>AccessDenied</Code></Error>', 'FORBIDDEN'],
    [403, '<Error><Code>ExpiredToken</Code></Error>', 'FORBIDDEN'],
    [400, '<Error><Code>AuthorizationHeaderMalformed</Code></Error>', 'STORAGE_FAILURE'],
  ];
  for (const [status, body, code] of cases) {
    const s = scripted(() => new Response(body, { status }));
    const err = await rejection(s.io.readFile(LOC));
    t.equal(err.code, code, body);
    t.equal(s.requests.length, 1);
    t.ok(err.message.includes(LOC) && !err.message.includes('secret-material') && !err.message.includes('s3.test'), err.message);
  }
});

t.test('redirects (a bucket in another region) are not followed', async (t) => {
  let hits = 0;
  const server = http.createServer((_req, res) => {
    hits += 1;
    res.writeHead(301, { location: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/elsewhere` });
    res.end('<Error><Code>PermanentRedirect</Code></Error>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  const io = createS3FileIO({ endpoint: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`, region: 'us-east-1', pathStyle: true, credentials: CREDENTIALS });
  const err = await rejection(io.readFile(LOC));
  t.equal(err.code, 'STORAGE_FAILURE');
  t.equal(err.message, `Cannot read ${LOC} (HTTP 301 PermanentRedirect)`);
  t.equal(hits, 1, 'the signed request goes nowhere else');
});

t.test('a server that ignores Range and sends the whole object is sliced', async (t) => {
  const s = scripted(() => new Response('0123456789'));
  t.equal((await s.io.readRange(LOC, 3, 4)).toString(), '3456');
  t.equal((await s.io.readRange(LOC, 8, 5)).toString(), '89');
  t.equal((await s.io.readRange(LOC, 12, 5)).length, 0);
  t.equal(s.requests[0]!.headers.range, 'bytes=3-6');
});

t.test('a 206 for another range than asked is a STORAGE_FAILURE; a longer one is cut', async (t) => {
  const wrong = scripted(() => new Response('0123', { status: 206, headers: { 'content-range': 'bytes 0-3/10' } }));
  t.equal((await rejection(wrong.io.readRange(LOC, 4, 4))).code, 'STORAGE_FAILURE');
  const longer = scripted(() => new Response('456789', { status: 206, headers: { 'content-range': 'bytes 4-9/10' } }));
  t.equal((await longer.io.readRange(LOC, 4, 2)).toString(), '45');
});

t.test('a HEAD without a usable Content-Length is a STORAGE_FAILURE', async (t) => {
  const s = scripted(() => new Response(null, { status: 200 }));
  t.equal((await rejection(s.io.stat(LOC))).code, 'STORAGE_FAILURE');
});

t.test('listings follow continuation tokens and unescape XML', async (t) => {
  const pages = [
    '<ListBucketResult><IsTruncated>true</IsTruncated><NextContinuationToken>1/a+b=</NextContinuationToken>' +
      '<Contents><Key>db/t/b&amp;c.avro</Key></Contents><CommonPrefixes><Prefix>db/t/data/</Prefix></CommonPrefixes></ListBucketResult>',
    '<ListBucketResult><IsTruncated>false</IsTruncated><Contents><Key>db/t/</Key></Contents>' +
      '<Contents><Key>db/t/a&#x20;&lt;1&gt;.avro</Key></Contents><Contents><Key>db/t/&#233;t&#xE9;</Key></Contents></ListBucketResult>',
  ];
  const s = scripted(() => new Response(pages[s.requests.length - 1]));
  t.same(await s.io.list('s3://warehouse/db/t'), [
    { name: 'a <1>.avro', kind: 'file' },
    { name: 'b&c.avro', kind: 'file' },
    { name: 'data', kind: 'directory' },
    { name: 'été', kind: 'file' },
  ]);
  const [first, second] = s.requests.map((r) => new URL(r.url).searchParams);
  t.equal(first!.get('list-type'), '2');
  t.equal(first!.get('prefix'), 'db/t/');
  t.equal(first!.get('delimiter'), '/');
  t.equal(first!.get('continuation-token'), null);
  t.equal(second!.get('continuation-token'), '1/a+b=', 'the token goes back verbatim');
});

t.test('a folder that exists only as a marker object lists as empty', async (t) => {
  const s = scripted(() => new Response('<ListBucketResult><IsTruncated>false</IsTruncated><Contents><Key>db/t/</Key></Contents></ListBucketResult>'));
  t.same(await s.io.list('s3://warehouse/db/t'), []);
});

t.test('a truncated listing without a new token fails instead of looping', async (t) => {
  const s = scripted(() => new Response('<ListBucketResult><IsTruncated>true</IsTruncated><Contents><Key>db/t/a</Key></Contents></ListBucketResult>'));
  t.equal((await rejection(s.io.list('s3://warehouse/db/t'))).code, 'STORAGE_FAILURE');
});

t.test('invalid options are refused when the FileIO is built', async (t) => {
  const base = { region: 'us-east-1', pathStyle: true };
  for (const options of [
    { ...base, timeoutMs: 0 },
    { ...base, retries: -1 },
    { ...base, region: '' },
    { ...base, credentials: { accessKeyId: '', secretAccessKey: 'x' } },
    { ...base, endpoint: 'ftp://x' },
  ]) {
    let code: string | undefined;
    try {
      createS3FileIO(options);
    } catch (err) {
      code = (err as { code?: string }).code;
    }
    t.equal(code, 'CONFIG_INVALID', JSON.stringify(options));
  }
});
