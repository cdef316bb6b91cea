import { createHash } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import zlib from 'node:zlib';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import t, { type Test } from 'tap';
import { UpstreamHttp } from '../../../src/catalogs/rest/http-client.js';
import { createPassThrough, type PassThroughTarget } from '../../../src/http/proxy/index.js';

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  bodySha: string;
  bodyLength: number;
}

/** A real upstream on port 0 that records what reached it and answers as told. */
async function upstream(answer: (req: http.IncomingMessage, res: http.ServerResponse) => void) {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    const hash = createHash('sha256');
    let length = 0;
    req.on('data', (c: Buffer) => {
      hash.update(c);
      length += c.length;
    });
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, bodySha: hash.digest('hex'), bodyLength: length });
      answer(req, res);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** Icefront-side app: every request is passed through to `target(req)`; bodies are never parsed. */
async function gateway(target: (url: string) => PassThroughTarget): Promise<{ app: FastifyInstance; base: string }> {
  const pass = createPassThrough();
  const app = Fastify();
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_req, _payload, done) => done(null));
  app.all('/*', (request, reply) => pass.forward(request, reply, target(request.raw.url!)));
  app.addHook('onClose', async () => pass.close());
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, base: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` };
}

/** One upstream transport per upstream and timeout, as the federation keeps one per catalog; closed when the tests are done. */
const transports = new Map<string, UpstreamHttp>();
t.teardown(() => Promise.all([...transports.values()].map((h) => h.close())));

/** A target at `url` as the federation makes one: its exchange goes through a real upstream transport (undici, one pool). */
function targetAt(url: string, extra: Partial<Omit<PassThroughTarget, 'exchange'>> = {}): PassThroughTarget {
  const timeoutMs = extra.timeoutMs ?? 2000;
  const { origin, pathname, search } = new URL(url);
  const key = `${origin} ${timeoutMs}`;
  const transport = transports.get(key) ?? new UpstreamHttp('front', 2000, timeoutMs);
  transports.set(key, transport);
  const what = 'GET /v1/{prefix}/…';
  return {
    url,
    setHeaders: {},
    dropHeaders: [],
    timeoutMs,
    catalog: 'front',
    what,
    ...extra,
    exchange: (request) => transport.stream({ origin, path: pathname + search }, what, request),
  };
}

const to = (base: string, extra: Partial<Omit<PassThroughTarget, 'exchange'>> = {}) => (url: string): PassThroughTarget =>
  targetAt(base + url.replace(/^\/v1\/front/, '/api/catalog/v1/up%7Cstream'), extra);

t.test('a request passes through byte for byte: raw path and query, streamed body, response as sent', async (t) => {
  const up = await upstream((_req, res) => {
    res.writeHead(201, { 'content-type': 'application/json', etag: '"v1"', 'x-upstream': 'yes' });
    res.end('{"metadata-location":"s3://b/t/metadata/v1.metadata.json","n":9158179788527662767}');
  });
  const gw = await gateway(to(up.base, { setHeaders: { authorization: 'Bearer icefront-own' }, dropHeaders: ['authorization'] }));
  t.teardown(async () => {
    await gw.app.close();
    await up.close();
  });
  const body = Buffer.alloc(5 * 1024 * 1024, 'x');
  const rawPath = '/v1/front/namespaces/a%1Fb%2Fc%20d+e/tables/t%25x?snapshots=refs&pageToken=a%2Bb';
  const res = await fetch(gw.base + rawPath, {
    method: 'POST',
    body,
    headers: {
      'content-type': 'application/json',
      authorization: 'Bearer caller-token',
      'idempotency-key': '0190b3b4-0000-7000-8000-000000000001',
      'if-none-match': '"v0"',
      'x-iceberg-access-delegation': 'vended-credentials',
      'proxy-authorization': 'Basic c2VjcmV0',
      te: 'trailers',
    },
  });
  t.equal(res.status, 201);
  t.equal(res.headers.get('etag'), '"v1"');
  t.equal(res.headers.get('x-upstream'), 'yes');
  t.equal(await res.text(), '{"metadata-location":"s3://b/t/metadata/v1.metadata.json","n":9158179788527662767}', 'body untouched, 64-bit id intact');
  const got = up.seen[0]!;
  t.equal(got.url, '/api/catalog/v1/up%7Cstream/namespaces/a%1Fb%2Fc%20d+e/tables/t%25x?snapshots=refs&pageToken=a%2Bb', 'path rewritten, rest and query raw');
  t.equal(got.bodyLength, body.length);
  t.equal(got.bodySha, createHash('sha256').update(body).digest('hex'), 'body streamed intact');
  t.equal(got.headers.authorization, 'Bearer icefront-own', "the caller's token never reaches this upstream");
  t.equal(got.headers['idempotency-key'], '0190b3b4-0000-7000-8000-000000000001');
  t.equal(got.headers['if-none-match'], '"v0"');
  t.equal(got.headers['x-iceberg-access-delegation'], 'vended-credentials');
  t.equal(got.headers['proxy-authorization'], undefined, 'hop-by-hop dropped');
  t.equal(got.headers.te, undefined, 'hop-by-hop dropped');
  t.equal(got.headers['x-forwarded-for'], '127.0.0.1');
  t.equal(got.headers.host, new URL(up.base).host, 'Host is the upstream');
});

t.test('headers the caller names in Connection are hop-by-hop and never forwarded (RFC 9110 §7.6.1)', async (t) => {
  const up = await upstream((_req, res) => res.writeHead(204).end());
  const gw = await gateway(to(up.base));
  t.teardown(async () => {
    await gw.app.close();
    await up.close();
  });
  const status = await new Promise<number>((resolve, reject) => {
    const req = http.request(`${gw.base}/v1/front/namespaces`, {
      headers: { connection: 'keep-alive, X-Secret-Hop,x-other-hop', 'x-secret-hop': 'internal', 'x-other-hop': 'internal', 'x-kept': 'yes' },
    });
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode!);
    });
    req.on('error', reject);
    req.end();
  });
  t.equal(status, 204);
  const got = up.seen[0]!.headers;
  t.equal(got['x-secret-hop'], undefined, 'a header named in Connection is dropped');
  t.equal(got['x-other-hop'], undefined, 'names are case-insensitive and comma-separated');
  t.equal(got['x-kept'], 'yes', 'other headers pass');
});

t.test('an upstream ErrorModel passes through with its status and body', async (t) => {
  const error = '{"error":{"message":"Table does not exist: db.t","type":"NoSuchTableException","code":404}}';
  const up = await upstream((_req, res) => {
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(error);
  });
  const gw = await gateway(to(up.base));
  t.teardown(async () => {
    await gw.app.close();
    await up.close();
  });
  const res = await fetch(`${gw.base}/v1/front/namespaces/db/tables/t`);
  t.equal(res.status, 404);
  t.equal(await res.text(), error);
});

t.test('a compressed upstream error is read to judge it: an ErrorModel passes as sent, anything else is replaced without its Content-Encoding', async (t) => {
  const model = '{"error":{"message":"Table does not exist: db.events","type":"NoSuchTableException","code":404}}';
  const up = await upstream((req, res) => {
    const body = req.url!.endsWith('/model') ? model : '{"oops":true}';
    res.writeHead(404, { 'content-type': 'application/json', 'content-encoding': 'gzip', vary: 'accept-encoding' });
    res.end(zlib.gzipSync(body));
  });
  const gw = await gateway((url) => targetAt(up.base + url.replace(/^\/v1\/front/, '')));
  t.teardown(async () => {
    await gw.app.close();
    await up.close();
  });
  // a client that asked for gzip (Iceberg Java's HTTP client does): fetch decodes what the headers say
  const passed = await fetch(`${gw.base}/v1/front/views/model`, { headers: { 'accept-encoding': 'gzip' } });
  t.equal(passed.status, 404);
  t.equal(passed.headers.get('content-encoding'), 'gzip', 'the ErrorModel passes compressed, as the upstream sent it');
  t.equal(await passed.text(), model, 'and decodes to the upstream ErrorModel');
  const wrapped = await fetch(`${gw.base}/v1/front/views/oops`, { headers: { 'accept-encoding': 'gzip' } });
  t.equal(wrapped.status, 404);
  t.equal(wrapped.headers.get('content-encoding'), null, "Icefront's own body carries no Content-Encoding");
  t.equal(((await wrapped.json()) as { error: { type: string } }).error.type, 'NotFoundException', 'JSON that is not an ErrorModel is wrapped');
});

/**
 * One fault met by a request without a body, one with a small body and one with a 5 MiB body
 * (streamed to the upstream as it arrives): each gets the same ErrorModel (issue #38: a body the
 * transport could not send used to end the process).
 */
async function faultCase(t: Test, label: string, base: string, status: number, type: string) {
  const gw = await gateway(to(base, { timeoutMs: 500 }));
  t.teardown(() => gw.app.close());
  const requests: Array<[string, RequestInit]> = [
    ['GET', {}],
    ['POST, small body', { method: 'POST', body: '{"requirements":[],"updates":[]}', headers: { 'content-type': 'application/json' } }],
    ['POST, 5 MiB body', { method: 'POST', body: Buffer.alloc(5 * 1024 * 1024, 'x'), headers: { 'content-type': 'application/json' } }],
  ];
  for (const [kind, init] of requests) {
    const started = Date.now();
    const res = await fetch(`${gw.base}/v1/front/namespaces/ns/tables/t`, init);
    t.equal(res.status, status, `${label}, ${kind}: ${status}`);
    const body = (await res.json()) as { error: { type: string; code: number } };
    t.equal(body.error.type, type, `${label}, ${kind}: ${type}`);
    t.equal(body.error.code, status);
    t.comment(`${label}, ${kind}: answered in ${Date.now() - started} ms`);
  }
}

// Bounded by the tap timeout: a hang fails the test; durations are reported, not asserted.
t.test('upstream faults become Iceberg errors, each within the timeout', { timeout: 30000 }, async (t) => {
  // refused: a port nobody listens on
  const probe = net.createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const refusedPort = (probe.address() as AddressInfo).port;
  await new Promise<void>((r) => probe.close(() => r()));
  await faultCase(t, 'refused', `http://127.0.0.1:${refusedPort}`, 503, 'ServiceUnavailableException');

  // hangs: accepts, never answers
  const hang = net.createServer(() => undefined);
  await new Promise<void>((r) => hang.listen(0, '127.0.0.1', r));
  t.teardown(() => hang.close());
  await faultCase(t, 'timeout', `http://127.0.0.1:${(hang.address() as AddressInfo).port}`, 504, 'GatewayTimeoutException');

  // resets the connection
  const reset = net.createServer((s) => s.resetAndDestroy());
  await new Promise<void>((r) => reset.listen(0, '127.0.0.1', r));
  t.teardown(() => reset.close());
  await faultCase(t, 'reset', `http://127.0.0.1:${(reset.address() as AddressInfo).port}`, 502, 'BadGatewayException');

  // answers garbage that is not HTTP
  const garbage = net.createServer((s) => s.end('SSH-2.0-OpenSSH\r\n\r\n'));
  await new Promise<void>((r) => garbage.listen(0, '127.0.0.1', r));
  t.teardown(() => garbage.close());
  await faultCase(t, 'garbage', `http://127.0.0.1:${(garbage.address() as AddressInfo).port}`, 502, 'BadGatewayException');
});

