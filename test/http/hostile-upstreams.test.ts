/**
 * Misbehaving fake upstreams behind a `rest` catalog: hangs, drips, resets mid-body, lies about
 * Content-Length, non-JSON errors, redirects, huge answers and hostile /v1/config values. Every
 * route answers an ErrorModel (or a broken connection once a response has begun) within a bound,
 * and /healthz keeps answering while an upstream hangs.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { request } from 'undici';
import type { Config } from '../../src/config/index.js';
import { buildIcefront } from '../../src/main.js';
import { startUpstreamStub, stubCatalogConfig, stubTableFromDir, type StubAnswer, type StubFault, type LoggedRequest } from '../helpers/upstream-stub.js';
import { DEMO_WAREHOUSE } from '../service/planning/helpers.js';
import { errorModelProblem, Tally } from './hostile/tally.js';

const TIMEOUT_MS = 1000;
/** Scenarios at once: enough to overlap the hangs, few enough for a loaded 2-core machine. */
const PARALLEL = 8;
const BOUND_MS = 5000;

type Respond = (req: LoggedRequest) => StubAnswer | undefined;
const big = (bytes: number) => `{"defaults":{"x":"${'a'.repeat(bytes)}"},"overrides":{}}`;
const model = (code: number) => JSON.stringify({ error: { message: 'upstream says no', type: 'NoSuchTableException', code } });

/** Answers through `respond`, on every route (`all`) or every route but /v1/config. */
const RESPONDERS: readonly { label: string; all?: boolean; respond: Respond }[] = [
  { label: 'text/plain 500 stack trace', respond: () => ({ status: 500, body: 'java.lang.NullPointerException\n\tat org.x.Y', headers: { 'content-type': 'text/plain' } }) },
  { label: 'S3 XML 403', respond: () => ({ status: 403, body: '<?xml version="1.0"?><Error><Code>AccessDenied</Code></Error>', headers: { 'content-type': 'application/xml' } }) },
  { label: 'HTML 502', respond: () => ({ status: 502, body: '<html>bad gateway</html>', headers: { 'content-type': 'text/html' } }) },
  { label: '301 to another host', respond: () => ({ status: 301, body: '', headers: { location: 'http://evil.example/steal' } }) },
  { label: '307 to another host', respond: () => ({ status: 307, body: '', headers: { location: 'http://evil.example/steal' } }) },
  { label: 'Set-Cookie on an ErrorModel', respond: () => ({ status: 404, body: model(404), headers: { 'set-cookie': 'session=stolen' } }) },
  { label: 'an ErrorModel with a lying code', respond: () => ({ status: 404, body: JSON.stringify({ error: { message: 'x', type: 'T', code: 200 } }) }) },
  { label: 'JSON that is not an ErrorModel on 400', respond: () => ({ status: 400, body: '{"oops":true}' }) },
  { label: 'a 200 with an empty body', respond: () => ({ status: 200, body: '' }) },
  { label: 'a 200 that is JSON null', respond: () => ({ status: 200, body: 'null' }) },
  { label: 'a 200 that is a JSON array', respond: () => ({ status: 200, body: '[1,2]' }) },
  { label: 'a 418', respond: () => ({ status: 418, body: 'teapot', headers: { 'content-type': 'text/plain' } }) },
  { label: 'a 20 MB answer', respond: () => ({ status: 200, body: big(20 << 20) }) },
  { label: 'a 20 MB config', all: true, respond: (r) => (r.url.includes('/v1/config') ? { status: 200, body: big(20 << 20) } : undefined) },
  { label: 'config prefix ../../admin%2F..', all: true, respond: (r) => (r.url.includes('/v1/config') ? { status: 200, body: JSON.stringify({ defaults: {}, overrides: { prefix: '../../admin%2F..' } }) } : undefined) },
  { label: 'config with CR/LF header values and secrets', all: true, respond: (r) => (r.url.includes('/v1/config') ? { status: 200, body: JSON.stringify({ defaults: { 'header.X': 'a\r\nSet-Cookie: x=1', token: 'secret-token', 's3.secret-access-key': 'sk' }, overrides: { 'refresh-credentials-endpoint': '../../../v1/oauth', uri: 'http://evil.example' }, endpoints: ['GET /v1/{prefix}/namespaces', 'rm -rf /', 42] }) } : undefined) },
  { label: 'config that is not JSON', all: true, respond: (r) => (r.url.includes('/v1/config') ? { status: 200, body: '<html>' } : undefined) },
  { label: 'config whose prefix is 10 KB', all: true, respond: (r) => (r.url.includes('/v1/config') ? { status: 200, body: JSON.stringify({ defaults: {}, overrides: { prefix: 'p'.repeat(10000) } }) } : undefined) },
  { label: 'config with a wrong-typed overrides', all: true, respond: (r) => (r.url.includes('/v1/config') ? { status: 200, body: JSON.stringify({ defaults: [], overrides: 'x', endpoints: {} }) } : undefined) },
];

