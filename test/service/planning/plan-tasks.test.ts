import fs from 'node:fs';
import path from 'node:path';
import t, { type Test } from 'tap';
import { deflateRawSync as zlibDeflate, gunzipSync, inflateRawSync as zlibInflate } from 'node:zlib';
import { realFixturesAvailable, realFixturesCatalogConfig, REAL_FIXTURES_SKIP } from '../../helpers/real-fixtures.js';
import { validateAgainst } from '../../helpers/openapi.js';
import { defaultPlanningWorkers } from '../../../src/service/index.js';
import { appWith, copyDemoTable, demoCatalog, keysOf, metric, parse, planAndRedeem, post, type ScanTasks } from './helpers.js';

const DEMO = (ns: string, table: string) => `/v1/demo/namespaces/${ns}/tables/${table}`;

/** Plans with everything inline (the reference) and with batches of `size`, then compares the task multisets. */
async function checkBatching(t: Test, catalogs: Parameters<typeof appWith>[0], base: string, request: unknown): Promise<void> {
  const reference = appWith(catalogs, { batchSize: 0 });
  t.teardown(() => reference.close());
  const whole = await planAndRedeem(reference, base, request);
  t.equal(whole.plan['plan-tasks'], undefined, 'batch-size 0: everything inline, no plan tasks');
  t.same(validateAgainst('PlanTableScanResult', JSON.parse(JSON.stringify(whole.plan, (_k, v: unknown) => (typeof v === 'bigint' ? Number(v) : v)))), []);
  const expected = [...whole.keys].sort();
  t.ok(expected.length > 0, `the reference plan has tasks (${expected.length})`);
  t.equal(new Set(expected).size, expected.length, 'the reference plan has no task twice');
  for (const size of [1, 7, 100]) {
    const app = appWith(catalogs, { batchSize: size });
    const got = await planAndRedeem(app, base, request);
    await app.close();
    t.same([...got.keys].sort(), expected, `batch-size ${size}: inline + redeemed tasks = the plan, each once`);
    t.ok(got.plan['file-scan-tasks'].length <= size, `batch-size ${size}: at most ${size} tasks inline`);
    if (expected.length > size) t.ok((got.plan['plan-tasks'] ?? []).length > 0, `batch-size ${size}: plan tasks issued`);
  }
  // signed tasks carry their manifests' list entries and whether deletes apply (plan-task.ts t2)
  const signed = appWith(catalogs, { batchSize: 1, tokenSecret: 'a-secret-shared-by-all-replicas' });
  const got = await planAndRedeem(signed, base, request);
  await signed.close();
  t.same([...got.keys].sort(), expected, 'signed, batch-size 1: inline + redeemed tasks = the plan, each once');
}

t.test('batched plans: inline tasks plus every redeemed plan task equal the whole plan, each task once', async (t) => {
  const demo = [demoCatalog()];
  for (const [ns, table] of [['sales', 'orders'], ['sales', 'returns'], ['events', 'clicks'], ['legacy', 'inventory']] as const) {
    await t.test(`${ns}.${table} unfiltered`, (t) => checkBatching(t, demo, DEMO(ns, table), {}));
  }
  await t.test('sales.orders filtered', (t) => checkBatching(t, demo, DEMO('sales', 'orders'), { filter: { type: 'lt', term: 'order_id', value: 12 } }));
  await t.test('sales.returns filtered (deletes)', (t) =>
    checkBatching(t, demo, DEMO('sales', 'returns'), { filter: { type: 'eq', term: 'region', value: 'US' } }),
  );
});

