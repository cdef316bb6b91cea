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
 * Trino 476 (harness/trino.ts, one server for the file) reads through every catalog, planning
 * each scan itself.
 * One worker process (one Spark JVM) runs every client job of this file. The last test prints
 * the matrix: for each client and mode, per catalog, the (table, filter) reads that agreed.
 */
import t, { type Test } from 'tap';
import { type CatalogRef, type IcebergGoListing, type ScanJob, type ScanResult } from './harness/clients.js';
import type { Comparison } from './harness/compare.js';
import { judgeRead, truthOf } from './harness/judge.js';
import { filesystemCatalog, restCatalog, startInteropIcefront, type RecordedRequest } from './harness/icefront.js';
import { runEqualityDeleteWriter } from './harness/java-writer.js';
import { Matrix } from './harness/matrix.js';
import { startEndpointShim } from './harness/endpoint-shim.js';
import { startRestFixture } from './harness/rest-fixture.js';
import { interopToolchain } from './harness/toolchain.js';
import { startReaders } from './harness/readers.js';
import { INTEROP_TABLES, type FilterCase, type InteropTable } from './tables.js';

const TASKS_ENDPOINT = 'POST /v1/{prefix}/namespaces/{namespace}/tables/{table}/tasks';

/** What clients/iceberg_go_client.py adds to a scan's result: iceberg-go's own count of its requests. */
interface IcebergGoResult extends ScanResult {
  /** By kind: `POST plan`, `POST tasks`, `GET plan/{id}`, `DELETE plan/{id}`, `GET table`, … */
  readonly requests: Readonly<Record<string, number>>;
  /** The most POST …/tasks requests it had in flight at once. */
  readonly maxTasksInFlight: number;
  /** The most plan tasks one /plan or /tasks answer listed (iceberg-go fetches those together). */
  readonly maxPlanTasksListed: number;
  /** Go's GOMAXPROCS in that process: iceberg-go's default bound on concurrent /tasks. */
  readonly gomaxprocs: number;
}

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
  const { worker, workerNext, icebergGo, trino } = await startReaders(t, env, async () => {
    await ice.close();
    await shim.close();
    await fixture.close();
  });

  const direct: CatalogRef = { name: 'fixture', uri: fixture.url, planning: 'client' };
  const via = (catalog: Catalog, planning: 'server' | 'client', client?: ScanJob['client']): CatalogRef => ({
    name: `ice_${catalog}`,
    uri: ice.url,
    warehouse: catalog,
    planning,
    ...(client === 'trino' && trino && { trino: trino.url }),
  });

  interface Reader {
    readonly client: ScanJob['client'];
    /** How the client plans: `server` (scan-planning-mode=server), `client`, or DuckDB's own. */
    readonly mode: string;
    readonly catalog: Catalog;
    readonly files: Comparison['files'];
    /** The same client asking the fixture directly: run only when this reader disagrees or fails. */
    readonly control: CatalogRef;
    /** Spark on Iceberg's next release (workerNext), with its table cache on. */
    readonly next?: boolean;
  }
  const SERVER = 'scan-planning-mode=server';
  const CLIENT = 'scan-planning-mode=client';
  const NEXT_PROPERTIES = { 'cache-enabled': 'true' };
  const readers: readonly Reader[] = [
    ...(workerNext
      ? (['fx', 'fxlocal', 'fxfs', 'fxpaged'] as const).map(
          (catalog): Reader => ({ client: 'spark', mode: SERVER, catalog, files: 'read', control: { ...direct, planning: 'server', properties: NEXT_PROPERTIES }, next: true }),
        )
      : []),
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
    // Trino 476 plans every scan itself: through fx, fxlocal and fxpaged it loads the same tables
    // from differently configured catalogs; through fxfs Icefront serves the metadata itself.
    ...(trino
      ? (['fx', 'fxlocal', 'fxfs', 'fxpaged'] as const).map((catalog): Reader => ({
          client: 'trino',
          mode: 'client-side (its own)',
          catalog,
          files: 'none',
          control: { ...direct, trino: trino.url },
        }))
      : []),
    // iceberg-go v0.7.0: server planning is its scan option WithScanPlanningMode(ScanPlanningRemote)
    // (it redeems plan tasks at /tasks concurrently, GOMAXPROCS at a time), client planning its default.
    ...(icebergGo
      ? [
          ...(['fx', 'fxlocal', 'fxfs', 'fxpaged'] as const).map(
            (catalog): Reader => ({ client: 'iceberg-go', mode: SERVER, catalog, files: 'planned', control: { ...direct, planning: 'server' } }),
          ),
          ...(['fx', 'fxfs'] as const).map((catalog): Reader => ({ client: 'iceberg-go', mode: CLIENT, catalog, files: 'planned', control: direct })),
        ]
      : []),
  ];
  const clientName = (r: Reader): string => (r.next ? `${r.client} ${env.icebergNext ?? 'next'}` : r.client);
  const readerName = (r: Reader): string => `${clientName(r)} (${r.mode}) → icefront ${r.catalog}`;
  const matrix = new Matrix(['fx', 'fxlocal', 'fxfs', 'fxpaged']);

  /** The Java equality-delete writer's one run (it commits both eq_ tables). */
  let javaWriter: Promise<unknown> | undefined;
  /** Snapshot ids per table in commit order, filled by the write step. */
  const snapshotsOf = new Map<string, string[]>();
  /** Each iceberg-go server-planning read: its catalog, the requests Icefront answered meanwhile, its result (when it agreed). */
  const icebergGoServerReads: Array<{ catalog: Catalog; requests: RecordedRequest[]; got: ScanResult | undefined }> = [];

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
    const { scan, where, truth } = await truthOf(t, worker, table, f, snapshotsOf.get(table.name), direct, 'fixture');
    const results = new Map<Reader, ScanResult>();
    for (const r of readers) {
      const c: Comparison = { table: table.name, filter: where, client: readerName(r), files: r.files };
      const cell = { row: `${clientName(r)} (${r.mode})`, column: r.catalog };
      const from = ice.requests.length;
      const got = await judgeRead(t, r.next ? workerNext! : worker, matrix, truth, {
        comparison: c,
        cell,
        through: scan({ ...via(r.catalog, r.mode === SERVER ? 'server' : 'client', r.client), ...(r.next && { properties: NEXT_PROPERTIES }) }, r.client),
        control: scan(r.control, r.client),
        recent: () => ice.requests.slice(-8),
      });
      if (got) results.set(r, got);
      // The requests Icefront answered during this read (its control goes straight to the fixture).
      if (r.client === 'iceberg-go' && r.mode === SERVER) icebergGoServerReads.push({ catalog: r.catalog, requests: ice.requests.slice(from), got });
    }
    // Same scan, two server planners: the fixture's (Java, through fx) and Icefront's own
    // (fxlocal and fxfs). They must plan the same data files and attach the same delete files to
    // each; pyiceberg and iceberg-go report both sets. Through fxpaged the fixture plans and
    // Icefront pages: the pages together must be the fixture's plan, each data file with its
    // delete files.
    for (const client of ['pyiceberg', 'iceberg-go'] as const) {
      const planOf = (catalog: Catalog): ScanResult | undefined =>
        [...results].find(([r]) => r.client === client && r.mode === SERVER && r.catalog === catalog)?.[1];
      const fixturePlan = planOf('fx');
      for (const catalog of ['fxlocal', 'fxfs', 'fxpaged'] as const) {
        const icefrontPlan = planOf(catalog);
        if (!fixturePlan || !icefrontPlan) continue;
        const at = `table ${table.name}, filter [${where}], catalog ${catalog}, as ${client} reports it`;
        t.same(icefrontPlan.files, fixturePlan.files, `${at}: Icefront's plan names the same data files as the fixture's`);
        t.same(icefrontPlan.deletes, fixturePlan.deletes, `${at}: Icefront's plan attaches the same delete files to each data file as the fixture's`);
      }
    }
  }

  // ICEFRONT_INTEROP_TABLES=db.events,db.dv: only these tables (while developing; the checks
  // after the tables then see fewer reads).
  const only = process.env['ICEFRONT_INTEROP_TABLES']?.split(',').map((n) => n.trim()).filter(Boolean);
  if (only) t.comment(`ICEFRONT_INTEROP_TABLES: only ${only.join(', ')}`);
  for (const table of INTEROP_TABLES.filter((tb) => !only || only.includes(tb.name))) {
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

  if (icebergGo) {
    t.test('iceberg-go lists each catalog, planned on the server through each, redeemed plan tasks at /tasks concurrently, and released its plans', async (t) => {
      const kind = (r: RecordedRequest): string | undefined => {
        if (r.method === 'POST' && r.url.endsWith('/plan')) return 'POST plan';
        if (r.method === 'POST' && r.url.endsWith('/tasks')) return 'POST tasks';
        if (r.method === 'DELETE' && r.url.includes('/plan/')) return 'DELETE plan/{id}';
        return undefined;
      };
      for (const catalog of ['fx', 'fxlocal', 'fxfs', 'fxpaged'] as const) {
        const listing = (await worker.run({ client: 'iceberg-go', catalog: via(catalog, 'client'), list: true })) as IcebergGoListing;
        const written = [...snapshotsOf.keys()];
        t.ok(listing.namespaces.some((ns) => ns.join('.') === 'db'), `iceberg-go lists namespace db through ${catalog}`, { namespaces: listing.namespaces });
        t.same(
          written.filter((name) => !listing.tables.includes(name)),
          [],
          `iceberg-go lists every table written (${written.length}) through ${catalog}`,
          { tables: listing.tables },
        );
        const reads = icebergGoServerReads.filter((r) => r.catalog === catalog);
        const of = (k: string) => reads.flatMap((r) => r.requests.filter((q) => kind(q) === k));
        const [plans, tasks, cancels] = [of('POST plan'), of('POST tasks'), of('DELETE plan/{id}')];
        t.ok(reads.length > 0 && reads.every((r) => r.requests.some((q) => kind(q) === 'POST plan' && q.status === 200)), `every iceberg-go read through ${catalog} sent POST /v1/${catalog}/…/plan, answered 200`, {
          reads: reads.length,
          failed: plans.filter((q) => q.status !== 200).slice(0, 3),
        });
        // What iceberg-go counted at its own HTTP transport is what Icefront answered, read by read.
        const agreed = reads.flatMap((r) => (r.got ? [{ ...r, got: r.got as IcebergGoResult }] : []));
        const mismatched = agreed.filter((r) => ['POST plan', 'POST tasks'].some((k) => (r.got.requests[k] ?? 0) !== r.requests.filter((q) => kind(q) === k).length));
        t.same(
          mismatched.map((r) => ({ iceberggo: r.got.requests, icefront: r.requests.map((q) => `${q.method} ${q.url} ${q.status}`) })),
          [],
          `through ${catalog}, iceberg-go sent exactly the /plan and /tasks requests Icefront answered`,
        );
        // iceberg-go releases a completed plan (no plan-scoped credentials) once its tasks are in hand.
        t.ok(cancels.length > 0 && reads.every((r) => r.requests.some((q) => kind(q) === 'DELETE plan/{id}' && q.status === 204)), `every iceberg-go read through ${catalog} sent DELETE /v1/${catalog}/…/plan/{plan-id}, answered 204`, {
          failed: cancels.filter((q) => q.status !== 204).slice(0, 3),
        });
        const concurrent = Math.max(0, ...agreed.map((r) => r.got.maxTasksInFlight));
        const procs = Math.min(...agreed.map((r) => r.got.gomaxprocs));
        // Reads where one answer listed several plan tasks, which iceberg-go then fetches together.
        const fanouts = agreed.filter((r) => r.got.maxPlanTasksListed >= 2);
        t.comment(
          `iceberg-go through ${catalog}: ${reads.length} reads, ${plans.length} /plan, ${tasks.length} /tasks (at most ${concurrent} in flight at once, GOMAXPROCS ${procs}; ${fanouts.length} reads were answered several plan tasks at once), ${cancels.length} DELETE /plan/{id}`,
        );
        if (catalog === 'fx') continue; // the fixture answers these small tables inline
        t.ok(tasks.length > 0 && tasks.every((q) => q.status === 200), `iceberg-go redeemed plan tasks at POST /v1/${catalog}/…/tasks, each answered 200`, {
          count: tasks.length,
          failed: tasks.filter((q) => q.status !== 200).slice(0, 3),
        });
        // It fetches the plan tasks one answer lists GOMAXPROCS at a time (collectScanTasksWithConcurrency).
        if (procs >= 2 && fanouts.length > 0) {
          t.ok(
            Math.max(...fanouts.map((r) => r.got.maxTasksInFlight)) >= 2,
            `iceberg-go had several POST /v1/${catalog}/…/tasks in flight at once (${fanouts.length} reads were answered several plan tasks at once)`,
          );
        }
      }
    });
  }

  t.test('fxpaged: the fixture planned every scan, Icefront paged it, and /tasks never reached the fixture', async (t) => {
    const hidden = shim.requests.filter((r) => r.hidden);
    t.same(hidden, [], 'no request to a hidden endpoint reached the shim');
    const upstreamPlans = shim.requests.filter((r) => r.method === 'POST' && r.url.endsWith('/plan'));
    t.ok(upstreamPlans.length > 0, `the fixture planned through the shim (${upstreamPlans.length} /plan requests)`);
  });

  t.test('fxpaged: 64 concurrent redemptions of one plan on a cold replica make one upstream /plan call', async (t) => {
    if (!snapshotsOf.has('db.events')) return t.skip('db.events was not written (ICEFRONT_INTEROP_TABLES)', () => {});
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
