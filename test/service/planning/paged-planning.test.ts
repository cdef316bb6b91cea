/**
 * `upstream-paged` catalogs: an upstream (a real HTTP server on a loopback port) that answers
 * `/plan` but advertises no `/tasks`; Icefront pins, orders, pages and redeems. The upstream's
 * answers here are written by the test (the stub plays the upstream), so these tests prove the
 * protocol around them; the interop suite runs the same mode against the real REST fixture.
 */
import path from 'node:path';
import t, { type Test } from 'tap';
import type { RestCatalogConfig } from '../../../src/config/index.js';
import { buildIcefront } from '../../../src/main.js';
import { testConfig } from '../../helpers/config.js';
import { startUpstreamStub, stubCatalogConfig, stubTableFromDir, type LoggedRequest, type StubTable, type UpstreamStub } from '../../helpers/upstream-stub.js';
import { REPO } from './helpers.js';

const ORDERS = path.join(REPO, 'fixtures/warehouse/sales/orders/metadata');
const V3_SNAPSHOT = '2695453069319223195';
const V4_SNAPSHOT = '1973618613257988996';
const TABLE = '/v1/up/namespaces/sales/tables/orders';
/** The table's path at the upstream (its /v1/config names no prefix). */
const UPSTREAM_TABLE = '/v1/namespaces/sales/tables/orders';
const PLAN = 'POST /v1/{prefix}/namespaces/{namespace}/tables/{table}/plan';
const TASKS = 'POST /v1/{prefix}/namespaces/{namespace}/tables/{table}/tasks';
const READS = ['GET /v1/{prefix}/namespaces/{namespace}/tables/{table}', 'GET /v1/{prefix}/namespaces'];

/** An upstream answer: `n` data files listed in scrambled order, every third with a position delete, every fifth also with a shared equality delete. */
function upstreamPlan(n: number, tag = '') {
  const deletes = [{ 'spec-id': 0, content: 'equality-deletes', 'file-path': `s3://b/eq${tag}.parquet`, 'file-format': 'parquet', partition: [], 'file-size-in-bytes': 10, 'record-count': 1, 'equality-ids': [1] }];
  const tasks = [];
  for (let k = 0; k < n; k++) {
    const i = (k * 7) % n; // scrambled, so the order is Icefront's
    const refs: number[] = [];
    if (i % 3 === 0) {
      refs.push(deletes.length);
      deletes.push({ 'spec-id': 0, content: 'position-deletes', 'file-path': `s3://b/pos-${i}${tag}.parquet`, 'file-format': 'parquet', partition: [], 'file-size-in-bytes': 10, 'record-count': 1 } as (typeof deletes)[number]);
    }
    if (i % 5 === 0) refs.push(0);
    tasks.push({
      'data-file': { 'spec-id': 0, content: 'data', 'file-path': `s3://b/data-${String(i).padStart(3, '0')}${tag}.parquet`, 'file-format': 'parquet', partition: [], 'file-size-in-bytes': 100, 'record-count': 10 },
      ...(refs.length > 0 && { 'delete-file-references': refs }),
      'residual-filter': true,
    });
  }
  return { status: 'completed', 'plan-id': 'up-plan-1', 'delete-files': deletes, 'file-scan-tasks': tasks };
}

interface Setup {
  stub: UpstreamStub;
  tables: StubTable[];
  plans: () => LoggedRequest[];
}

async function pagedUpstream(t: Test, options: { endpoints?: string[]; answer?: (req: LoggedRequest) => { status: number; body: string } | undefined } = {}): Promise<Setup> {
  const tables: StubTable[] = [stubTableFromDir(ORDERS, ['sales'], 'orders')];
  tables[0] = { ...tables[0]!, metadataFile: path.join(ORDERS, 'v3.metadata.json') };
  const stub = await startUpstreamStub({ tables, endpoints: options.endpoints ?? [...READS, PLAN] });
  stub.respond = (req) => {
    if (req.method === 'POST' && req.url.endsWith('/plan')) return options.answer?.(req) ?? { status: 200, body: JSON.stringify(upstreamPlan(10)) };
    return undefined;
  };
  t.teardown(() => stub.close());
  return { stub, tables, plans: () => stub.requests.filter((r) => r.method === 'POST' && r.url.endsWith('/plan')) };
}