t.test('batched plans over real tables with and without deletes', { skip: realFixturesAvailable() ? false : REAL_FIXTURES_SKIP }, async (t) => {
  const real = [realFixturesCatalogConfig('real')];
  const url = (ns: string[], table: string) => `/v1/real/namespaces/${ns.map(encodeURIComponent).join('%1F')}/tables/${encodeURIComponent(table)}`;
  const cases: [string[], string, unknown][] = [
    [['impala'], 'iceberg_partitioned', {}],
    [['impala'], 'iceberg_partitioned', { filter: { type: 'eq', term: 'action', value: 'click' } }],
    [['dremio-oss', 'v2'], 'products_with_eq_deletes', {}],
    [['dremio-oss', 'v2'], 'multi_rowgroup_orders_with_deletes', {}],
    [['impala', 'iceberg_v3'], 'iceberg_v3_deletion_vectors', {}],
    // one manifest listed 10,000 times: once answered 500 (batch ranges ran backwards), and its 6 files 60,000 times
    [['iceberg-cxx', 'meta_perf', 'warehouse', 'performance'], 'manifest_files', {}],
    [['iceberg-cxx', 'meta_perf', 'warehouse', 'performance'], 'manifest_files', { filter: { type: 'gt-eq', term: 'a', value: 3072 } }],
  ];
  for (const [ns, table, request] of cases) {
    await t.test(`${[...ns, table].join('.')} ${JSON.stringify(request)}`, (t) => checkBatching(t, real, url(ns, table), request));
  }
});

/** A copy of sales.orders as it was one commit ago; `commit()` makes its next version appear (its hint lags behind). */
function oneCommitAgo(t: Test): { warehouse: string; commit: () => void } {
  const copy = copyDemoTable('sales', 'orders');
  t.teardown(copy.remove);
  const hint = path.join(copy.tableDir, 'metadata/version-hint.text');
  const latest = fs.readFileSync(hint, 'utf8').trim();
  const latestFile = path.join(copy.tableDir, `metadata/v${latest}.metadata.json`);
  fs.renameSync(latestFile, `${latestFile}.later`);
  fs.writeFileSync(hint, String(Number(latest) - 1));
  return { warehouse: copy.warehouse, commit: () => fs.renameSync(`${latestFile}.later`, latestFile) };
}

t.test('a commit between /plan and /tasks changes nothing: the plan is pinned to its snapshot', async (t) => {
  const copy = oneCommitAgo(t);
  const app = appWith([demoCatalog('demo', copy.warehouse)], { batchSize: 1 });
  t.teardown(() => app.close());
  const plan = parse((await post(app, `${DEMO('sales', 'orders')}/plan`, {})).body);
  const before = await Promise.all((plan['plan-tasks'] ?? []).map((task) => post(app, `${DEMO('sales', 'orders')}/tasks`, { 'plan-task': task })));
  copy.commit(); // a writer commits the next version (the hint lags behind)
  const unpinned = parse((await post(app, `${DEMO('sales', 'orders')}/plan`, {})).body);
  t.not(JSON.stringify(unpinned['plan-tasks']), JSON.stringify(plan['plan-tasks']), 'a new plan now sees the new snapshot');
  const after = await Promise.all((plan['plan-tasks'] ?? []).map((task) => post(app, `${DEMO('sales', 'orders')}/tasks`, { 'plan-task': task })));
  t.ok(before.length > 0);
  t.same(
    after.map((r) => r.body),
    before.map((r) => r.body),
    'every plan task of the old plan returns the same bytes',
  );
});

t.test('redeeming a plan task twice gives the same bytes', async (t) => {
  const app = appWith([demoCatalog()], { batchSize: 1 });
  t.teardown(() => app.close());
  const plan = parse((await post(app, `${DEMO('sales', 'returns')}/plan`, {})).body);
  const task = plan['plan-tasks']![0]!;
  const a = await post(app, `${DEMO('sales', 'returns')}/tasks`, { 'plan-task': task });
  const b = await post(app, `${DEMO('sales', 'returns')}/tasks`, { 'plan-task': task });
  t.equal(a.statusCode, 200);
  t.equal(a.body, b.body);
  t.same(validateAgainst('FetchScanTasksResult', JSON.parse(a.body)), []);
});