t.test('upstream answers that are not Iceberg errors are wrapped; redirects are 502; Set-Cookie never passes', async (t) => {
  const answers: Record<string, (res: http.ServerResponse) => void> = {
    '/stack': (res) => res.writeHead(500, { 'content-type': 'text/plain' }).end('java.lang.NullPointerException\n\tat org.example.Secret.internal(Secret.java:42)'),
    '/xml': (res) => res.writeHead(403, { 'content-type': 'application/xml' }).end('<Error><Code>AccessDenied</Code><RequestId>XYZ</RequestId></Error>'),
    '/none': (res) => res.writeHead(404).end('nothing here'),
    '/moved': (res) => res.writeHead(301, { location: 'http://evil.example/steal' }).end(),
    '/cookie': (res) => res.writeHead(200, { 'content-type': 'application/json', 'set-cookie': 'session=abc; Path=/' }).end('{"ok":true}'),
    '/oops': (res) => res.writeHead(400, { 'content-type': 'application/json' }).end('{"oops":true}'),
    '/liar': (res) => res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"x","type":"NoSuchTableException","code":200}}'),
    '/model': (res) => res.writeHead(409, { 'content-type': 'application/json', 'set-cookie': 'x=1' }).end('{"error":{"message":"exists","type":"AlreadyExistsException","code":409}}'),
  };
  const up = await upstream((req, res) => answers[`/${req.url!.split('/').pop()}`]!(res));
  const gw = await gateway((url) => targetAt(up.base + url.replace(/^\/v1\/front/, '')));
  t.teardown(async () => {
    await gw.app.close();
    await up.close();
  });
  const get = async (path: string) => {
    const res = await fetch(`${gw.base}/v1/front${path}`, { redirect: 'manual' });
    return { status: res.status, type: res.headers.get('content-type'), cookie: res.headers.get('set-cookie'), location: res.headers.get('location'), body: await res.text() };
  };
  const expectModel = (r: Awaited<ReturnType<typeof get>>, status: number, type: string, what: string) => {
    t.equal(r.status, status, `${what}: status ${status}`);
    t.match(r.type, /^application\/json/, `${what}: JSON`);
    const model = (JSON.parse(r.body) as { error: { type: string; code: number; message: string } }).error;
    t.same([model.type, model.code], [type, status], `${what}: ${type}`);
    return model.message;
  };
  const stack = expectModel(await get('/stack'), 500, 'ServiceFailureException', 'a text/plain stack trace');
  t.notOk(stack.includes('Secret.java'), 'the stack trace is not relayed');
  t.notOk(expectModel(await get('/xml'), 403, 'ForbiddenException', "S3's XML").includes('RequestId'), 'the XML is not relayed');
  expectModel(await get('/none'), 404, 'NotFoundException', 'an untyped 404');
  expectModel(await get('/oops'), 400, 'BadRequestException', 'JSON that is not an ErrorModel');
  expectModel(await get('/liar'), 404, 'NotFoundException', 'an ErrorModel whose code is not its status');
  const moved = await get('/moved');
  expectModel(moved, 502, 'BadGatewayException', 'a redirect');
  t.equal(moved.location, null, 'the redirect target never reaches the caller');
  const cookie = await get('/cookie');
  t.equal(cookie.status, 200);
  t.equal(cookie.body, '{"ok":true}', 'a success passes as sent');
  t.equal(cookie.cookie, null, 'without Set-Cookie');
  const model = await get('/model');
  t.equal(model.body, '{"error":{"message":"exists","type":"AlreadyExistsException","code":409}}', 'an ErrorModel passes byte for byte');
  t.equal(model.cookie, null);
});

