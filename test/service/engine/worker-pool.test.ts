/**
 * Planning in worker threads (worker-pool.ts) against planning on the event loop
 * (`planning.workers: 0`). Icefront against Icefront: the answers the other planning tests check
 * against real engines and real Parquet rows go through the workers by default; this file checks
 * that moving the work changed no byte, and what only the pool can get wrong.
 */
import t, { type Test } from 'tap';
import { realFixturesAvailable, realFixturesCatalogConfig, REAL_FIXTURES_SKIP } from '../../helpers/real-fixtures.js';
import { appWith, copyDemoTable, demoCatalog, metric, parse, post } from '../planning/helpers.js';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inflateRawSync } from 'node:zlib';
import type { Config } from '../../../src/config/index.js';
import { buildService } from '../../../src/main.js';
import { LARGE_JSON_BYTES } from '../../../src/service/engine/plan-engine.js';
import { joinJsonArrays } from '../../../src/service/engine/worker-pool.js';
import type { ScanOutcome } from '../../../src/service/index.js';
import { testConfig } from '../../helpers/config.js';
import { writeSyntheticTable } from '../../../tools/iceberg-writer/index.js';

const DEMO = (ns: string, table: string) => `/v1/demo/namespaces/${ns}/tables/${table}`;
const REAL = (ns: string[], table: string) => `/v1/real/namespaces/${ns.map(encodeURIComponent).join('%1F')}/tables/${encodeURIComponent(table)}`;

/** Every response of a plan and all its plan tasks, breadth-first, as text. */
async function transcript(app: ReturnType<typeof appWith>, base: string, request: unknown): Promise<string[]> {
  const first = await post(app, `${base}/plan`, request);
  const out = [`${first.statusCode} ${first.body.replace(/"plan-id":"[^"]*"/, '')}`];
  const queue = first.statusCode === 200 ? [...(parse(first.body)['plan-tasks'] ?? [])] : [];
  while (queue.length > 0) {
    const r = await post(app, `${base}/tasks`, { 'plan-task': queue.shift() });
    out.push(`${r.statusCode} ${r.body}`);
    if (r.statusCode === 200) queue.push(...(parse(r.body)['plan-tasks'] ?? []));
  }
  return out;
}

t.test('planning workers answer byte for byte what planning on the event loop answers', async (t) => {
  const catalogs = [demoCatalog(), ...(realFixturesAvailable() ? [realFixturesCatalogConfig('real')] : [])];
  const cases: [string, unknown][] = [
    [DEMO('sales', 'orders'), {}],
    [DEMO('sales', 'orders'), { filter: { type: 'lt', term: 'order_id', value: 12 } }],
    [DEMO('sales', 'returns'), { filter: { type: 'eq', term: 'region', value: 'US' } }],
    [DEMO('events', 'clicks'), { 'stats-fields': ['user_id'] }],
    [DEMO('sales', 'orders'), { 'min-rows-requested': 3 }],
    // literals with a decimal point are JsonFloats, which a structured clone would turn into objects
    [DEMO('sales', 'orders'), { filter: { type: 'and', left: { type: 'gt', term: 'discount', value: 0.05 }, right: { type: 'lt-eq', term: 'amount', value: 160.5 } } }],
    [DEMO('sales', 'orders'), { 'stats-fields': ['no_such_column'] }],
  ];
  if (realFixturesAvailable()) {
    cases.push(
      [REAL(['dremio-oss', 'v2'], 'products_with_eq_deletes'), {}],
      [REAL(['impala', 'iceberg_v3'], 'iceberg_v3_deletion_vectors'), {}],
      [REAL(['impala'], 'iceberg_partitioned'), { filter: { type: 'eq', term: 'action', value: 'click' } }],
      [REAL(['iceberg-cxx', 'meta_perf', 'warehouse', 'performance'], 'manifest_files'), {}],
    );
  } else t.comment(`real tables not compared: ${REAL_FIXTURES_SKIP}`);
  // a token secret shared by both, so the plan-task strings must match too
  const planning = { batchSize: 3, tokenSecret: 'a shared secret of sixteen+ chars' };
  const local = appWith(catalogs, { ...planning, workers: 0 });
  const pooled = appWith(catalogs, { ...planning, workers: 2 });
  t.teardown(async () => {
    await local.close();
    await pooled.close();
  });
  for (const [base, request] of cases) {
    const expected = await transcript(local, base, request);
    const got = await transcript(pooled, base, request);
    t.same(got, expected, `${base} ${JSON.stringify(request)}: ${expected.length} responses alike`);
  }
});