t.test('the server that planned redeems its tasks from the manifests it decoded, with the bytes a cold server gives', async (t) => {
  const planner = appWith([demoCatalog()], { batchSize: 1 });
  const cold = appWith([demoCatalog()], { batchSize: 1 });
  t.teardown(() => Promise.all([planner.close(), cold.close()]));
  for (const table of ['orders', 'returns']) {
    const base = DEMO('sales', table);
    const tasks = parse((await post(planner, `${base}/plan`, {})).body)['plan-tasks']!;
    t.ok(tasks.length >= 2, `sales.${table}: ${tasks.length} plan tasks`);
    const reads = async (app: typeof planner) => metric((await app.inject({ url: '/metrics' })).body, 'icefront_manifest_reads_total');
    const before = await reads(planner);
    for (const task of tasks) {
      const here = await post(planner, `${base}/tasks`, { 'plan-task': task });
      const there = await post(cold, `${base}/tasks`, { 'plan-task': task });
      t.equal(here.statusCode, 200);
      t.equal(here.body, there.body, `sales.${table}: a task redeemed where it was planned = redeemed on a cold server (which decodes its range)`);
    }
    t.equal(await reads(planner), before, `sales.${table}: no manifest decoded again to redeem the plan's tasks`);
    t.ok((await reads(cold)) > 0, `sales.${table}: the cold server did decode them`);
  }
});

t.test('a repeated redemption is answered from memory: the same bytes, no manifest work, the answer cache hit', async (t) => {
  const app = appWith([demoCatalog()], { batchSize: 1 });
  t.teardown(() => app.close());
  const base = DEMO('sales', 'orders');
  const tasks = parse((await post(app, `${base}/plan`, {})).body)['plan-tasks']!;
  t.ok(tasks.length >= 2, `${tasks.length} plan tasks`);
  const counters = async () => {
    const text = (await app.inject({ url: '/metrics' })).body;
    return { reads: metric(text, 'icefront_manifest_reads_total'), hits: metric(text, 'icefront_cache_hits_total{cache="answers"}') };
  };
  const first = await Promise.all(tasks.map((task) => post(app, `${base}/tasks`, { 'plan-task': task })));
  const before = await counters();
  // the dashboard runs its query again: the same strings, redeemed again
  const again = await Promise.all(tasks.map((task) => post(app, `${base}/tasks`, { 'plan-task': task })));
  const after = await counters();
  t.same(
    again.map((r) => r.body),
    first.map((r) => r.body),
    'the same answers',
  );
  t.equal(after.hits - before.hits, tasks.length, 'each from the answer cache');
  t.equal(after.reads, before.reads, 'no manifest read or decoded for them');
});

t.test("a plan whose pages would not fit in the answer cache keeps none of them, and evicts no other scan's kept answer", async (t) => {
  // 20% of the budget is the answer cache: 3,000 bytes, less than the unfiltered plan's eleven
  // pages together (about 4,700 bytes of JSON), more than a filtered plan's answer (about 700)
  const app = appWith([demoCatalog()], { batchSize: 1, cacheBytes: 15_000 });
  t.teardown(() => app.close());
  const base = DEMO('sales', 'orders');
  const hits = async () => metric((await app.inject({ url: '/metrics' })).body, 'icefront_cache_hits_total{cache="answers"}');
  const small = { filter: { type: 'eq', term: 'order_id', value: 1 } };
  const smallAnswer = await post(app, `${base}/plan`, small);
  t.equal(smallAnswer.statusCode, 200);
  const tasks = parse((await post(app, `${base}/plan`, {})).body)['plan-tasks']!;
  t.equal(tasks.length, 11, 'eleven pages of one task each');
  const first = await Promise.all(tasks.map((task) => post(app, `${base}/tasks`, { 'plan-task': task })));
  const before = await hits();
  const again = await Promise.all(tasks.map((task) => post(app, `${base}/tasks`, { 'plan-task': task })));
  t.same(again.map((r) => r.body), first.map((r) => r.body), 'the same answers, written again');
  t.equal(await hits(), before, 'none of them from the answer cache');
  const repeated = await post(app, `${base}/plan`, small);
  t.equal(repeated.body, smallAnswer.body);
  t.equal(await hits(), before + 1, "the filtered plan's kept answer survived all 22 redemptions");
});