// Bounded by the tap timeout: without the fix each of these waits forever.
/**
 * A gateway with a 1 s deadline in front of an upstream answering as `answer` says; `drip` writes
 * a byte to an answer every `everyMs` until it closes (never idle long enough for an idle timeout).
 */
async function gatewayWithDeadline(t: Test, answer: (req: http.IncomingMessage, res: http.ServerResponse, drip: (res: http.ServerResponse, everyMs: number) => void) => void) {
  const timers = new Set<NodeJS.Timeout>();
  const drip = (res: http.ServerResponse, everyMs: number) => {
    const timer = setInterval(() => res.write(' '), everyMs);
    timers.add(timer);
    res.on('close', () => clearInterval(timer));
  };
  const up = await upstream((req, res) => answer(req, res, drip));
  const gw = await gateway(to(up.base, { timeoutMs: 1000 }));
  t.teardown(async () => {
    for (const timer of timers) clearInterval(timer);
    await gw.app.close();
    await up.close();
  });
  return gw;
}

t.test('the request timeout bounds the whole exchange, and an upstream cut short breaks the client response', { timeout: 15000 }, async (t) => {
  const gw = await gatewayWithDeadline(t, (req, res, drip) => {
    if (req.url!.endsWith('/drip')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      drip(res, 300);
      return;
    }
    // promises 1,000 bytes, sends 31, then resets
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
    res.write('{"namespaces":[["a"],["b"],["c"');
    setTimeout(() => res.socket?.resetAndDestroy(), 50);
  });
  for (const path of ['/drip', '/short']) {
    const started = Date.now();
    const res = await fetch(`${gw.base}/v1/front${path}`);
    t.equal(res.status, 200, `${path}: the upstream's head arrived`);
    const outcome = await res.text().then(() => 'complete', () => 'broken');
    t.equal(outcome, 'broken', `${path}: the client sees a broken response, not a hang`);
    t.comment(`${path}: ended after ${Date.now() - started} ms`);
  }
});