function icefront(t: Test, catalog: RestCatalogConfig, options: { batchSize?: number; maxResponseBytes?: number; secret?: string } = {}) {
  const config = testConfig([catalog], { batchSize: options.batchSize ?? 3 });
  const { app } = buildIcefront({
    ...config,
    planning: { ...config.planning, ...(options.maxResponseBytes && { maxResponseBytes: options.maxResponseBytes }), ...(options.secret && { tokenSecret: options.secret }) },
  });
  t.teardown(() => app.close());
  return app;
}

type App = ReturnType<typeof icefront>;
/** The snapshot id an upstream /plan request pinned, as its digits (JSON.parse would round it). */
const snapshotOf = (req: LoggedRequest): string | undefined => /"snapshot-id":(-?\d+)/.exec(req.body)?.[1];
const post = (app: App, url: string, body: unknown, authorization = 'Bearer alice') =>
  app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json', authorization }, payload: JSON.stringify(body) });

interface Answer {
  'file-scan-tasks': Array<{ 'data-file': { 'file-path': string }; 'delete-file-references'?: number[] }>;
  'delete-files'?: Array<{ 'file-path': string }>;
  'plan-tasks'?: string[];
  'plan-id'?: string;
}

/** Every page of a plan: the inline one, then each plan task redeemed (fan-outs followed), in order. */
async function allPages(app: App, first: Answer, authorization?: string): Promise<Answer[]> {
  const pages = [first];
  const queue = [...(first['plan-tasks'] ?? [])];
  while (queue.length > 0) {
    const res = await post(app, `${TABLE}/tasks`, { 'plan-task': queue.shift() }, authorization);
    if (res.statusCode !== 200) throw new Error(`tasks: ${res.statusCode} ${res.body}`);
    const page = res.json() as Answer;
    pages.push(page);
    queue.unshift(...(page['plan-tasks'] ?? []));
  }
  return pages;
}

/** (data file, the paths of the deletes it references) for each task of the pages, in order. */
function resolved(pages: Answer[]): Array<[string, string[]]> {
  return pages.flatMap((p) => p['file-scan-tasks'].map((task): [string, string[]] => [task['data-file']['file-path'], (task['delete-file-references'] ?? []).map((i) => p['delete-files']![i]!['file-path']).sort()]));
}

const truth = (n: number): Array<[string, string[]]> => {
  const a = upstreamPlan(n);
  return a['file-scan-tasks']
    .map((task): [string, string[]] => [task['data-file']['file-path'], (task['delete-file-references'] ?? []).map((i) => a['delete-files'][i]!['file-path']).sort()])
    .sort((x, y) => (x[0] < y[0] ? -1 : 1));
};

t.test('auto picks upstream-paged for an upstream with /plan but no /tasks, and Icefront advertises the four planning routes', async (t) => {
  const { stub } = await pagedUpstream(t);
  const app = icefront(t, stubCatalogConfig(stub));
  const config = (await app.inject({ method: 'GET', url: '/v1/config?warehouse=up' })).json() as { endpoints: string[] };
  for (const e of [PLAN, TASKS, 'GET /v1/{prefix}/namespaces/{namespace}/tables/{table}/plan/{plan-id}', 'DELETE /v1/{prefix}/namespaces/{namespace}/tables/{table}/plan/{plan-id}'])
    t.ok(config.endpoints.includes(e), `advertises ${e}`);
  t.equal(new Set(config.endpoints).size, config.endpoints.length, 'no endpoint twice');
});