t.test('sixteen concurrent redemptions of one plan task read its manifest slice once, in the worker that owns it', async (t) => {
  // planned elsewhere: the server that planned would cut the range from the manifest it decoded
  const planner = appWith([demoCatalog()], { batchSize: 1, workers: 0 });
  const app = appWith([demoCatalog()], { batchSize: 1, workers: 2 });
  t.teardown(() => Promise.all([planner.close(), app.close()]));
  const base = DEMO('sales', 'orders');
  const plan = parse((await post(planner, `${base}/plan`, {})).body);
  const task = plan['plan-tasks']![0]!;
  const reads = async () => metric((await app.inject({ method: 'GET', url: '/metrics' })).body, 'icefront_manifest_reads_total');
  const before = await reads();
  const answers = await Promise.all(Array.from({ length: 16 }, () => post(app, `${base}/tasks`, { 'plan-task': task })));
  t.same(new Set(answers.map((a) => a.statusCode)), new Set([200]));
  t.equal(new Set(answers.map((a) => a.body)).size, 1, 'one answer for all');
  t.equal((await reads()) - before, 1, 'one manifest read for sixteen requests');
});

/** A demo-table copy whose manifests `spoil` changes: the /plan error on the event loop and with two workers must be alike. */
async function sameErrorBothWays(t: Test, spoil: (manifest: string) => void): Promise<void> {
  const copy = copyDemoTable('sales', 'orders');
  t.teardown(copy.remove);
  const metadata = path.join(copy.tableDir, 'metadata');
  for (const f of fs.readdirSync(metadata).filter((f) => f.endsWith('.avro') && !f.startsWith('snap-'))) spoil(path.join(metadata, f));
  const answers = [];
  for (const workers of [0, 2]) {
    const app = appWith([demoCatalog('demo', copy.warehouse)], { workers });
    const res = await post(app, `${DEMO('sales', 'orders')}/plan`, {});
    await app.close();
    const { error } = JSON.parse(res.body) as { error: { type: string; code: number; message: string } };
    // which manifest is named first is a race between concurrent reads, in both modes
    answers.push({ status: res.statusCode, type: error.type, code: error.code, message: error.message.replace(/[^/]+\.avro\b.*$/, '…') });
  }
  t.ok(answers[0]!.status >= 400, `event loop: ${answers[0]!.status} ${answers[0]!.message}`);
  t.same(answers[1], answers[0], 'workers: the same status and ErrorModel');
}

t.test('a file gone from under a worker is the same error as on the event loop', (t) => sameErrorBothWays(t, (f) => fs.rmSync(f)));

// a worker reads local files itself, at the path the main thread resolved: a folder there fails the read, not the lookup
t.test('a manifest the main thread finds but a worker cannot read is the same error as on the event loop', (t) =>
  sameErrorBothWays(t, (f) => {
    fs.rmSync(f);
    fs.mkdirSync(f);
  }),
);

t.test('a table larger than the slice cache is planned without keeping its slices; one that fits is kept', async (t) => {
  const reads = async (app: ReturnType<typeof appWith>) => metric((await app.inject({ method: 'GET', url: '/metrics' })).body, 'icefront_manifest_reads_total');
  const bytes = async (app: ReturnType<typeof appWith>) => metric((await app.inject({ method: 'GET', url: '/metrics' })).body, 'icefront_cache_bytes{cache="manifests"}');
  const base = DEMO('sales', 'orders');
  for (const [cacheBytes, kept] of [[64 << 20, true], [4096, false]] as const) {
    const app = appWith([demoCatalog()], { batchSize: 0, cacheBytes, workers: 1 });
    const first = await post(app, `${base}/plan`, {});
    const afterFirst = await reads(app);
    const again = await post(app, `${base}/plan`, {});
    t.equal(again.body.replace(/"plan-id":"[^"]*"/, ''), first.body.replace(/"plan-id":"[^"]*"/, ''), `cache-bytes ${cacheBytes}: the same answer`);
    if (kept) {
      t.equal(await reads(app), afterFirst, `cache-bytes ${cacheBytes}: the second plan reads no manifest`);
      t.ok((await bytes(app)) > 0, 'slices held');
    } else {
      // the inline batch is read as ranges, which are kept either way
      t.ok((await reads(app)) > afterFirst, `cache-bytes ${cacheBytes}: the manifests read again`);
    }
    await app.close();
  }
});