/** A gateway in front of an upstream answering as `answer` says, with a 60 s deadline the tests must not wait for. */
async function gatewayWithDeadlineFarOff(t: Test, answer: http.RequestListener) {
  const upstream = http.createServer(answer);
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  const gw = await gateway(to(`http://127.0.0.1:${(upstream.address() as AddressInfo).port}`, { timeoutMs: 60_000 }));
  t.teardown(async () => {
    await gw.app.close();
    upstream.closeAllConnections();
    await new Promise<void>((r) => upstream.close(() => r()));
  });
  return gw;
}

// Bounded by the tap timeout: without the cancel the upstream's request stays open for the whole 60 s deadline.
t.test('a client that goes away ends its upstream exchange, well before the deadline', { timeout: 15000 }, async (t) => {
  let upstreamClosed!: () => void;
  const closed = new Promise<void>((r) => (upstreamClosed = r));
  const gw = await gatewayWithDeadlineFarOff(t, (req) => req.once('close', upstreamClosed)); // never answers
  const client = new AbortController();
  const answered = fetch(`${gw.base}/v1/front/namespaces`, { signal: client.signal }).catch((err: Error) => err.name);
  setTimeout(() => client.abort(), 200);
  t.equal(await answered, 'AbortError', 'the client gave up');
  await closed;
  t.pass("the upstream's request was closed when the client went away");
});