t.test('/plan goes to the upstream as the caller with the snapshot pinned; pages carry every task once, in total order, with exactly their deletes', async (t) => {
  const { stub, plans } = await pagedUpstream(t);
  const app = icefront(t, stubCatalogConfig(stub));
  const res = await post(app, `${TABLE}/plan`, { filter: { type: 'gt', term: 'id', value: 1 } });
  t.equal(res.statusCode, 200, res.body);
  const first = res.json() as Answer;
  t.equal(plans().length, 1, 'one upstream /plan');
  const sent = JSON.parse(plans()[0]!.body) as Record<string, unknown>;
  t.equal(snapshotOf(plans()[0]!), V3_SNAPSHOT, 'the request left the snapshot open: Icefront pinned the current one');
  t.same(sent['filter'], { type: 'gt', term: 'id', value: 1 }, "the client's filter reaches the upstream");
  t.equal(plans()[0]!.headers.authorization, 'Bearer alice', "the upstream is asked as the caller (forward mode)");
  t.equal(first['file-scan-tasks'].length, 3, 'batch-size 3: the first page inline');
  t.equal(first['plan-tasks']?.length, 3, '10 tasks → 3 more pages as plan tasks');
  const pages = await allPages(app, first);
  t.same(resolved(pages), truth(10), 'every data file once, ordered by path, each with the deletes the upstream attached');
  for (const [i, page] of pages.entries()) {
    const referenced = new Set(page['file-scan-tasks'].flatMap((task) => task['delete-file-references'] ?? []));
    t.equal(referenced.size, page['delete-files']?.length ?? 0, `page ${i}: delete-files lists exactly the delete files its tasks reference`);
  }
  t.equal(plans().length, 1, 'redemptions on this replica were served from the cached upstream plan');
});

t.test('max-response-bytes cuts pages smaller than batch-size', async (t) => {
  const { stub } = await pagedUpstream(t, { answer: () => ({ status: 200, body: JSON.stringify(upstreamPlan(40)) }) });
  const app = icefront(t, stubCatalogConfig(stub), { batchSize: 100, maxResponseBytes: 4096 });
  const first = (await post(app, `${TABLE}/plan`, {})).json() as Answer;
  const pages = await allPages(app, first);
  t.ok(pages.length > 1, `paged by bytes (${pages.length} pages)`);
  for (const p of pages) t.ok(JSON.stringify(p).length <= 4096, 'each page within max-response-bytes');
  t.same(resolved(pages), truth(40), 'and still every task once, in order');
});

t.test('64 concurrent redemptions of one plan on a cold replica make one upstream /plan call (request log and /metrics)', async (t) => {
  const { stub, plans } = await pagedUpstream(t);
  const secret = 'a shared replica secret of enough length';
  const a = icefront(t, stubCatalogConfig(stub), { secret });
  const b = icefront(t, stubCatalogConfig(stub), { secret });
  const first = (await post(a, `${TABLE}/plan`, {})).json() as Answer;
  const before = plans().length;
  const task = first['plan-tasks']![1]!;
  const answers = await Promise.all(Array.from({ length: 64 }, () => post(b, `${TABLE}/tasks`, { 'plan-task': task })));
  t.same([...new Set(answers.map((r) => r.statusCode))], [200]);
  t.equal(new Set(answers.map((r) => r.body)).size, 1, 'all 64 got the same bytes');
  t.equal(plans().length - before, 1, 'the upstream saw one /plan from the cold replica');
  const metrics = (await b.inject({ method: 'GET', url: '/metrics' })).body;
  t.match(metrics, /^icefront_upstream_plans_total 1$/m, "the replica's /metrics counts one upstream plan");
  const expected = (await post(a, `${TABLE}/tasks`, { 'plan-task': task })).body;
  t.equal(answers[0]!.body, expected, 'the cold replica answers what the planning replica answers');
});

t.test('each caller is asked for by the upstream: another caller is not served from the first caller’s plan, and the upstream’s refusal passes', async (t) => {
  const { stub, plans } = await pagedUpstream(t, {
    answer: (req) => (req.headers.authorization === 'Bearer mallory' ? { status: 403, body: JSON.stringify({ error: { message: 'not yours', type: 'ForbiddenException', code: 403 } }) } : undefined),
  });
  const app = icefront(t, stubCatalogConfig(stub));
  const first = (await post(app, `${TABLE}/plan`, {})).json() as Answer;
  const res = await post(app, `${TABLE}/tasks`, { 'plan-task': first['plan-tasks']![0] }, 'Bearer mallory');
  t.equal(res.statusCode, 403, 'the upstream refused the second caller');
  t.equal((res.json() as { error: { type: string } }).error.type, 'ForbiddenException');
  t.equal(plans().length, 2, "the second caller's redemption asked the upstream, as that caller");
  t.equal(plans()[1]!.headers.authorization, 'Bearer mallory');
});

