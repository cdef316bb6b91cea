/**
 * Writes under a `rest` catalog (commit, create, register, rename, drop, multi-table commit) go
 * to the addressed upstream once, as sent, and are never retried: whatever the upstream answers
 * or fails with, its request log holds exactly one request. A commit whose outcome Icefront cannot
 * know (timeout, reset, closed before answering) is a 504 or 502 ErrorModel, which clients treat
 * as CommitStateUnknown (REST spec: 5XX on a commit).
 */
import t, { type Test } from 'tap';
import type { FastifyInstance } from 'fastify';
import { buildIcefront } from '../../src/main.js';
import { authConfig, bearer, configWith } from '../helpers/auth-config.js';
import { testConfig } from '../helpers/config.js';
import { startUpstreamStub, stubCatalogConfig, type UpstreamStub } from '../helpers/upstream-stub.js';

const IDEMPOTENCY_KEY = '0190b3b4-1c2d-7e3f-8a4b-5c6d7e8f9a0b';
// 64-bit ids, non-ASCII text and odd spacing: anything re-serialised would show.
const COMMIT = '{"requirements":[{"type":"assert-ref-snapshot-id","ref":"main","snapshot-id":9158179788527662767}],\n "updates":[{"action":"set-properties","updates":{"k":"vé ✓"}}]}';
const CREATE = '{"name":"t2","schema":{"type":"struct","schema-id":0,"fields":[{"id":1,"name":"x","required":false,"type":"long"}]},"stage-create":false}';
const REGISTER = '{"name":"t3","metadata-location":"s3://b/t3/metadata/v1.metadata.json"}';
const RENAME = '{"source":{"namespace":["sales"],"name":"orders"},"destination":{"namespace":["sales"],"name":"orders2"}}';
const TRANSACTION = '{"table-changes":[{"identifier":{"namespace":["sales"],"name":"orders"},"requirements":[],"updates":[{"action":"set-properties","updates":{"n":"9158179788527662767"}}]}]}';

/** Every write route: Icefront's path, the upstream's (prefix `wh`), and the body sent. */
const WRITES = [
  { name: 'commit to a table (updateTable)', method: 'POST', path: '/namespaces/sales/tables/orders', body: COMMIT },
  { name: 'create a table', method: 'POST', path: '/namespaces/sales/tables', body: CREATE },
  { name: 'register a table', method: 'POST', path: '/namespaces/sales/register', body: REGISTER },
  { name: 'rename a table', method: 'POST', path: '/tables/rename', body: RENAME },
  { name: 'drop a table', method: 'DELETE', path: '/namespaces/sales/tables/orders?purgeRequested=true', body: undefined },
  { name: 'commit a transaction', method: 'POST', path: '/transactions/commit', body: TRANSACTION },
] as const;

/** Requests that reached the upstream's catalog routes (its /v1/config fetches left out). */
const writesSeen = (stub: UpstreamStub) => stub.requests.filter((r) => r.url.startsWith('/v1/wh/'));

async function front(t: Test, requestTimeoutMs = 2000): Promise<{ app: FastifyInstance; stub: UpstreamStub }> {
  const stub = await startUpstreamStub({ prefix: 'wh' });
  const app = buildIcefront(testConfig([stubCatalogConfig(stub, { name: 'up', requestTimeoutMs })])).app;
  t.teardown(async () => {
    await app.close();
    await stub.close();
  });
  return { app, stub };
}

const send = (app: FastifyInstance, write: (typeof WRITES)[number]) =>
  app.inject({
    method: write.method,
    url: `/v1/up${write.path}`,
    headers: { 'idempotency-key': IDEMPOTENCY_KEY, authorization: 'Bearer caller', ...(write.body !== undefined && { 'content-type': 'application/json' }) },
    ...(write.body !== undefined && { payload: write.body }),
  });

