/**
 * End to end: Spark, pointed only at Icefront, writes the tables of ./tables.ts into the Iceberg
 * REST fixture (identity, day, hour, bucket and truncate partitions; merge-on-read DELETE, UPDATE
 * and MERGE; deletion vectors in format v3; schema and partition evolution; several snapshots),
 * plus two tables whose equality deletes Iceberg Java's own writers commit through Icefront.
 * The truth is Spark reading straight from the fixture with client-side planning. Every other
 * reader goes through Icefront, and must return the same rows for each table and filter:
 *   - catalog `fx` (type: rest, planning: upstream): the fixture plans when the client asks;
 *   - catalog `fxlocal` (type: rest, planning: local): tables loaded through the fixture, Icefront
 *     plans them, reading the fixture's file: metadata within `storage.local` roots;
 *   - catalog `fxfs` (type: filesystem over the fixture's warehouse folder): Icefront plans;
 *   - catalog `fxpaged` (type: rest, planning: auto) in front of the fixture behind a shim that
 *     hides its `/tasks`: an upstream that plans but cannot page (Gravitino's today), for which
 *     `auto` picks `upstream-paged`: the fixture plans, Icefront pages its answer.
 * One worker process (one Spark JVM) runs every client job of this file. The last test prints
 * the matrix: for each client and mode, per catalog, the (table, filter) reads that agreed.
 */
import t, { type Test } from 'tap';
import { ClientWorker, type CatalogRef, type ScanJob, type ScanResult } from './harness/clients.js';
import type { Comparison } from './harness/compare.js';
import { judgeRead, scanOf } from './harness/judge.js';
import { filesystemCatalog, restCatalog, startInteropIcefront } from './harness/icefront.js';
import { runEqualityDeleteWriter } from './harness/java-writer.js';
import { Matrix } from './harness/matrix.js';
import { startEndpointShim } from './harness/endpoint-shim.js';
import { startRestFixture } from './harness/rest-fixture.js';
import { interopToolchain } from './harness/toolchain.js';
import { INTEROP_TABLES, type FilterCase, type InteropTable } from './tables.js';

const TASKS_ENDPOINT = 'POST /v1/{prefix}/namespaces/{namespace}/tables/{table}/tasks';

// Setup on a cold machine (pip + Maven downloads), the writes and ~500 reads in one Spark JVM.
t.setTimeout(40 * 60_000);

type Catalog = 'fx' | 'fxlocal' | 'fxfs' | 'fxpaged';