/** A port nobody listens on. */
async function closedPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const port = (probe.address() as AddressInfo).port;
  await new Promise<void>((r) => probe.close(() => r()));
  return port;
}

/** A request on `agent`: its status, its body and the local port of the connection that carried it. */
function requestOn(agent: http.Agent, url: string, method: string, body?: Buffer): Promise<{ status: number; body: string; port: number }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, agent, headers: body ? { 'content-type': 'application/json' } : {} }, (res) => {
      const port = res.socket.localPort!;
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, body: Buffer.concat(chunks).toString(), port }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

t.test("a body the upstream refused is read off the client's connection, which then carries the next request", async (t) => {
  const gw = await gateway(to(`http://127.0.0.1:${await closedPort()}`));
  t.teardown(() => gw.app.close());
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  t.teardown(() => agent.destroy());
  const first = await requestOn(agent, `${gw.base}/v1/front/namespaces`, 'POST', Buffer.alloc(4 * 1024 * 1024, 'x'));
  t.equal(first.status, 503, 'refused: 503');
  t.equal((JSON.parse(first.body) as { error: { code: number } }).error.code, 503, 'an ErrorModel');
  const second = await requestOn(agent, `${gw.base}/v1/front/namespaces`, 'GET');
  t.equal(second.status, 503, 'the next request is answered too');
  t.equal(second.port, first.port, 'on the same connection');
});