t.test('a submitted plan is polled at GET …/plan/{id} until completed, then released', async (t) => {
  let polls = 0;
  const { stub } = await pagedUpstream(t, { answer: () => ({ status: 200, body: JSON.stringify({ status: 'submitted', 'plan-id': 'slow plan/1' }) }) });
  const inner = stub.respond!;
  stub.respond = (req) => {
    if (req.method === 'GET' && req.url.includes('/plan/')) {
      polls++;
      return { status: 200, body: JSON.stringify(polls < 3 ? { status: 'submitted' } : upstreamPlan(4)) };
    }
    if (req.method === 'DELETE' && req.url.includes('/plan/')) return { status: 204, body: '' };
    return inner(req);
  };
  const app = icefront(t, stubCatalogConfig(stub), { batchSize: 0 });
  const res = await post(app, `${TABLE}/plan`, {});
  t.equal(res.statusCode, 200, res.body);
  t.same(resolved([res.json() as Answer]), truth(4), 'the completed plan, everything inline (batch-size 0)');
  t.equal(polls, 3, 'polled until completed');
  t.ok(stub.requests.some((r) => r.method === 'GET' && r.url.endsWith('/plan/slow%20plan%2F1')), 'the plan id is one encoded path segment');
  for (let i = 0; i < 50 && !stub.requests.some((r) => r.method === 'DELETE'); i++) await new Promise((r) => setTimeout(r, 20));
  t.ok(stub.requests.some((r) => r.method === 'DELETE' && r.url.endsWith('/plan/slow%20plan%2F1')), 'and released with DELETE');
});

t.test('upstream answers Icefront cannot page are clear errors', async (t) => {
  const cases: Array<[string, unknown, number, string]> = [
    ['a failed plan passes its ErrorModel', { status: 'failed', error: { message: 'bad filter', type: 'BadRequestException', code: 400 } }, 400, 'BadRequestException'],
    ['plan tasks from an upstream without /tasks', { ...upstreamPlan(2), 'plan-tasks': ['opaque'] }, 502, 'BadGatewayException'],
    ['a cancelled plan', { status: 'cancelled' }, 502, 'BadGatewayException'],
    ['a reference to no delete file', { status: 'completed', 'file-scan-tasks': [{ 'data-file': { 'file-path': 's3://b/x' }, 'delete-file-references': [3] }] }, 502, 'BadGatewayException'],
  ];
  for (const [name, answer, status, type] of cases) {
    const { stub } = await pagedUpstream(t, { answer: () => ({ status: 200, body: JSON.stringify(answer) }) });
    const res = await post(icefront(t, stubCatalogConfig(stub)), `${TABLE}/plan`, {});
    t.equal(res.statusCode, status, name);
    t.equal((res.json() as { error: { type: string } }).error.type, type, `${name}: ${type}`);
  }
});

t.test('page tasks that were not issued for this table or plan are 404 NoSuchPlanTaskException', async (t) => {
  let n = 10;
  const { stub } = await pagedUpstream(t, { answer: () => ({ status: 200, body: JSON.stringify(upstreamPlan(n)) }) });
  const app = icefront(t, stubCatalogConfig(stub));
  const first = (await post(app, `${TABLE}/plan`, {})).json() as Answer;
  const task = first['plan-tasks']![0]!;
  const other = await post(app, '/v1/up/namespaces/sales/tables/returns/tasks', { 'plan-task': task });
  t.equal(other.statusCode, 404, 'a task of another table');
  const edited = await post(app, `${TABLE}/tasks`, { 'plan-task': `${task.slice(0, -3)}AAA` });
  t.equal(edited.statusCode, 404, 'an edited string');
  const planTask = await post(app, `${TABLE}/tasks`, { 'plan-task': first['plan-id'] });
  t.equal(planTask.statusCode, 404, 'a plan id is not a page task');
  // A cold replica whose upstream now answers another plan for the same pinned scan.
  n = 11;
  const cold = icefront(t, stubCatalogConfig(stub));
  const changed = await post(cold, `${TABLE}/tasks`, { 'plan-task': task });
  t.equal(changed.statusCode, 404, 'the upstream’s plan changed: the page is refused, not served from another plan');
  t.equal((changed.json() as { error: { type: string } }).error.type, 'NoSuchPlanTaskException');
});