t.test('a plan split between two workers reports the pruning summary the event loop reports', async (t) => {
  const requests: unknown[] = [{}, { filter: { type: 'lt', term: 'order_id', value: 12 } }, { filter: { type: 'eq', term: 'region', value: 'nowhere' } }];
  const outcomes = async (workers: number): Promise<ScanOutcome[]> => {
    const config = testConfig([demoCatalog()], { batchSize: 3 });
    const service = buildService({ ...config, planning: { ...config.planning, workers } });
    t.teardown(() => service.close());
    const seen: ScanOutcome[] = [];
    for (const body of requests) await service.planTableScan('demo', { namespace: ['sales'], name: 'orders' }, body, { onOutcome: (o) => seen.push(o) });
    return seen;
  };
  const local = await outcomes(0);
  const pooled = await outcomes(2);
  t.equal(local.length, requests.length, 'one outcome per plan');
  t.ok(local.some((o) => (o.pruning?.filesPruned ?? 0) > 0), 'a filter pruned files');
  t.same(pooled, local, 'the same counts, snapshot and tasks');
});

t.test('the plan-task strings of a large plan, written by both workers, are the ones the event loop writes', async (t) => {
  // 400 one-file batches: more strings than one worker is given, so each worker writes a part
  const { catalog, base } = syntheticCatalog(t, 'wide', { manifests: 4, entriesPerManifest: 100, columns: 6 });
  const cases: [string, Partial<Config['planning']>, unknown][] = [
    ['unsigned, one string per batch', { batchSize: 1 }, {}],
    ['signed, one string per batch', { batchSize: 1, tokenSecret: 'a shared secret of sixteen+ chars' }, {}],
    // too many strings for the response: each carries a run of batches (fit-strings.ts)
    ['signed, runs of batches', { batchSize: 1, maxResponseBytes: 64 << 10, tokenSecret: 'a shared secret of sixteen+ chars' }, {}],
    // a literal with a decimal point (a JsonFloat) reaches the workers as it came; `id` keeps every file
    ['a filter carried in every string', { batchSize: 1 }, { filter: { type: 'or', left: { type: 'gt', term: 'c6', value: 0.5 }, right: { type: 'not-null', term: 'id' } } }],
  ];
  for (const [what, planning, request] of cases) {
    const local = appWith([catalog], { ...planning, workers: 0 });
    const pooled = appWith([catalog], { ...planning, workers: 2 });
    const expected = parse((await post(local, `${base}/plan`, request)).body);
    const got = parse((await post(pooled, `${base}/plan`, request)).body);
    t.ok(expected['plan-tasks']!.length > 64, `${what}: ${expected['plan-tasks']!.length} strings`);
    t.same(got['plan-tasks'], expected['plan-tasks'], `${what}: the same strings in the same order`);
    // and they are plan tasks: every file once, redeemed on the other server
    const files = new Set<string>();
    const queue = [...got['plan-tasks']!];
    for (const inline of got['file-scan-tasks'] ?? []) files.add(inline['data-file']['file-path']);
    while (queue.length > 0) {
      const r = parse((await post(local, `${base}/tasks`, { 'plan-task': queue.shift() })).body);
      for (const task of r['file-scan-tasks'] ?? []) files.add(task['data-file']['file-path']);
      queue.push(...(r['plan-tasks'] ?? []));
    }
    t.equal(files.size, 400, `${what}: every file of the table once`);
    await Promise.all([local.close(), pooled.close()]);
  }
});