t.test('a repeated /plan of the same pinned scan is answered from memory; another scan or a new commit is planned', async (t) => {
  const copy = oneCommitAgo(t);
  const app = appWith([demoCatalog('demo', copy.warehouse)], { batchSize: 1 });
  t.teardown(() => app.close());
  const base = DEMO('sales', 'orders');
  const counters = async () => {
    const text = (await app.inject({ url: '/metrics' })).body;
    return { slices: metric(text, 'icefront_cache_hits_total{cache="manifests"}') + metric(text, 'icefront_manifest_reads_total'), hits: metric(text, 'icefront_cache_hits_total{cache="answers"}') };
  };
  const first = await post(app, `${base}/plan`, {});
  t.equal(first.statusCode, 200);
  const before = await counters();
  const again = await post(app, `${base}/plan`, {});
  const after = await counters();
  t.equal(again.body, first.body, 'the same answer');
  t.equal(after.hits - before.hits, 1, 'from the answer cache');
  t.equal(after.slices, before.slices, 'no manifest slice read or looked up for it');

  const filtered = await post(app, `${base}/plan`, { filter: { type: 'eq', term: 'order_id', value: 1 } });
  t.equal(filtered.statusCode, 200);
  t.ok((await counters()).slices > after.slices, 'another scan of the table is planned');

  copy.commit(); // a writer commits the next version
  const committed = parse((await post(app, `${base}/plan`, {})).body);
  t.not(committed['plan-id'], parse(first.body)['plan-id'], 'after a commit, the same request plans the new snapshot');
});

t.test('rejected plan tasks are 404 NoSuchPlanTaskException; a missing table is NoSuchTableException', async (t) => {
  const copy = copyDemoTable('sales', 'orders');
  t.teardown(copy.remove);
  const catalogs = [demoCatalog('demo', copy.warehouse), demoCatalog('other', copy.warehouse)];
  const app = appWith(catalogs, { batchSize: 1 });
  t.teardown(() => app.close());
  const base = DEMO('sales', 'orders');
  const plan = parse((await post(app, `${base}/plan`, {})).body);
  const task = plan['plan-tasks']![0]!;
  const expect404 = async (url: string, body: unknown, what: string, type = 'NoSuchPlanTaskException') => {
    const res = await post(app, url, body);
    t.equal(res.statusCode, 404, `${what}: 404`);
    t.equal(JSON.parse(res.body).error.type, type, `${what}: ${type}`);
  };
  await expect404(`${base}/tasks`, { 'plan-task': 't1.AAAA' }, 'forged');
  await expect404(`${base}/tasks`, { 'plan-task': task.slice(0, task.length - 5) }, 'truncated');
  await expect404(`${base}/tasks`, { 'plan-task': 'garbage' }, 'not a plan task at all');
  await expect404(`${base}/tasks`, { 'plan-task': plan['plan-id'] }, 'a plan id is not a plan task');
  await expect404(`${base.replace('orders', 'orders2')}/tasks`, { 'plan-task': task }, 'missing table', 'NoSuchTableException');
  await expect404(`${base.replace('/v1/demo/', '/v1/other/')}/tasks`, { 'plan-task': task }, 'wrong prefix');
  fs.cpSync(path.join(copy.tableDir), path.join(copy.warehouse, 'sales', 'orders_copy'), { recursive: true });
  await expect404(`${base}_copy/tasks`, { 'plan-task': task }, 'foreign table');
  // the snapshot expires: the table is rolled back to a version that never had it
  for (const f of fs.readdirSync(path.join(copy.tableDir, 'metadata'))) {
    if (/^v\d+\.metadata\.json$/.test(f) && f !== 'v1.metadata.json') fs.rmSync(path.join(copy.tableDir, 'metadata', f));
  }
  fs.writeFileSync(path.join(copy.tableDir, 'metadata/version-hint.text'), '1');
  await expect404(`${base}/tasks`, { 'plan-task': task }, 'expired snapshot');
  const bad = await post(app, `${base}/tasks`, {});
  t.equal(bad.statusCode, 400, 'a body without plan-task is a 400');
  const empty = await app.inject({ method: 'POST', url: `${base}/tasks`, headers: { 'content-type': 'application/json' }, payload: '' });
  t.equal(empty.statusCode, 400, 'an empty body is a 400');
});