t.test('every write reaches the upstream once, body byte for byte with its Idempotency-Key; its answer comes back as sent', async (t) => {
  const { app, stub } = await front(t);
  for (const write of WRITES) {
    const answer = write.method === 'DELETE' ? '' : `{"answered":"${write.name}","id":9158179788527662767}`;
    stub.respond = (req) => (req.url.startsWith('/v1/wh/') ? { status: write.method === 'DELETE' ? 204 : 200, body: answer, headers: { etag: '"v2"' } } : undefined);
    const before = writesSeen(stub).length;
    const res = await send(app, write);
    t.equal(res.statusCode, write.method === 'DELETE' ? 204 : 200, `${write.name}: the upstream's status`);
    t.equal(res.body, answer, `${write.name}: the upstream's body`);
    t.equal(res.headers.etag, '"v2"', `${write.name}: the upstream's ETag`);
    const seen = writesSeen(stub).slice(before);
    t.equal(seen.length, 1, `${write.name}: one upstream request`);
    t.equal(seen[0]?.method, write.method);
    t.equal(seen[0]?.url, `/v1/wh${write.path}`, `${write.name}: the upstream's path, query kept`);
    t.equal(seen[0]?.body, write.body ?? '', `${write.name}: the body as sent`);
    t.equal(seen[0]?.headers['idempotency-key'], IDEMPOTENCY_KEY, `${write.name}: Idempotency-Key passed on`);
  }
});

t.test('an upstream error on a write passes once, with its status and body; nothing is retried', async (t) => {
  const { app, stub } = await front(t);
  const answers = [
    { status: 500, body: '{"error":{"message":"commit state unknown","type":"CommitStateUnknownException","code":500}}', type: 'CommitStateUnknownException' },
    { status: 503, body: '{"error":{"message":"try later","type":"ServiceUnavailableException","code":503}}', type: 'ServiceUnavailableException' },
    { status: 409, body: '{"error":{"message":"requirement failed","type":"CommitFailedException","code":409}}', type: 'CommitFailedException' },
    { status: 502, body: '<html>bad gateway</html>', type: 'ServiceFailureException' },
  ];
  for (const answer of answers) {
    stub.respond = (req) => (req.url.startsWith('/v1/wh/') ? { status: answer.status, body: answer.body, headers: { 'content-type': answer.body.startsWith('{') ? 'application/json' : 'text/html' } } : undefined);
    for (const write of WRITES) {
      const before = writesSeen(stub).length;
      const res = await send(app, write);
      t.equal(res.statusCode, answer.status, `${write.name}, upstream ${answer.status}: the same status`);
      const body = JSON.parse(res.body) as { error: { type: string; code: number } };
      t.equal(body.error.type, answer.type, `${write.name}, upstream ${answer.status}: ${answer.type}`);
      t.equal(body.error.code, answer.status);
      if (answer.body.startsWith('{')) t.equal(res.body, answer.body, 'an ErrorModel byte for byte');
      t.equal(writesSeen(stub).length - before, 1, `${write.name}, upstream ${answer.status}: exactly one upstream request`);
    }
  }
});