const FAULTS: readonly StubFault[] = ['hang', 'stall-body', 'drip', 'reset', 'close-mid-body', 'garbage'];

/** The client's requests, each tried against every misbehaving upstream. */
const ROUTES: readonly { method: string; path: string; body?: string; type?: string }[] = [
  { method: 'GET', path: '/v1/config?warehouse=up' },
  { method: 'GET', path: '/v1/up/namespaces' },
  { method: 'GET', path: '/v1/up/namespaces/sales' },
  { method: 'GET', path: '/v1/up/namespaces/sales/tables/orders' },
  { method: 'POST', path: '/v1/up/namespaces/sales/tables/orders/plan', body: '{}', type: 'application/json' },
  { method: 'POST', path: '/v1/up/namespaces/sales/tables/orders/tasks', body: 'plan-task=x', type: 'application/x-www-form-urlencoded' },
  { method: 'DELETE', path: '/v1/up/namespaces/sales/tables/%2e%2e' },
  { method: 'POST', path: '/v1/up/namespaces/sales/tables/orders', body: '{"updates":[]}', type: 'application/json' },
];

function configOf(uri: ReturnType<typeof stubCatalogConfig>): Config {
  return {
    source: '',
    server: { host: '127.0.0.1', port: 0, bodyLimit: 1 << 20 },
    planning: { batchSize: 2, maxResponseBytes: 1 << 20, cacheBytes: 16 << 20 },
    catalogs: new Map([[uri.name, uri]]),
    logLevel: 'silent',
  };
}

/** One exchange over real HTTP: status (or `aborted` when the response broke), time, body. */
async function exchange(base: string, route: (typeof ROUTES)[number]): Promise<{ outcome: string; status?: number; body?: string; ms: number }> {
  const started = performance.now();
  try {
    const res = await request(`${base}${route.path}`, {
      method: route.method as 'GET',
      ...(route.body !== undefined && { body: route.body, headers: { 'content-type': route.type! } }),
      headersTimeout: BOUND_MS,
      bodyTimeout: BOUND_MS,
    });
    const body = await res.body.text();
    return { outcome: String(res.statusCode), status: res.statusCode, body, ms: performance.now() - started };
  } catch (err) {
    const code = (err as { code?: string }).code ?? 'error';
    return { outcome: /TIMEOUT/.test(code) ? `timeout (${code})` : 'aborted', ms: performance.now() - started };
  }
}