t.test('an unsigned plan task edited to repeat or overrun a range is rejected, never answered with the same files again', async (t) => {
  const app = appWith([demoCatalog()], { batchSize: 1 });
  t.teardown(() => app.close());
  const base = DEMO('sales', 'orders');
  const task = parse((await post(app, `${base}/plan`, {})).body)['plan-tasks']![0]!;
  const json = zlibInflate(Buffer.from(task.split('.')[1]!, 'base64url')).toString('utf8');
  const reseal = (text: string) => `t1.${zlibDeflate(Buffer.from(text)).toString('base64url')}`;
  const range = /"r":\[(\{[^\]]*\})\]/.exec(json)![1]!;
  const ok = await post(app, `${base}/tasks`, { 'plan-task': reseal(json) });
  t.equal(ok.statusCode, 200, 'the string re-sealed unchanged is still redeemed (the edit is what is refused)');
  t.equal(parse(ok.body)['file-scan-tasks'].length, 1);
  const edits: Record<string, string> = {
    'one range 5,000 times': json.replace(range, Array(5000).fill(range).join(',')),
    'the same range handed out again by fan-out': json.replace(`"r":[${range}]`, `"r":[${range}],"x":${JSON.stringify(Array(50).fill(null))}`.replace(/null/g, `[${range}]`)),
    'overlapping ranges': json.replace(range, `${range},${range.replace(/"s":(\d+)/, (_m, s: string) => `"s":${Math.max(0, Number(s) - 1)}`)}`),
    'a range past the end of the manifest': json.replace(/"e":(\d+)/, '"e":100000').replace(/,"o":\d+,"l":\d+,"b":\d+/, ''),
  };
  for (const [what, text] of Object.entries(edits)) {
    t.not(text, json, `${what}: the string was edited`);
    const res = await post(app, `${base}/tasks`, { 'plan-task': reseal(text) });
    t.equal(res.statusCode, 404, `${what}: 404`);
    t.equal((JSON.parse(res.body) as { error?: { type: string } }).error?.type, 'NoSuchPlanTaskException');
  }
});

t.test('with HMAC on, a tampered plan task is rejected before any manifest is read', async (t) => {
  const app = appWith([demoCatalog()], { batchSize: 1, tokenSecret: 'a-secret-shared-by-all-replicas' });
  t.teardown(() => app.close());
  const base = DEMO('sales', 'orders');
  const plan = parse((await post(app, `${base}/plan`, {})).body);
  const task = plan['plan-tasks']![0]!;
  const [kind, payload, mac] = task.split('.');
  const flipped = payload!.slice(0, 10) + (payload![10] === 'A' ? 'B' : 'A') + payload!.slice(11);
  const reads = async () => {
    const text = (await app.inject({ url: '/metrics' })).body;
    return metric(text, 'icefront_manifest_reads_total') + metric(text, 'icefront_cache_misses_total{cache="manifest-lists"}');
  };
  const before = await reads();
  for (const forged of [`${kind}.${flipped}.${mac}`, `${kind}.${payload}`, `${kind}.${payload}.${mac!.slice(1)}A`]) {
    const res = await post(app, `${base}/tasks`, { 'plan-task': forged });
    t.equal(res.statusCode, 404);
    t.equal(JSON.parse(res.body).error.type, 'NoSuchPlanTaskException');
  }
  t.equal(await reads(), before, 'no manifest list or manifest was read for the forged strings');
  t.equal((await post(app, `${base}/tasks`, { 'plan-task': task })).statusCode, 200, 'the genuine task still works');
});