t.test("a page spanning manifests of both workers' shares is written by each where the plan decoded them, and joins to the event loop's bytes", async (t) => {
  const { catalog, base } = syntheticCatalog(t, 'spread', { manifests: 8, entriesPerManifest: 40, columns: 4 });
  // pages of about three manifests' tasks, cut by bytes alone (the default: no count bound)
  const planning = { batchSize: 0, maxResponseBytes: 40 << 10 };
  const local = appWith([catalog], { ...planning, workers: 0 });
  const pooled = appWith([catalog], { ...planning, workers: 2 });
  t.teardown(() => Promise.all([local.close(), pooled.close()]));
  const reads = async () => metric((await pooled.inject({ url: '/metrics' })).body, 'icefront_manifest_reads_total');
  const first = await post(pooled, `${base}/plan`, {});
  t.equal(first.statusCode, 200);
  const afterPlan = await reads();
  t.equal(afterPlan, 8, 'the plan decoded each manifest once, split between the workers');
  const tasks = parse(first.body)['plan-tasks'] ?? [];
  t.ok(tasks.length >= 2, `${tasks.length} plan tasks`);
  const spanning = tasks.filter((task) => new Set(rangesOf(task)).size > 1);
  t.ok(spanning.length > 0, `${spanning.length} of them span more than one manifest`);
  for (const task of tasks) {
    const here = await post(pooled, `${base}/tasks`, { 'plan-task': task });
    const there = await post(local, `${base}/tasks`, { 'plan-task': task });
    t.equal(here.statusCode, 200);
    t.equal(here.body, there.body, 'the page as the event loop writes it');
  }
  t.equal(await reads(), afterPlan, 'no manifest decoded again to redeem them: each part was written by the worker holding it');
});

/** A synthetic table `bench.<name>` in a temp warehouse (removed after the test), as catalog `pool`, and its table route. */
function syntheticCatalog(t: Test, name: string, shape: { manifests: number; entriesPerManifest: number; columns: number }) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'icefront-pool-'));
  t.teardown(() => fs.rmSync(root, { recursive: true, force: true }));
  writeSyntheticTable({ root: path.join(root, 'bench', name), location: `s3://pool/warehouse/bench/${name}`, ...shape });
  return { catalog: { ...demoCatalog('pool', root), locations: [{ prefix: 's3://pool/warehouse', dir: root }] }, base: `/v1/pool/namespaces/bench/tables/${name}` };
}

/** The manifest paths of an unsigned plan task's ranges, read by decoding it (as plan-tasks.test.ts does). */
function rangesOf(task: string): string[] {
  const json = inflateRawSync(Buffer.from(task.split('.')[1]!, 'base64url')).toString('utf8');
  return [...json.matchAll(/"m":"([^"]+)"/g)].map((m) => m[1]!);
}

t.test("/metrics shows each planning worker's own heap after its jobs", async (t) => {
  const app = appWith([demoCatalog()], { batchSize: 0, workers: 2 });
  t.teardown(() => app.close());
  const before = (await app.inject({ method: 'GET', url: '/metrics' })).body;
  t.notMatch(before, /^icefront_planning_worker_heap_bytes\{/m, 'nothing reported before a worker has worked');
  t.equal((await post(app, `${DEMO('sales', 'orders')}/plan`, {})).statusCode, 200);
  const text = (await app.inject({ method: 'GET', url: '/metrics' })).body;
  let reported = 0;
  for (const worker of ['0', '1']) {
    const used = metric(text, `icefront_planning_worker_heap_bytes{worker="${worker}",kind="used"}`);
    const committed = metric(text, `icefront_planning_worker_heap_bytes{worker="${worker}",kind="committed"}`);
    if (used === 0) continue; // a plan of few manifests may give one worker no share
    reported++;
    t.ok(used > 1 << 20 && committed >= used, `worker ${worker}: ${used} bytes used of ${committed} committed`);
  }
  t.ok(reported >= 1, 'at least the worker that planned reported its heap');
});

t.test("a page joined from workers' parts is one JSON array in order, whether the parts came as strings or bytes", async (t) => {
  const parts = ['[{"a":1},{"a":2}]', '[]', Buffer.from('[{"a":"é"}]'), '[{"a":4}]'] as const;
  const joined = joinJsonArrays(parts);
  t.ok(Buffer.isBuffer(joined), 'bytes when any part is');
  t.same(JSON.parse(joined.toString()), [{ a: 1 }, { a: 2 }, { a: 'é' }, { a: 4 }]);
  t.equal(joinJsonArrays(['[1]', '[]', '[2,3]']), '[1,2,3]', 'a string when every part is, and small');
  t.equal(joinJsonArrays(['[]', Buffer.from('[]')]).toString(), '[]', 'empty parts join to an empty array');
  const large = `[${'"x",'.repeat(LARGE_JSON_BYTES / 4)}"y"]`;
  const big = joinJsonArrays([large, '[]']);
  t.ok(Buffer.isBuffer(big), 'bytes when the joined text is large (it would be a large-object string)');
  t.equal((JSON.parse(big.toString()) as unknown[]).length, LARGE_JSON_BYTES / 4 + 1);
});
