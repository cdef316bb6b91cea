/**
 * The audit stream: one line per load-table, plan, plan result, tasks redemption and commit,
 * under its own logger name, naming request id, principal, table, snapshot, status, files and
 * bytes, and never a credential, a plan id or a plan-task string.
 */
import t from 'tap';
import { buildIcefront } from '../../src/main.js';
import { createLogger } from '../../src/observability/index.js';
import { AUDIT_LOGGER_NAME } from '../../src/http/audit-line.js';
import { authConfig, bearer, configWith, nestedWarehouse, TOKENS } from '../helpers/auth-config.js';
import { testConfig } from '../helpers/config.js';
import { logLines } from '../helpers/log-lines.js';
import { startUpstreamStub, stubCatalogConfig } from '../helpers/upstream-stub.js';
import { demoCatalog, DEMO_WAREHOUSE } from '../service/planning/helpers.js';

const ORDERS = '/v1/demo/namespaces/sales%1Feu/tables/orders';
const json = { 'content-type': 'application/json' };

t.test('local catalog: load-table, plan, plan result and tasks each write one audit line', async (t) => {
  const wh = nestedWarehouse(DEMO_WAREHOUSE);
  const { lines, destination } = logLines();
  const { app } = buildIcefront(configWith([demoCatalog('demo', wh.dir)], authConfig(), 1), { logger: createLogger({ level: 'info', destination }) });
  t.teardown(async () => {
    await app.close();
    wh.remove();
  });
  const as = (id: string) => ({ ...bearer('alice'), ...json, 'x-request-id': id });

  const loaded = await app.inject({ url: ORDERS, headers: as('req-load') });
  t.equal(loaded.statusCode, 200);
  // snapshot ids exceed 2^53: read as text
  const snapshot = /"current-snapshot-id":(\d+)/.exec(loaded.body)![1];
  const planned = await app.inject({ method: 'POST', url: `${ORDERS}/plan`, headers: as('req-plan'), payload: '{}' });
  t.equal(planned.statusCode, 200);
  const plan = JSON.parse(planned.body) as { 'plan-id': string; 'plan-tasks': string[]; 'file-scan-tasks': unknown[] };
  const task = plan['plan-tasks'][0]!;
  t.equal((await app.inject({ url: `${ORDERS}/plan/${encodeURIComponent(plan['plan-id'])}`, headers: as('req-result') })).statusCode, 200);
  const redeemed = await app.inject({ method: 'POST', url: `${ORDERS}/tasks`, headers: as('req-tasks'), payload: JSON.stringify({ 'plan-task': task }) });
  t.equal(redeemed.statusCode, 200);
  t.equal((await app.inject({ url: '/v1/demo/namespaces/sales%1Feu/tables/nope', headers: as('req-missing') })).statusCode, 404);
  t.equal((await app.inject({ url: '/v1/demo/namespaces', headers: as('req-list') })).statusCode, 200);

  const audit = lines.filter((l) => l.name === AUDIT_LOGGER_NAME);
  const of = (id: string) => audit.filter((l) => l.reqId === id);
  for (const id of ['req-load', 'req-plan', 'req-result', 'req-tasks', 'req-missing']) t.equal(of(id).length, 1, `${id}: one audit line`);
  t.equal(of('req-list').length, 0, 'a listing is not audited');
  const base = { principal: 'alice', catalog: 'demo', namespace: ['sales', 'eu'], table: 'orders', msg: 'audit' };
  t.match(of('req-load')[0], { ...base, operation: 'load-table', status: 200, snapshot, bytes: loaded.rawPayload.length });
  t.match(of('req-plan')[0], { ...base, operation: 'plan', status: 200, snapshot, files: plan['file-scan-tasks'].length, planTasks: plan['plan-tasks'].length, bytes: planned.rawPayload.length });
  t.match(of('req-result')[0], { ...base, operation: 'plan-result', status: 200, snapshot });
  const tasks = JSON.parse(redeemed.body) as { 'file-scan-tasks': unknown[] };
  t.match(of('req-tasks')[0], { ...base, operation: 'tasks', status: 200, snapshot, files: tasks['file-scan-tasks'].length, bytes: redeemed.rawPayload.length });
  t.match(of('req-missing')[0], { operation: 'load-table', status: 404, table: 'nope' });
  t.notOk('snapshot' in of('req-missing')[0]!, 'no snapshot for a table that was not loaded');
  t.ok(audit.every((l) => typeof l.time === 'number' || typeof l.time === 'string'), 'every line is timed');

  const text = JSON.stringify(audit);
  t.notOk(text.includes(TOKENS.alice), 'no credential');
  t.notOk(text.includes(plan['plan-id'].slice(3, 43)), 'no plan id');
  t.notOk(text.includes(task.slice(3, 43)), 'no plan-task string');
});

t.test('upstream catalog: a commit passed through, and a load through it, are audited with the upstream’s status', async (t) => {
  const stub = await startUpstreamStub({ prefix: 'wh' });
  const { lines, destination } = logLines();
  const { app } = buildIcefront(testConfig([stubCatalogConfig(stub, { name: 'up' })]), { logger: createLogger({ level: 'info', destination }) });
  t.teardown(async () => {
    await app.close();
    await stub.close();
  });
  const answer = '{"metadata-location":"s3://b/m.json","metadata":{}}';
  stub.respond = (req) => (req.method === 'POST' && req.url.startsWith('/v1/wh/') ? { status: 200, body: answer, headers: { 'content-type': 'application/json', 'content-length': String(answer.length) } } : undefined);
  const headers = { ...json, authorization: 'Bearer caller-s3cret', 'x-request-id': 'req-commit' };
  const commit = await app.inject({ method: 'POST', url: '/v1/up/namespaces/sales/tables/orders', headers, payload: '{"requirements":[],"updates":[]}' });
  t.equal(commit.statusCode, 200);
  const transaction = '{"table-changes":[{"identifier":{"namespace":["sales"],"name":"orders"},"requirements":[],"updates":[]}]}';
  t.equal((await app.inject({ method: 'POST', url: '/v1/up/transactions/commit', headers: { ...headers, 'x-request-id': 'req-tx' }, payload: transaction })).statusCode, 200);
  stub.respond = undefined;
  t.equal((await app.inject({ url: '/v1/up/namespaces/sales/tables/gone', headers: { ...headers, 'x-request-id': 'req-gone' } })).statusCode, 404);

  const audit = lines.filter((l) => l.name === AUDIT_LOGGER_NAME);
  const of = (id: string) => audit.filter((l) => l.reqId === id);
  t.equal(of('req-commit').length, 1);
  t.match(of('req-commit')[0], { operation: 'commit', catalog: 'up', namespace: ['sales'], table: 'orders', status: 200, bytes: answer.length, upstream: true });
  t.match(of('req-tx')[0], { operation: 'commit-transaction', catalog: 'up', tables: [{ namespace: ['sales'], name: 'orders' }], status: 200, upstream: true });
  t.match(of('req-gone')[0], { operation: 'load-table', catalog: 'up', table: 'gone', status: 404, upstream: true });
  t.notOk(JSON.stringify(audit).includes('caller-s3cret'), 'no credential');
});