t.test('with a key, a server that never saw the plan redeems its tasks without the manifest list unless deletes apply, and they are the plan', async (t) => {
  const planning = { batchSize: 1, tokenSecret: 'a-secret-shared-by-all-replicas' };
  const workers = defaultPlanningWorkers();
  for (const [table, deletes] of [['orders', false], ['returns', true]] as const) {
    const base = DEMO('sales', table);
    const reference = appWith([demoCatalog()], { batchSize: 0 });
    const planner = appWith([demoCatalog()], planning);
    const cold = appWith([demoCatalog()], planning);
    t.teardown(() => Promise.all([reference.close(), planner.close(), cold.close()]));
    const whole = parse((await post(reference, `${base}/plan`, {})).body);
    t.equal(whole['file-scan-tasks'].some((task) => (task['delete-file-references'] ?? []).length > 0), deletes, `sales.${table}: ${deletes ? 'deletes apply' : 'no deletes'}`);
    const plan = parse((await post(planner, `${base}/plan`, {})).body);
    const keys = keysOf(plan);
    const queue = [...plan['plan-tasks']!];
    const queued = queue.length;
    t.ok(queue.length >= 2 && queue.every((task) => task.startsWith('t2.')), `sales.${table}: ${queue.length} signed plan tasks carrying list entries`);
    while (queue.length > 0) {
      const res = await post(cold, `${base}/tasks`, { 'plan-task': queue.shift()! });
      t.equal(res.statusCode, 200);
      const body = parse(res.body);
      keys.push(...keysOf(body));
      queue.push(...(body['plan-tasks'] ?? []));
    }
    t.same(keys.sort(), keysOf(whole).sort(), `sales.${table}: inline + redeemed on the cold server = the whole plan, each task once`);
    const listReads = metric((await cold.inject({ url: '/metrics' })).body, 'icefront_cache_misses_total{cache="manifest-lists"}');
    // each planning worker keeps its own caches: with deletes, each that redeemed a task built its
    // own delete index from the list, once, however many tasks it redeemed
    if (deletes) t.ok(listReads >= 1 && listReads <= Math.min(workers, queued), `sales.${table}: the cold server read the manifest list once per planning worker at most, for the delete index (${listReads}, ${workers} workers)`);
    else t.equal(listReads, 0, `sales.${table}: the cold server read the manifest list not at all`);
  }
});

t.test('64 concurrent /tasks for the batches of one plan at a cold server decode each manifest once', async (t) => {
  const planner = appWith([demoCatalog()], { batchSize: 4 });
  const cold = appWith([demoCatalog()], { batchSize: 4 });
  t.teardown(() => Promise.all([planner.close(), cold.close()]));
  const base = DEMO('sales', 'orders');
  const plan = parse((await post(planner, `${base}/plan`, {})).body);
  const tasks = plan['plan-tasks']!;
  t.ok(tasks.length >= 2, `${tasks.length} plan tasks`);
  const requests = Array.from({ length: 64 }, (_, i) => tasks[i % tasks.length]!);
  const responses = await Promise.all(requests.map((task) => post(cold, `${base}/tasks`, { 'plan-task': task })));
  t.ok(responses.every((r) => r.statusCode === 200), 'all 64 answered 200');
  const text = (await cold.inject({ url: '/metrics' })).body;
  const slices = new Set(tasks.flatMap((task) => rangesOf(task))).size;
  t.equal(metric(text, 'icefront_manifest_reads_total'), slices, `each manifest slice named by the plan tasks was decoded once (${slices})`);
  t.equal(metric(text, 'icefront_delete_index_builds_total'), 1, 'the delete index was built once');
  t.equal(metric(text, 'icefront_cache_misses_total{cache="manifest-lists"}'), 1, 'the manifest list was read once');
  t.equal(metric(text, 'icefront_task_requests_total'), 64);
  const pages = metric(text, 'icefront_cache_coalesced_total{cache="answers"}') + metric(text, 'icefront_cache_hits_total{cache="answers"}');
  t.equal(pages, 64 - tasks.length, 'a redemption of a string already being (or already) answered joins that answer');
  t.ok(pages + metric(text, 'icefront_manifest_reads_coalesced_total') + metric(text, 'icefront_cache_hits_total{cache="manifests"}') >= 64 - slices, 'the rest were coalesced or served from the caches');
});