const env = await interopToolchain(t);
if (env) {
  const toolchain = env;
  for (const [name, version] of Object.entries(env.versions)) t.comment(`${name} ${version}`);
  const fixture = await startRestFixture(env);
  // The fixture as an upstream that plans but cannot page: /tasks hidden from its /v1/config.
  const shim = await startEndpointShim(fixture.url, [TASKS_ENDPOINT]);
  // batch-size 2: Icefront's own plans (fxfs, fxlocal) answer with plan tasks, so clients redeem
  // them at /tasks (the fixture batches 100 file tasks per plan task, more than these tables have).
  const ice = await startInteropIcefront(
    [
      restCatalog('fx', fixture.url, 'upstream'),
      { ...restCatalog('fxlocal', fixture.url, 'local'), storage: { local: { roots: [fixture.warehouseDir], locations: [] } } },
      filesystemCatalog('fxfs', fixture.warehouseDir),
      restCatalog('fxpaged', shim.url, 'auto'),
    ],
    { batchSize: 2 },
  );
  const worker = ClientWorker.start(env);
  t.teardown(async () => {
    await worker.close();
    await ice.close();
    await shim.close();
    await fixture.close();
  });

  const direct: CatalogRef = { name: 'fixture', uri: fixture.url, planning: 'client' };
  const via = (catalog: Catalog, planning: 'server' | 'client'): CatalogRef => ({ name: `ice_${catalog}`, uri: ice.url, warehouse: catalog, planning });

  interface Reader {
    readonly client: ScanJob['client'];
    /** How the client plans: `server` (scan-planning-mode=server), `client`, or DuckDB's own. */
    readonly mode: string;
    readonly catalog: Catalog;
    readonly files: Comparison['files'];
    /** The same client asking the fixture directly: run only when this reader disagrees or fails. */
    readonly control: CatalogRef;
  }
  const SERVER = 'scan-planning-mode=server';
  const CLIENT = 'scan-planning-mode=client';
  const readers: readonly Reader[] = [
    { client: 'spark', mode: SERVER, catalog: 'fx', files: 'read', control: { ...direct, planning: 'server' } },
    { client: 'spark', mode: SERVER, catalog: 'fxlocal', files: 'read', control: { ...direct, planning: 'server' } },
    { client: 'spark', mode: SERVER, catalog: 'fxfs', files: 'read', control: { ...direct, planning: 'server' } },
    { client: 'spark', mode: SERVER, catalog: 'fxpaged', files: 'read', control: { ...direct, planning: 'server' } },
    { client: 'pyiceberg', mode: SERVER, catalog: 'fx', files: 'planned', control: { ...direct, planning: 'server' } },
    { client: 'pyiceberg', mode: SERVER, catalog: 'fxlocal', files: 'planned', control: { ...direct, planning: 'server' } },
    { client: 'pyiceberg', mode: SERVER, catalog: 'fxfs', files: 'planned', control: { ...direct, planning: 'server' } },
    { client: 'pyiceberg', mode: SERVER, catalog: 'fxpaged', files: 'planned', control: { ...direct, planning: 'server' } },
    { client: 'pyiceberg', mode: CLIENT, catalog: 'fx', files: 'planned', control: direct },
    { client: 'pyiceberg', mode: CLIENT, catalog: 'fxfs', files: 'planned', control: direct },
    { client: 'spark', mode: CLIENT, catalog: 'fxfs', files: 'read', control: direct },
    { client: 'duckdb', mode: 'client-side (its own)', catalog: 'fx', files: 'none', control: direct },
    { client: 'duckdb', mode: 'client-side (its own)', catalog: 'fxfs', files: 'none', control: direct },
    { client: 'duckdb', mode: 'client-side (its own)', catalog: 'fxpaged', files: 'none', control: direct },
  ];
  const readerName = (r: Reader): string => `${r.client} (${r.mode}) → icefront ${r.catalog}`;
  const matrix = new Matrix(['fx', 'fxlocal', 'fxfs', 'fxpaged']);

  /** The Java equality-delete writer's one run (it commits both eq_ tables). */
  let javaWriter: Promise<unknown> | undefined;
  /** Snapshot ids per table in commit order, filled by the write step. */
  const snapshotsOf = new Map<string, string[]>();

  async function write(t: Test, table: InteropTable): Promise<void> {
    await worker.run({ client: 'spark', catalog: via('fx', 'client'), sql: ['CREATE NAMESPACE IF NOT EXISTS {catalog}.db'] }, 120_000);
    const steps = table.write === 'equality-delete-writer' ? [] : table.write;
    if (table.write === 'equality-delete-writer') await (javaWriter ??= runEqualityDeleteWriter(toolchain, ice.url, 'fx'));
    for (const step of steps) {
      const sql = step.sql.replaceAll('{table}', `{catalog}.${table.name}`);
      await worker.run({ client: 'spark', catalog: via('fx', step.planning ?? 'client'), sql: [sql] }, 300_000);
    }
    // The fixture's own record of what landed (Spark straight to the fixture).
    const summary = (await worker.run({
      client: 'spark',
      catalog: direct,
      query: `SELECT operation, CAST(snapshot_id AS STRING) AS id, summary FROM {catalog}.${table.name}.snapshots ORDER BY committed_at`,
    })) as { rows: Array<{ operation: string; id: string; summary: Record<string, string> }> };
    t.same(summary.rows.map((r) => r.operation), table.snapshots, `the fixture holds the snapshots of ${table.name}: ${table.snapshots.join(', ')}`);
    snapshotsOf.set(table.name, summary.rows.map((r) => r.id));
    const [ns, name] = table.name.split('.') as [string, string];
    const commits = ice.requests.filter((r) => r.method === 'POST' && r.url === `/v1/fx/namespaces/${ns}/tables/${name}` && r.status === 200);
    t.ok(commits.length >= table.snapshots.length, `every commit of ${table.name} went through Icefront (${commits.length} commits answered 200)`);
    for (const step of steps.filter((s) => s.planning === 'server')) {
      const planned = ice.requests.some((r) => r.method === 'POST' && r.url === `/v1/fx/namespaces/${ns}/tables/${name}/plan` && r.body?.includes('"_pos"'));
      t.ok(planned, `the row-level DML's scan was planned by the fixture, through Icefront: ${step.sql.trim().split(/\s+/)[0]}`);
    }
    const rowLevel = summary.rows.filter((r) => ['delete', 'overwrite'].includes(r.operation));
    for (const r of rowLevel) {
      const added = ['added-position-delete-files', 'added-dvs', 'added-equality-delete-files'].reduce((n, k) => n + Number(r.summary[k] ?? 0), 0);
      t.ok(added > 0, `${table.name} snapshot ${r.id} (${r.operation}) wrote delete files (merge-on-read)`, { summary: r.summary });
    }
  }

  async function readAll(t: Test, table: InteropTable, f: FilterCase): Promise<void> {
    const snapshot = f.at === undefined ? undefined : snapshotsOf.get(table.name)?.[f.at];
    if (f.at !== undefined && snapshot === undefined) throw new Error(`${table.name} has no snapshot #${f.at}`);
    const where = `${f.filter ?? 'none'}${snapshot ? ` @ snapshot ${snapshot}` : ''}`;
    const scan = scanOf(table, f, snapshot);
    const truth = await worker.run(scan(direct, 'spark'));
    t.ok(truth.count > 0, `truth (spark → fixture, client planning) has rows for ${table.name} [${where}]`);
    const results = new Map<Reader, ScanResult>();
    for (const r of readers) {
      const c: Comparison = { table: table.name, filter: where, client: readerName(r), files: r.files };
      const cell = { row: `${r.client} (${r.mode})`, column: r.catalog };
      const got = await judgeRead(t, worker, matrix, truth, {
        comparison: c,
        cell,
        through: scan(via(r.catalog, r.mode === SERVER ? 'server' : 'client'), r.client),
        control: scan(r.control, r.client),
        recent: () => ice.requests.slice(-8),
      });
      if (got) results.set(r, got);
    }
    // Same scan, two server planners: the fixture's (Java, through fx) and Icefront's own
    // (fxlocal and fxfs). They must plan the same data files and attach the same delete files to
    // each; pyiceberg reports both sets. Through fxpaged the fixture plans and Icefront pages: the
    // pages together must be the fixture's plan, each data file with its delete files.
    const planOf = (catalog: Catalog): ScanResult | undefined =>
      [...results].find(([r]) => r.client === 'pyiceberg' && r.mode === SERVER && r.catalog === catalog)?.[1];
    const fixturePlan = planOf('fx');
    for (const catalog of ['fxlocal', 'fxfs', 'fxpaged'] as const) {
      const icefrontPlan = planOf(catalog);
      if (!fixturePlan || !icefrontPlan) continue;
      const at = `table ${table.name}, filter [${where}], catalog ${catalog}`;
      t.same(icefrontPlan.files, fixturePlan.files, `${at}: Icefront's plan names the same data files as the fixture's`);
      t.same(icefrontPlan.deletes, fixturePlan.deletes, `${at}: Icefront's plan attaches the same delete files to each data file as the fixture's`);
    }
  }

  for (const table of INTEROP_TABLES) {
    await t.test(`table ${table.name}`, async (t) => {
      const wrote = await t.test(`Spark through Icefront writes ${table.name} into the fixture`, (t) => write(t, table));
      if (!wrote) return;
      for (const f of table.filters) {
        await t.test(`every client through Icefront reads what Spark reads straight from the fixture: ${f.name}${f.filter ? ` [${f.filter}]` : ''}`, (t) =>
          readAll(t, table, f),
        );
      }
    });
  }

  t.test('the server-planning clients really planned on the server, and Spark’s plan cancellations succeeded', async (t) => {
    for (const catalog of ['fx', 'fxlocal', 'fxfs', 'fxpaged']) {
      const plans = ice.requests.filter((r) => r.method === 'POST' && r.url.startsWith(`/v1/${catalog}/namespaces/`) && r.url.endsWith('/plan'));
      // Through fx the fixture answers; it refuses pyiceberg's decimal literals on double
      // columns (400, a client-cannot cell of the matrix). Icefront's own planners answer all.
      const refused = (r: (typeof plans)[number]): boolean => (catalog === 'fx' || catalog === 'fxpaged') && r.status === 400;
      t.ok(plans.length > 0 && plans.every((r) => r.status === 200 || refused(r)), `Icefront answered POST /v1/${catalog}/…/plan`, {
        failed: plans.filter((r) => r.status !== 200 && !refused(r)).slice(0, 3),
      });
      if (catalog !== 'fx') {
        const tasks = ice.requests.filter((r) => r.method === 'POST' && r.url.startsWith(`/v1/${catalog}/namespaces/`) && r.url.endsWith('/tasks'));
        t.ok(tasks.length > 0 && tasks.every((r) => r.status === 200), `clients redeemed Icefront's plan tasks at POST /v1/${catalog}/…/tasks`, {
          count: tasks.length,
          failed: tasks.filter((r) => r.status !== 200).slice(0, 3),
        });
      }
      // The Java client cancels every plan it got an id for when its task iterable closes (§9 of the notes).
      const cancels = ice.requests.filter((r) => r.method === 'DELETE' && r.url.startsWith(`/v1/${catalog}/namespaces/`) && r.url.includes('/plan/'));
      const failed = cancels.filter((r) => r.status !== 204);
      t.ok(cancels.length > 0, `Spark sent DELETE /v1/${catalog}/…/plan/{plan-id}`);
      t.ok(failed.length === 0, `every DELETE /v1/${catalog}/…/plan/{plan-id} answered 204`, { failed: failed.slice(0, 3) });
    }
  });

  t.test('fxpaged: the fixture planned every scan, Icefront paged it, and /tasks never reached the fixture', async (t) => {
    const hidden = shim.requests.filter((r) => r.hidden);
    t.same(hidden, [], 'no request to a hidden endpoint reached the shim');
    const upstreamPlans = shim.requests.filter((r) => r.method === 'POST' && r.url.endsWith('/plan'));
    t.ok(upstreamPlans.length > 0, `the fixture planned through the shim (${upstreamPlans.length} /plan requests)`);
  });

  t.test('fxpaged: 64 concurrent redemptions of one plan on a cold replica make one upstream /plan call', async (t) => {
    const cold = await startInteropIcefront([restCatalog('fxpaged', shim.url, 'auto')], { batchSize: 2 });
    t.teardown(() => cold.close());
    const table = `/v1/fxpaged/namespaces/db/tables/events`;
    const post = (base: string, route: string, body: unknown) =>
      fetch(`${base}${table}/${route}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const planned = (await (await post(ice.url, 'plan', {})).json()) as { 'plan-tasks'?: string[]; 'file-scan-tasks': unknown[] };
    const task = planned['plan-tasks']?.[0];
    if (!t.ok(task, 'db.events pages into plan tasks at batch-size 2')) return;
    const before = shim.requests.filter((r) => r.method === 'POST' && r.url.endsWith('/plan')).length;
    const answers = await Promise.all(Array.from({ length: 64 }, () => post(cold.url, 'tasks', { 'plan-task': task }).then(async (r) => [r.status, await r.text()] as const)));
    t.same([...new Set(answers.map(([status]) => status))], [200], 'all 64 answered 200');
    t.equal(new Set(answers.map(([, body]) => body)).size, 1, 'with the same bytes');
    const after = shim.requests.filter((r) => r.method === 'POST' && r.url.endsWith('/plan')).length;
    t.equal(after - before, 1, "the fixture's request log (the shim) saw one /plan");
    const metrics = await (await fetch(`${cold.url}/metrics`)).text();
    t.match(metrics, /^icefront_upstream_plans_total 1$/m, "the cold replica's /metrics counts one upstream plan");
    const warm = await (await post(ice.url, 'tasks', { 'plan-task': task })).text();
    t.equal(answers[0]![1], warm, 'the cold replica answers what the planning replica answers');
  });

  t.test('the matrix: (table, filter) reads that agreed with the truth', async (t) => {
    for (const line of matrix.render()) t.comment(line);
    const file = matrix.write();
    t.comment(`written to ${file}`);
    t.ok(matrix.total('agree') > 0, `${matrix.total('agree')} reads agreed`);
    t.equal(matrix.total('disagree'), 0, 'no read through Icefront disagreed with the truth');
  });
}