t.test('misbehaving upstreams: every answer is bounded, an ErrorModel or a broken response, and /healthz stays up', async (t) => {
  const tally = new Tally();
  const orders = stubTableFromDir(`${DEMO_WAREHOUSE}/sales/orders/metadata`, ['sales'], 'orders');
  const scenarios: { label: string; setup: (s: Awaited<ReturnType<typeof startUpstreamStub>>) => void }[] = [
    ...FAULTS.flatMap((mode) => [
      { label: `${mode} on catalog routes`, setup: (s: Awaited<ReturnType<typeof startUpstreamStub>>) => (s.fault = { mode, match: /\/namespaces/ }) },
      { label: `${mode} on /v1/config`, setup: (s: Awaited<ReturnType<typeof startUpstreamStub>>) => (s.fault = { mode, match: /\/v1\/config/ }) },
    ]),
    ...RESPONDERS.map((r) => ({
      label: r.label,
      setup: (s: Awaited<ReturnType<typeof startUpstreamStub>>) => (s.respond = r.all ? r.respond : (req) => (req.url.includes('/v1/config') ? undefined : r.respond(req))),
    })),
    { label: 'a Content-Length lie then a reset', setup: () => undefined },
  ];

  // A raw upstream that promises 1000 bytes, sends 31, then resets (not expressible through the stub).
  const liar = http.createServer((req, res) => {
    if (req.url?.includes('/v1/config')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end('{"defaults":{},"overrides":{}}');
    }
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
    res.write('{"namespaces":[["a"],["b"]],"x"');
    setTimeout(() => res.socket?.resetAndDestroy(), 20);
  });
  await new Promise<void>((resolve) => liar.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => liar.close(() => resolve())));

  // Scenarios run side by side (each its own upstream and Icefront): the hangs overlap, so the
  // file stays fast, and one hanging upstream must not slow the others.
  const queue = [...scenarios];
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) await runScenario(next);
  };
  const runScenario = async ({ label, setup }: (typeof scenarios)[number]) => {
      const stub = await startUpstreamStub({ tables: [orders] });
      setup(stub);
      const uri = label.startsWith('a Content-Length lie') ? `http://127.0.0.1:${(liar.address() as AddressInfo).port}` : stub.uri;
      const catalog = { ...stubCatalogConfig(stub, { connectTimeoutMs: TIMEOUT_MS, requestTimeoutMs: TIMEOUT_MS }), uri };
      const front = buildIcefront(configOf(catalog)).app;
      await front.listen({ port: 0, host: '127.0.0.1' });
      const base = `http://127.0.0.1:${(front.server.address() as AddressInfo).port}`;
      try {
        for (const route of ROUTES) {
          const name = `${label}: ${route.method} ${route.path}`;
          const pending = exchange(base, route);
          // while this upstream misbehaves, Icefront's own routes answer at once
          const health = await exchange(base, { method: 'GET', path: '/healthz' });
          if (health.status !== 200 || health.ms > 1000) t.fail(`${name}: /healthz ${health.outcome} in ${health.ms.toFixed(0)} ms`);
          const r = await pending;
          tally.add({ label: name, outcome: r.outcome, ms: r.ms });
          if (r.ms > BOUND_MS) t.fail(`${name}: ${r.ms.toFixed(0)} ms`);
          if (r.outcome.startsWith('timeout')) t.fail(`${name}: no answer (${r.outcome})`);
          if (r.status !== undefined && r.status >= 400) {
            const problem = errorModelProblem(r.status, r.body ?? '');
            if (problem) t.fail(`${name}: ${problem}`);
          }
          if (r.status !== undefined && r.status >= 300 && r.status < 400 && r.status !== 304) t.fail(`${name}: a redirect reached the client`);
          if (r.body !== undefined && /secret-token|"sk"|evil\.example/.test(r.body)) t.fail(`${name}: a hostile config value reached the client: ${r.body.slice(0, 200)}`);
          if (r.status === 200 && !route.path.startsWith('/v1/config') && /namespaces$|\/sales$/.test(route.path) && label.includes('lie')) t.fail(`${name}: a truncated answer was a 200`);
        }
        t.equal((await exchange(base, { method: 'GET', path: '/healthz' })).status, 200, `${label}: healthy afterwards`);
      } finally {
        await front.close();
        await stub.close();
      }
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));
  t.comment(tally.summary('hostile upstreams'));
});