t.test('a client that breaks off its body ends its upstream exchange, well before the deadline', { timeout: 15000 }, async (t) => {
  let upstreamClosed!: (complete: boolean) => void;
  const closed = new Promise<boolean>((r) => (upstreamClosed = r));
  // answers a GET; reads a POST's body and never answers, telling whether the body it got was complete
  const gw = await gatewayWithDeadlineFarOff(t, (req, res) => {
    if (req.method === 'GET') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"namespaces":[]}');
    req.resume();
    req.once('close', () => upstreamClosed(req.complete));
  });
  const { port } = new URL(gw.base);
  const socket = net.connect(Number(port), '127.0.0.1');
  await new Promise<void>((r) => socket.once('connect', r));
  socket.write('POST /v1/front/namespaces HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"namespace":');
  setTimeout(() => socket.destroy(), 200);
  t.equal(await closed, false, "the upstream's request was closed, its body incomplete, when the client went away");
  t.equal((await fetch(`${gw.base}/v1/front/namespaces`)).status, 200, 'the gateway still answers');
});

/** One HTTP/1.0 exchange on a socket of its own, as nginx makes by default (`proxy_http_version 1.0`): status, headers, and the body as read until the connection closed. */
function http10(base: string, path: string): Promise<{ status: number; headers: Record<string, string>; body: Buffer }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(`GET ${path} HTTP/1.0\r\nHost: ${hostname}:${port}\r\n\r\n`));
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      const raw = Buffer.concat(chunks);
      const split = raw.indexOf('\r\n\r\n');
      const [statusLine, ...lines] = raw.subarray(0, split).toString('latin1').split('\r\n');
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      resolve({ status: Number(statusLine!.split(' ')[1]), headers, body: raw.subarray(split + 4) });
    });
  });
}

t.test('an HTTP/1.0 client (nginx by default) never takes a cut body for a whole one: a chunked answer is read first and sent with its length', { timeout: 15000 }, async (t) => {
  const whole = JSON.stringify({ namespaces: Array.from({ length: 5000 }, (_, i) => [`namespace_${i}`]) });
  const gw = await gatewayWithDeadline(t, (req, res, drip) => {
    res.writeHead(200, { 'content-type': 'application/json' }); // no length: chunked to Icefront
    if (req.url!.endsWith('/whole')) {
      // in pieces, some time apart
      for (let i = 0; i < 4; i++) setTimeout(() => res.write(whole.slice((i * whole.length) / 4, ((i + 1) * whole.length) / 4)), i * 20);
      setTimeout(() => res.end(), 100);
      return;
    }
    if (req.url!.endsWith('/drip')) {
      res.write('{"namespaces":[["a"]');
      drip(res, 100);
      return;
    }
    // /reset: part of a body, then the connection reset
    res.write('{"namespaces":[["a"],["b"],["c"');
    setTimeout(() => res.socket?.resetAndDestroy(), 50);
  });

  const ok = await http10(gw.base, '/v1/front/whole');
  t.equal(ok.status, 200);
  t.equal(ok.headers['content-length'], String(Buffer.byteLength(whole)), 'the answer carries its length');
  t.equal(ok.headers['transfer-encoding'], undefined);
  t.equal(ok.body.toString(), whole, 'and the whole body, as the upstream sent it');

  for (const [path, status, type] of [['/drip', 504, 'GatewayTimeoutException'], ['/reset', 502, undefined]] as const) {
    const cut = await http10(gw.base, `/v1/front${path}`);
    t.equal(cut.status, status, `${path}: the failure is answered with its status, not a 200 whose body stops short`);
    t.equal(cut.headers['content-length'], String(cut.body.length), `${path}: a whole answer, with its length`);
    const error = (JSON.parse(cut.body.toString()) as { error: { code: number; type: string; message: string } }).error;
    t.equal(error.code, status, `${path}: an ErrorModel (${error.type}: ${error.message})`);
    if (type) t.equal(error.type, type);
  }

  // an answer that says its length is streamed as before: a client sees a cut one fall short of it
  const gw2 = await gatewayWithDeadlineFarOff(t, (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
    res.write('{"namespaces":[["a"],["b"],["c"');
    setTimeout(() => res.socket?.resetAndDestroy(), 50);
  });
  const short = await http10(gw2.base, '/v1/front/short');
  t.equal(short.status, 200);
  t.equal(short.headers['content-length'], '1000');
  t.ok(short.body.length < 1000, `its body falls short of its length (${short.body.length} of 1000 bytes)`);
});