t.test('GET …/plan/{id} re-plans the pinned scan; after a commit the next /plan pins the new snapshot', async (t) => {
  const { stub, tables, plans } = await pagedUpstream(t);
  const app = icefront(t, stubCatalogConfig(stub));
  const first = (await post(app, `${TABLE}/plan`, {})).json() as Answer;
  const again = await app.inject({ method: 'GET', url: `${TABLE}/plan/${first['plan-id']}`, headers: { authorization: 'Bearer alice' } });
  t.equal(again.statusCode, 200);
  t.same(resolved(await allPages(app, again.json() as Answer)), truth(10), 'the same plan, paged the same way');
  t.equal((await app.inject({ method: 'DELETE', url: `${TABLE}/plan/${first['plan-id']}` })).statusCode, 204);
  tables[0] = { ...tables[0]!, metadataFile: path.join(ORDERS, 'v4.metadata.json') };
  await post(app, `${TABLE}/plan`, {});
  t.equal(snapshotOf(plans().at(-1)!), V4_SNAPSHOT, 'the new current snapshot is pinned: nothing cached hides the commit');
});

t.test('auto, /plan and /tasks advertised: an answer within one page, or one with plan tasks of its own, passes through; an upstream without /plan is never asked', async (t) => {
  let answer: unknown = upstreamPlan(3);
  const both = await pagedUpstream(t, { endpoints: [...READS, PLAN, TASKS], answer: () => ({ status: 200, body: JSON.stringify(answer) }) });
  const app = icefront(t, stubCatalogConfig(both.stub));
  const small = await post(app, `${TABLE}/plan`, {});
  t.equal(small.statusCode, 200);
  t.same(small.json(), upstreamPlan(3), "3 tasks at batch-size 3: the upstream's own answer, as it gave it");
  t.same(both.plans().map((r) => r.body), ['{}'], "the client's request went to the upstream as it was (nothing pinned)");
  answer = { ...upstreamPlan(10), 'plan-tasks': ['upstream-task-1'] };
  t.same((await post(app, `${TABLE}/plan`, {})).json(), answer, 'an upstream that pages (10 tasks and a plan task of its own): its answer passes');
  answer = { status: 'submitted', 'plan-id': 'slow-1' };
  t.same((await post(app, `${TABLE}/plan`, {})).json(), answer, 'a submitted answer passes, for the client to poll');
  // what the upstream issued goes back to it: its plan task, its plan id
  both.stub.respond = (req) => (req.url.includes('/plan/') || req.url.endsWith('/tasks') ? { status: 200, body: JSON.stringify({ 'file-scan-tasks': [], status: 'completed' }) } : undefined);
  t.equal((await post(app, `${TABLE}/tasks`, { 'plan-task': 'upstream-task-1' })).statusCode, 200);
  t.equal((await app.inject({ method: 'GET', url: `${TABLE}/plan/slow-1` })).statusCode, 200);
  t.same(
    both.stub.requests.filter((r) => r.url.endsWith('/tasks') || r.url.includes('/plan/')).map((r) => [r.method, r.url, r.body]),
    [['POST', `${UPSTREAM_TABLE}/tasks`, '{"plan-task":"upstream-task-1"}'], ['GET', `${UPSTREAM_TABLE}/plan/slow-1`, '']],
    "the upstream's plan task and plan id reached the upstream",
  );
  const none = await pagedUpstream(t, { endpoints: READS });
  const local = icefront(t, stubCatalogConfig(none.stub));
  await post(local, `${TABLE}/plan`, {});
  t.equal(none.plans().length, 0, 'an upstream without /plan is never asked to plan');
});