/** The manifest ranges inside an (unsigned) plan task, read the way a test may: by decoding it. */
function rangesOf(task: string): string[] {
  const payload = task.split('.')[1]!;
  const json = zlibInflate(Buffer.from(payload, 'base64url')).toString('utf8');
  return [...json.matchAll(/"m":"([^"]+)","s":(\d+),"e":(\d+)/g)].map((m) => `${m[1]}[${m[2]},${m[3]})`);
}

t.test('GET plan/{id} re-plans the pinned scan on any server; DELETE answers 204', async (t) => {
  const a = appWith([demoCatalog()], { batchSize: 2 });
  const b = appWith([demoCatalog()], { batchSize: 2 });
  t.teardown(() => Promise.all([a.close(), b.close()]));
  const base = DEMO('sales', 'returns');
  const plan = parse((await post(a, `${base}/plan`, {})).body);
  const id = plan['plan-id']!;
  const fetched = await b.inject({ url: `${base}/plan/${encodeURIComponent(id)}` });
  t.equal(fetched.statusCode, 200);
  const body = parse(fetched.body) as ScanTasks;
  t.same(validateAgainst('FetchPlanningResult', JSON.parse(fetched.body)), []);
  t.equal(body.status, 'completed');
  t.ok((plan['plan-tasks'] ?? []).length > 0 && plan['file-scan-tasks'].length > 0, 'batch size 2: the plan has inline tasks and plan tasks');
  t.same(body['plan-tasks'], plan['plan-tasks'], 'the same plan tasks');
  t.same(body['file-scan-tasks'], plan['file-scan-tasks'], 'the same inline tasks');
  const unknown = await b.inject({ url: `${base}/plan/p1.nope` });
  t.equal(unknown.statusCode, 404);
  t.equal(JSON.parse(unknown.body).error.type, 'NoSuchPlanIdException');
  for (const planId of [id, 'unknown-plan']) {
    const del = await b.inject({ method: 'DELETE', url: `${base}/plan/${encodeURIComponent(planId)}` });
    t.equal(del.statusCode, 204, `DELETE ${planId.slice(0, 12)}… → 204`);
  }
  // Iceberg Java's RESTTableScan closes a plan with Content-Type: application/json and no body
  const asJava = await b.inject({ method: 'DELETE', url: `${base}/plan/${encodeURIComponent(id)}`, headers: { 'content-type': 'application/json' } });
  t.equal(asJava.statusCode, 204, 'DELETE declared as JSON without a body → 204');
  const emptyPost = await b.inject({ method: 'POST', url: `${base}/plan`, headers: { 'content-type': 'application/json' }, payload: '' });
  t.equal(emptyPost.statusCode, 400, 'a POST declared as JSON without a body is still a 400');
  const config = JSON.parse((await a.inject({ url: '/v1/config?warehouse=demo' })).body) as { endpoints: string[] };
  for (const e of [
    'POST /v1/{prefix}/namespaces/{namespace}/tables/{table}/plan',
    'GET /v1/{prefix}/namespaces/{namespace}/tables/{table}/plan/{plan-id}',
    'DELETE /v1/{prefix}/namespaces/{namespace}/tables/{table}/plan/{plan-id}',
    'POST /v1/{prefix}/namespaces/{namespace}/tables/{table}/tasks',
  ])
    t.ok(config.endpoints.includes(e), `advertises ${e}`);
});

t.test('responses stay under max-response-bytes, and min-rows-requested stops planning early', async (t) => {
  const small = appWith([demoCatalog()], { batchSize: 100, maxResponseBytes: 4096 });
  t.teardown(() => small.close());
  const base = DEMO('sales', 'orders');
  const all = await planAndRedeem(small, base, { 'stats-fields': ['order_id', 'sku', 'amount'] });
  t.ok(all.responses > 1, `split into ${all.responses} responses by size`);
  const res = await post(small, `${base}/plan`, { 'stats-fields': ['order_id', 'sku', 'amount'] });
  t.ok(Buffer.byteLength(res.body) <= 4096 + 4096, 'the plan response stays near the bound (tasks bounded, plus plan-task strings)');
  const limited = parse((await post(small, `${base}/plan`, { 'min-rows-requested': 1 })).body);
  t.equal(limited['file-scan-tasks'].length, 1, 'one file covers one row');
  t.equal(limited['plan-tasks'], undefined, 'no further batches');
  const again = parse((await small.inject({ url: `${base}/plan/${encodeURIComponent(limited['plan-id']!)}` })).body);
  t.same(again['file-scan-tasks'], limited['file-scan-tasks'], 'GET plan/{id} re-plans the same prefix');
});