t.test('a write whose outcome is unknown: timeout → 504, reset or closed before answering → 502, each an ErrorModel, sent once', { timeout: 60000 }, async (t) => {
  const { app, stub } = await front(t, 400);
  const faults = [
    { mode: 'hang', status: 504, type: 'GatewayTimeoutException' },
    { mode: 'reset', status: 502, type: 'BadGatewayException' },
    { mode: 'close', status: 502, type: 'BadGatewayException' },
  ] as const;
  // the upstream's config is fetched (and cached) before any fault is on
  stub.respond = (req) => (req.url.startsWith('/v1/wh/') ? { status: 200, body: '{}' } : undefined);
  t.equal((await send(app, WRITES[0])).statusCode, 200, 'healthy first');
  for (const fault of faults) {
    stub.fault = { mode: fault.mode, match: /^\/v1\/wh\// };
    for (const write of WRITES) {
      const before = writesSeen(stub).length;
      const res = await send(app, write);
      t.equal(res.statusCode, fault.status, `${write.name}, ${fault.mode}: ${fault.status}`);
      t.equal(res.headers['content-type'], 'application/json');
      const body = JSON.parse(res.body) as { error: { type: string; code: number; message: string } };
      t.same({ type: body.error.type, code: body.error.code }, { type: fault.type, code: fault.status }, `${write.name}, ${fault.mode}: an ErrorModel`);
      t.type(body.error.message, 'string');
      t.equal(writesSeen(stub).length - before, 1, `${write.name}, ${fault.mode}: exactly one upstream request, no retry`);
    }
  }
  // and the upstream is used again as soon as it answers: nothing was left half-open
  stub.fault = undefined;
  t.equal((await send(app, WRITES[0])).statusCode, 200, 'healthy again');
});

t.test('a transaction commit must name every table it changes: otherwise a 400 from Icefront, never forwarded', async (t) => {
  const { app, stub } = await front(t);
  const change = (identifier: unknown) => ({ ...(identifier !== undefined && { identifier }), requirements: [], updates: [] });
  const refused: [string, string][] = [
    ['no table-changes', '{}'],
    ['table-changes not an array', '{"table-changes":{"identifier":{"namespace":["sales"],"name":"orders"}}}'],
    ['an empty table-changes', '{"table-changes":[]}'],
    ['a change without an identifier', JSON.stringify({ 'table-changes': [change({ namespace: ['sales'], name: 'orders' }), change(undefined)] })],
    ['an identifier without a name', JSON.stringify({ 'table-changes': [change({ namespace: ['sales'] })] })],
    ['a namespace that is a string', JSON.stringify({ 'table-changes': [change({ namespace: 'sales', name: 'orders' })] })],
    ['a namespace level that is not a string', JSON.stringify({ 'table-changes': [change({ namespace: ['sales', 1], name: 'orders' })] })],
    ['a change that is not an object', '{"table-changes":[null]}'],
    ['a body that is an array', '[]'],
  ];
  for (const [what, payload] of refused) {
    const res = await app.inject({ method: 'POST', url: '/v1/up/transactions/commit', headers: { 'content-type': 'application/json' }, payload });
    t.equal(res.statusCode, 400, `${what}: 400`);
    t.equal((JSON.parse(res.body) as { error: { type: string } }).error.type, 'BadRequestException', `${what}: BadRequestException`);
  }
  for (const [type, payload] of [['text/plain', TRANSACTION.replace('"identifier"', '"ident"')], ['text/plain', 'not json']] as const) {
    const res = await app.inject({ method: 'POST', url: '/v1/up/transactions/commit', headers: { 'content-type': type }, payload });
    t.equal(res.statusCode, 400, `a ${type} body that does not name its tables: 400`);
  }
  t.equal(writesSeen(stub).length, 0, 'none reached the upstream');
  stub.respond = (req) => (req.url.startsWith('/v1/wh/') ? { status: 204, body: '' } : undefined);
  const ok = await app.inject({ method: 'POST', url: '/v1/up/transactions/commit', headers: { 'content-type': 'application/json' }, payload: TRANSACTION });
  t.equal(ok.statusCode, 204, 'a transaction that names its tables is forwarded');
  t.equal(writesSeen(stub)[0]?.body, TRANSACTION, 'as sent');
});

t.test('with auth on, the transaction rule reads the same check: a change naming no table is a 400, every named namespace needs write', async (t) => {
  const stub = await startUpstreamStub({ prefix: 'wh' });
  const app = buildIcefront(configWith([stubCatalogConfig(stub, { name: 'up', auth: { mode: 'bearer', token: 'icefront-own' } })], authConfig())).app;
  t.teardown(async () => {
    await app.close();
    await stub.close();
  });
  stub.respond = (req) => (req.url.startsWith('/v1/wh/') ? { status: 204, body: '' } : undefined);
  const commit = (payload: string) => app.inject({ method: 'POST', url: '/v1/up/transactions/commit', headers: { 'content-type': 'application/json', ...bearer('writer') }, payload });
  const of = (...ids: unknown[]) => JSON.stringify({ 'table-changes': ids.map((identifier) => ({ identifier, requirements: [], updates: [] })) });
  t.equal((await commit('{"table-changes":[]}')).statusCode, 400, 'an empty table-changes: 400, not an authorized no-op');
  t.equal((await commit('{"table-changes":[{"requirements":[],"updates":[]}]}')).statusCode, 400, 'a change without an identifier: 400');
  t.equal((await commit(of({ namespace: ['sales', 'eu'], name: 't' }, { namespace: ['events'], name: 'c' }))).statusCode, 403, 'one namespace the writer may not write: 403');
  t.equal(writesSeen(stub).length, 0, 'none reached the upstream');
  const ok = await commit(of({ namespace: ['sales', 'eu'], name: 't' }));
  t.equal(ok.statusCode, 204, 'all namespaces writable: forwarded');
  t.equal(writesSeen(stub).length, 1);
});