t.test('auto, /plan and /tasks advertised: an inline answer beyond one page is paged by Icefront (an upstream that advertises /tasks but never issues a plan task)', async (t) => {
  const { stub, plans } = await pagedUpstream(t, { endpoints: [...READS, PLAN, TASKS] });
  stub.respond = ((inner) => (req: LoggedRequest) => {
    if (req.url.endsWith('/tasks')) return { status: 404, body: JSON.stringify({ error: { message: 'no plan tasks here', type: 'NoSuchPlanTaskException', code: 404 } }) };
    return inner(req);
  })(stub.respond!);
  const app = icefront(t, stubCatalogConfig(stub));
  const open = await post(app, `${TABLE}/plan`, {});
  t.equal(open.statusCode, 200, open.body);
  const first = open.json() as Answer;
  t.equal(first['file-scan-tasks'].length, 3, '10 tasks inline from the upstream, batch-size 3: the first page');
  t.equal(first['plan-tasks']?.length, 3, 'and three page tasks of Icefront');
  t.same(resolved(await allPages(app, first)), truth(10), 'redeemed at Icefront: every data file once, with the deletes the upstream attached');
  t.notOk(stub.requests.some((r) => r.url.endsWith('/tasks')), 'no /tasks reached the upstream');
  t.same(plans().map(snapshotOf), [undefined, V3_SNAPSHOT], "the client's open request, then the same scan pinned to the current snapshot");
  const before = plans().length;
  const again = await app.inject({
    method: 'POST',
    url: `${TABLE}/plan`,
    headers: { 'content-type': 'application/json', authorization: 'Bearer alice' },
    payload: `{"snapshot-id":${V3_SNAPSHOT},"filter":{"type":"gt","term":"id","value":5}}`,
  });
  t.equal(again.statusCode, 200, again.body);
  t.equal(plans().length - before, 1, 'a request that pins its snapshot is planned once: its answer is the one paged');
  t.same(resolved(await allPages(app, again.json() as Answer)), truth(10));
  const cancel = await app.inject({ method: 'DELETE', url: `${TABLE}/plan/${encodeURIComponent(first['plan-id']!)}` });
  t.equal(cancel.statusCode, 204, "Icefront's plan id is Icefront's to cancel");
  t.notOk(stub.requests.some((r) => r.method === 'DELETE'), 'the upstream never sees it');
});

t.test("the upstream's refusal of a plan keeps its status and type, and names the catalog", async (t) => {
  const refusal = { error: { message: "This scan plans more than this catalog's limit of 25000 files for one response.", type: 'BadRequestException', code: 400 } };
  const { stub } = await pagedUpstream(t, { endpoints: [...READS, PLAN, TASKS], answer: () => ({ status: 400, body: JSON.stringify(refusal) }) });
  const res = await post(icefront(t, stubCatalogConfig(stub)), `${TABLE}/plan`, {});
  t.equal(res.statusCode, 400);
  const { error } = res.json() as { error: { message: string; type: string; code: number } };
  t.equal(error.type, 'BadRequestException');
  t.equal(error.code, 400);
  t.equal(error.message, `Catalog 'up': the upstream could not plan this scan: ${refusal.error.message}`);
});

t.test('an upstream task holding an int64 beyond 2^53 and a float with its decimal point is paged with both exact', async (t) => {
  // written as text: JSON.stringify cannot write 2^53 + 1 or keep 1.0's decimal point
  const body = JSON.stringify(upstreamPlan(4)).replace('"file-size-in-bytes":100,', '"file-size-in-bytes":9007199254740993,"x-float":1.0,');
  const { stub } = await pagedUpstream(t, { answer: () => ({ status: 200, body }) });
  const app = icefront(t, stubCatalogConfig(stub));
  const res = await post(app, `${TABLE}/plan`, {});
  t.equal(res.statusCode, 200, res.body.slice(0, 200));
  // the pages as text: the exact digits and the decimal point are what a client must receive
  const bodies = [res.body];
  const queue = [...((res.json() as Answer)['plan-tasks'] ?? [])];
  while (queue.length > 0) {
    const r = await post(app, `${TABLE}/tasks`, { 'plan-task': queue.shift() });
    t.equal(r.statusCode, 200, r.body.slice(0, 200));
    bodies.push(r.body);
    queue.push(...((r.json() as Answer)['plan-tasks'] ?? []));
  }
  t.match(bodies.join(''), /"file-size-in-bytes":9007199254740993[,}]/, 'the int64 digits pass exactly');
  t.match(bodies.join(''), /"x-float":1\.0[,}]/, 'the float keeps its decimal point');
});