t.test('a caller that takes gzip gets pages of up to gzip-page-bytes, one that does not pages of max-response-bytes; both the same files', async (t) => {
  const app = appWith([demoCatalog()], { batchSize: 0, maxResponseBytes: 4096, gzipPageBytes: 64 * 1024 });
  t.teardown(() => app.close());
  const base = DEMO('sales', 'orders');
  const walk = async (acceptEncoding: string | undefined) => {
    const headers = { 'content-type': 'application/json', ...(acceptEncoding && { 'accept-encoding': acceptEncoding }) };
    const ask = async (url: string, body: unknown) => {
      const res = await app.inject({ method: 'POST', url, headers, payload: JSON.stringify(body) });
      t.equal(res.statusCode, 200);
      const text = res.headers['content-encoding'] === 'gzip' ? gunzipSync(res.rawPayload).toString('utf8') : res.body;
      return { body: parse(text), jsonBytes: Buffer.byteLength(text) };
    };
    const first = await ask(`${base}/plan`, {});
    const keys = keysOf(first.body);
    const queue = [...(first.body['plan-tasks'] ?? [])];
    let answers = 1;
    let largest = first.jsonBytes;
    while (queue.length > 0) {
      const next = await ask(`${base}/tasks`, { 'plan-task': queue.shift()! });
      keys.push(...keysOf(next.body));
      queue.push(...(next.body['plan-tasks'] ?? []));
      answers++;
      largest = Math.max(largest, next.jsonBytes);
    }
    return { keys, answers, largest };
  };
  const plain = await walk(undefined);
  const zipped = await walk('gzip, deflate');
  t.ok(plain.answers > 1 && plain.largest <= 4096, `without gzip: ${plain.answers} answers, JSON within max-response-bytes (largest ${plain.largest})`);
  t.ok(zipped.answers < plain.answers, `with gzip: fewer answers (${zipped.answers})`);
  t.ok(zipped.largest > 4096 && zipped.largest <= 64 * 1024, `each up to gzip-page-bytes of JSON (largest ${zipped.largest})`);
  t.same([...zipped.keys].sort(), [...plain.keys].sort(), 'the same files, each once');
  t.equal(new Set(zipped.keys).size, zipped.keys.length);
});

t.test('when plan-task strings would overflow max-response-bytes, fan-out tasks keep every response within it', async (t) => {
  const app = appWith([demoCatalog()], { batchSize: 1, maxResponseBytes: 4096 });
  t.teardown(() => app.close());
  const base = DEMO('sales', 'orders');
  const reference = appWith([demoCatalog()], { batchSize: 0 });
  t.teardown(() => reference.close());
  const whole = await planAndRedeem(reference, base, {});
  const res = await post(app, `${base}/plan`, {});
  t.ok(Buffer.byteLength(res.body) <= 4096, `the /plan response is ${Buffer.byteLength(res.body)} bytes`);
  const plan = parse(res.body);
  t.ok((plan['plan-tasks'] ?? []).length < whole.keys.length - 1, 'fewer strings than batches: some fan out');
  const got = await planAndRedeem(app, base, {});
  t.same([...got.keys].sort(), [...whole.keys].sort(), 'inline + every redeemed and fanned-out task = the plan, each once');
  let biggest = 0;
  const queue = [...(plan['plan-tasks'] ?? [])];
  while (queue.length > 0) {
    const r = await post(app, `${base}/tasks`, { 'plan-task': queue.shift()! });
    biggest = Math.max(biggest, Buffer.byteLength(r.body));
    queue.push(...(parse(r.body)['plan-tasks'] ?? []));
  }
  t.ok(biggest <= 4096, `every /tasks response within the bound (largest ${biggest} bytes)`);
});
