import t, { type Test } from 'tap';
import { createRestUpstream, isUpstreamResponseError, type RestUpstream } from '../../../src/catalogs/index.js';
import { isIcefrontError, type ErrorCode } from '../../../src/errors/index.js';
import { startUpstreamStub, stubCatalogConfig, type StubFault, type UpstreamStub } from '../../helpers/upstream-stub.js';

const REQUEST_TIMEOUT_MS = 400;

/** The error code a promise rejects with, and how long it took. */
async function outcome(p: Promise<unknown>): Promise<{ code: ErrorCode | string; ms: number; err: unknown }> {
  const started = Date.now();
  try {
    await p;
    return { code: 'no error', ms: Date.now() - started, err: undefined };
  } catch (err) {
    return { code: isIcefrontError(err) ? err.code : `non-Icefront error: ${String(err)}`, ms: Date.now() - started, err };
  }
}

async function setup(t: Test): Promise<{ stub: UpstreamStub; upstream: RestUpstream }> {
  const stub = await startUpstreamStub({ prefix: 'wh' });
  const upstream = createRestUpstream(stubCatalogConfig(stub, { requestTimeoutMs: REQUEST_TIMEOUT_MS, connectTimeoutMs: 300 }));
  t.teardown(async () => {
    await upstream.close();
    await stub.close();
  });
  return { stub, upstream };
}

t.test('a refused connection is UPSTREAM_UNAVAILABLE', { timeout: 5000 }, async (t) => {
  const { stub, upstream } = await setup(t);
  await stub.refuse();
  const { code } = await outcome(upstream.fetchConfig());
  t.equal(code, 'UPSTREAM_UNAVAILABLE');
});

const timeouts: Array<[StubFault, string]> = [
  ['hang', 'a server that accepts and never answers'],
  ['stall-body', 'a server that sends headers then stalls the body'],
  ['drip', 'a server that drips one byte at a time, never idle'],
];
for (const [mode, label] of timeouts) {
  t.test(`${label} is UPSTREAM_TIMEOUT within the request timeout`, { timeout: 5000 }, async (t) => {
    const { stub, upstream } = await setup(t);
    stub.fault = { mode };
    const { code, ms } = await outcome(upstream.fetchConfig());
    t.equal(code, 'UPSTREAM_TIMEOUT');
    // Bounded, not timed: a hang would run into the tap timeout; the deadline itself is only reported.
    t.comment(`gave up after ${ms} ms (limit ${REQUEST_TIMEOUT_MS} ms)`);
  });
}

const broken: Array<[StubFault, string]> = [
  ['reset', 'a connection reset before the answer'],
  ['close-mid-body', 'a connection closed mid-response'],
  ['garbage', 'a 200 whose body is not JSON'],
];
for (const [mode, label] of broken) {
  t.test(`${label} is UPSTREAM_BAD_GATEWAY`, { timeout: 5000 }, async (t) => {
    const { stub, upstream } = await setup(t);
    stub.fault = { mode };
    const { code, ms } = await outcome(upstream.fetchConfig());
    t.equal(code, 'UPSTREAM_BAD_GATEWAY');
    t.comment(`answered in ${ms} ms`);
  });
}

t.test('an upstream ErrorModel passes through with its status, type and exact bytes', { timeout: 5000 }, async (t) => {
  const { stub, upstream } = await setup(t);
  const body = '{"error":{"message":"Table does not exist: db.x","type":"NoSuchTableException","code":404,"stack":["a"]}}\n';
  stub.respond = () => ({ status: 404, body, headers: { 'x-upstream': 'yes' } });
  const { code, err } = await outcome(upstream.request('GET', '/v1/wh/namespaces/db/tables/x', { headers: {} }));
  t.equal(code, 'UPSTREAM_ERROR');
  if (!isUpstreamResponseError(err)) throw new Error('expected an UpstreamResponseError');
  t.equal(err.status, 404);
  t.equal(err.type, 'NoSuchTableException');
  t.same(err.errorModel, { message: 'Table does not exist: db.x', type: 'NoSuchTableException', code: 404 });
  t.equal(err.upstream.body.toString('utf8'), body, 'body bytes unchanged');
  t.equal(err.upstream.headers['x-upstream'], 'yes');
});

t.test('an upstream error without an ErrorModel still carries the upstream status and body', { timeout: 5000 }, async (t) => {
  const { stub, upstream } = await setup(t);
  stub.respond = () => ({ status: 503, body: '<html>maintenance</html>' });
  const { code, err } = await outcome(upstream.request('GET', '/v1/wh/namespaces', { headers: {} }));
  t.equal(code, 'UPSTREAM_ERROR');
  if (!isUpstreamResponseError(err)) throw new Error('expected an UpstreamResponseError');
  t.equal(err.status, 503);
  t.equal(err.errorModel, undefined);
  t.equal(err.type, 'ServiceUnavailableException', 'the type Iceberg Java gives a 503 whose body names none');
  t.equal(err.upstream.body.toString('utf8'), '<html>maintenance</html>');
});

t.test('request() sends method, headers and body verbatim and returns the answer', { timeout: 5000 }, async (t) => {
  const { stub, upstream } = await setup(t);
  stub.respond = (req) => (req.method === 'POST' ? { status: 200, body: `{"echo":${JSON.stringify(req.body)}}` } : undefined);
  const res = await upstream.request('POST', '/v1/wh/namespaces/a%1Fb/tables/t/metrics?x=1', {
    headers: { 'content-type': 'application/json', 'x-trace': 'abc' },
    body: '{"n":12345678901234567890}',
  });
  t.equal(res.status, 200);
  t.equal(res.body.toString('utf8'), '{"echo":"{\\"n\\":12345678901234567890}"}');
  const seen = stub.requests.at(-1)!;
  t.equal(seen.url, '/v1/wh/namespaces/a%1Fb/tables/t/metrics?x=1', 'the path is not decoded or re-encoded');
  t.equal(seen.headers['x-trace'], 'abc');
});

t.test('a caller that gives up gets its own abort reason, not an upstream fault', { timeout: 5000 }, async (t) => {
  const { stub, upstream } = await setup(t);
  stub.fault = { mode: 'hang' };
  const controller = new AbortController();
  const reason = new Error('client went away');
  setTimeout(() => controller.abort(reason), 50);
  const { err, ms } = await outcome(upstream.request('GET', '/v1/config', { headers: {}, signal: controller.signal }));
  t.equal(err, reason, 'the caller’s own reason, not the upstream timeout');
  t.comment(`stopped after ${ms} ms`);
});

t.test('what an upstream answer may hold in memory is capped per answer and across answers; over it is a 502', { timeout: 20000 }, async (t) => {
  const http = await import('node:http');
  const { createByteBudget } = await import('../../../src/cache/index.js');
  const MiB = 1024 * 1024;
  let configPad = 10;
  // /hold… answers its first half, then waits for `release`; anything else answers at once
  let release: () => void = () => undefined;
  const held = new Promise<void>((r) => (release = r));
  const server = http.createServer((req, res) => {
    const size = Number(new URL(req.url!, 'http://x').searchParams.get('size') ?? 0);
    res.writeHead(200, { 'content-type': 'application/json' });
    if (req.url!.startsWith('/v1/config')) return res.end(`{"defaults":{"pad":"${'x'.repeat(configPad)}"},"overrides":{}}`);
    if (!req.url!.startsWith('/hold')) return res.end(Buffer.alloc(size, 0x20));
    res.write(Buffer.alloc(size / 2, 0x20));
    void held.then(() => res.end(Buffer.alloc(size / 2, 0x20)));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const uri = `http://127.0.0.1:${(server.address() as import('node:net').AddressInfo).port}`;
  const budget = createByteBudget(3 * MiB);
  const config = { type: 'rest' as const, name: 'big', uri, planning: 'auto' as const, auth: { mode: 'forward' as const }, connectTimeoutMs: 1000, requestTimeoutMs: 10000 };
  const upstream = createRestUpstream({ ...config, limits: { configBytes: 64 * 1024, loadTableBytes: 2 * MiB } }, { bufferBudget: budget });
  t.teardown(async () => {
    release();
    await upstream.close();
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  });

  t.equal((await outcome(upstream.fetchConfig())).code, 'no error', 'a small /v1/config is read');
  configPad = 100 * 1024;
  const upstream2 = createRestUpstream({ ...config, limits: { configBytes: 64 * 1024 } });
  t.teardown(() => upstream2.close());
  const bigConfig = await outcome(upstream2.fetchConfig());
  t.equal(bigConfig.code, 'UPSTREAM_BAD_GATEWAY', 'a /v1/config past limits.config-bytes is a 502');

  const over = await outcome(upstream.request('GET', '/one?size=3145728', { headers: {} }));
  t.equal(over.code, 'UPSTREAM_BAD_GATEWAY', 'an answer past limits.load-table-bytes is a 502');
  t.match(String((over.err as Error).message), /more than 2097152 bytes/);
  t.equal(budget.used, 0, 'a refused answer gives its bytes back');

  // the shared budget: three answers of 1.8 MiB each hold 0.9 MiB at once, then need the rest;
  // together they would pass 3 MiB, so one of them is refused
  const size = Math.round(1.8 * MiB);
  const pending = [0, 1, 2].map((i) => outcome(upstream.request('GET', `/hold${i}?size=${size}`, { headers: {} })));
  await new Promise((r) => setTimeout(r, 500));
  t.ok(budget.used <= budget.max, `never more than the budget held (${budget.used} of ${budget.max})`);
  release();
  const codes = (await Promise.all(pending)).map((o) => o.code);
  t.ok(codes.includes('no error'), `answers within the budget are read (${codes.join(', ')})`);
  t.ok(codes.includes('UPSTREAM_BAD_GATEWAY'), 'the answer that would pass the shared budget is a 502');
  t.equal(budget.used, 0, 'every byte is given back');
});

t.test('an upstream ErrorModel whose code differs from the HTTP status is not relayed as an ErrorModel', { timeout: 5000 }, async (t) => {
  const { stub, upstream } = await setup(t);
  stub.respond = () => ({ status: 404, body: '{"error":{"message":"x","type":"NoSuchTableException","code":200}}' });
  const { err } = await outcome(upstream.request('GET', '/v1/wh/namespaces/db/tables/x', { headers: {} }));
  if (!isUpstreamResponseError(err)) throw new Error('expected an UpstreamResponseError');
  t.equal(err.status, 404);
  t.equal(err.errorModel, undefined, 'a client would read code 200 from a 404');
  t.equal(err.type, 'NotFoundException');
});
