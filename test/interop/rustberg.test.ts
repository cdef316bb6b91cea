/**
 * Rustberg 0.3.0 behind Icefront (issue #29 item 4): a second, independent upstream, written in
 * Rust on iceberg-rust, with authentication on.
 *
 *   clients ──▶ Icefront rb (type: rest, planning: auto, auth: bearer <Rustberg's API key>)
 *                 ──▶ a recording shim (harness/endpoint-shim.ts, nothing hidden) ──▶ Rustberg
 *   the truth: Spark straight on Rustberg, client planning, with the key as its token
 *
 * Rustberg advertises all four planning endpoints but plans synchronously and answers every task
 * inline (up to 25,000; never a plan task; its /tasks is a 404). Under `auto` Icefront judges it
 * by its answers: at batch-size 2 every answer of more than two tasks reaches the client paged,
 * its pages redeemed at Icefront's /tasks, which never reach Rustberg.
 *   (a) Spark writes the suite's tables (tables.ts) through Icefront into Rustberg; Rustberg's
 *       own snapshots list the operations;
 *   (b) every client of the suite reads every table and filter through Icefront: Spark 1.11 and
 *       1.12, pyiceberg and iceberg-go with server planning (and with client planning), DuckDB and
 *       Trino with their own; rows equal to the truth;
 *   (c) no /tasks reached Rustberg; clients redeemed Icefront's page tasks; callers never saw the key;
 *   (d) Spark writes with client planning: Rustberg refuses to plan a row-level DML's scan (its
 *       select names metadata columns), straight as through Icefront, where the error names rb;
 *   (e) a plan over Rustberg's 25,000-task cap: a clear Iceberg error naming the catalog, at once.
 */
import t, { type Test } from 'tap';
import type { CatalogRef, ScanJob } from './harness/clients.js';
import type { Comparison } from './harness/compare.js';
import { firstLine, judgeRead, truthOf } from './harness/judge.js';
import { restCatalog, startInteropIcefront } from './harness/icefront.js';
import { runEqualityDeleteWriter } from './harness/java-writer.js';
import { Matrix } from './harness/matrix.js';
import { startEndpointShim } from './harness/endpoint-shim.js';
import { startRustbergFor } from './harness/rustberg.js';
import { interopToolchain } from './harness/toolchain.js';
import { startReaders } from './harness/readers.js';
import { INTEROP_TABLES, type FilterCase, type InteropTable } from './tables.js';

// A cold machine: Rustberg's build (CI starts it first, in the background), then the toolchain.
t.setTimeout(60 * 60_000);

const env = await interopToolchain(t);
const rustberg = env && (await startRustbergFor(t));
if (env && rustberg) {
  const toolchain = env;
  const shim = await startEndpointShim(rustberg.url, []);
  const ice = await startInteropIcefront([{ ...restCatalog('rb', shim.url, 'auto'), auth: { mode: 'bearer', token: rustberg.apiKey } }], { batchSize: 2 });
  const { worker, workerNext, icebergGo, trino } = await startReaders(t, env, async () => {
    await ice.close();
    await shim.close();
    await rustberg.close();
  });

  /**
   * Straight on Rustberg, with its key (Iceberg's `token` property: a bearer token) and its one
   * warehouse by name (it refuses any other `?warehouse=`, DuckDB's empty one included).
   */
  const direct: CatalogRef = { name: 'rustberg', uri: rustberg.url, warehouse: `file://${rustberg.warehouseDir}`, planning: 'client', properties: { token: rustberg.apiKey } };
  const via = (planning: 'server' | 'client', client?: ScanJob['client']): CatalogRef => ({
    name: 'ice_rb',
    uri: ice.url,
    warehouse: 'rb',
    planning,
    ...(client === 'trino' && trino && { trino: trino.url }),
  });
  const SERVER = 'scan-planning-mode=server';
  const CLIENT = 'scan-planning-mode=client';
  const OWN = 'client-side (its own)';
  interface Reader {
    readonly client: ScanJob['client'];
    readonly mode: string;
    readonly files: Comparison['files'];
    readonly next?: boolean;
  }
  const readers: readonly Reader[] = [
    { client: 'spark', mode: SERVER, files: 'read' },
    ...(workerNext ? [{ client: 'spark', mode: SERVER, files: 'read', next: true } as const] : []),
    { client: 'pyiceberg', mode: SERVER, files: 'planned' },
    ...(icebergGo ? [{ client: 'iceberg-go', mode: SERVER, files: 'planned' } as const] : []),
    { client: 'spark', mode: CLIENT, files: 'read' },
    { client: 'pyiceberg', mode: CLIENT, files: 'planned' },
    ...(icebergGo ? [{ client: 'iceberg-go', mode: CLIENT, files: 'planned' } as const] : []),
    { client: 'duckdb', mode: OWN, files: 'none' },
    ...(trino ? [{ client: 'trino', mode: OWN, files: 'none' } as const] : []),
  ];
  const clientName = (r: Reader): string => (r.next ? `${r.client} ${env.icebergNext ?? 'next'}` : r.client);
  const NEXT_PROPERTIES = { 'cache-enabled': 'true' };
  const matrix = new Matrix(['rb']);
  const snapshotsOf = new Map<string, string[]>();
  let javaWriter: Promise<unknown> | undefined;

  async function write(t: Test, table: InteropTable): Promise<void> {
    await worker.run({ client: 'spark', catalog: via('client'), sql: ['CREATE NAMESPACE IF NOT EXISTS {catalog}.db'] }, 120_000);
    if (table.write === 'equality-delete-writer') await (javaWriter ??= runEqualityDeleteWriter(toolchain, ice.url, 'rb'));
    // Client planning for every write: Rustberg cannot plan a row-level DML's scan (see the test below).
    for (const step of table.write === 'equality-delete-writer' ? [] : table.write) {
      await worker.run({ client: 'spark', catalog: via('client'), sql: [step.sql.replaceAll('{table}', `{catalog}.${table.name}`)] }, 300_000);
    }
    const summary = (await worker.run({
      client: 'spark',
      catalog: direct,
      query: `SELECT operation, CAST(snapshot_id AS STRING) AS id FROM {catalog}.${table.name}.snapshots ORDER BY committed_at`,
    })) as { rows: Array<{ operation: string; id: string }> };
    t.same(summary.rows.map((r) => r.operation), table.snapshots, `Rustberg holds the snapshots of ${table.name}: ${table.snapshots.join(', ')}`);
    snapshotsOf.set(table.name, summary.rows.map((r) => r.id));
  }

  async function readAll(t: Test, table: InteropTable, f: FilterCase): Promise<void> {
    const { scan, where, truth } = await truthOf(t, worker, table, f, snapshotsOf.get(table.name), direct, 'Rustberg');
    for (const r of readers) {
      const server = r.mode === SERVER;
      const properties = r.next ? NEXT_PROPERTIES : undefined;
      const through = scan({ ...via(server ? 'server' : 'client', r.client), ...(properties && { properties }) }, r.client);
      const control = scan({ ...direct, planning: server ? 'server' : 'client', properties: { ...direct.properties, ...properties }, ...(r.client === 'trino' && trino && { trino: trino.url }) }, r.client);
      await judgeRead(t, r.next ? workerNext! : worker, matrix, truth, {
        comparison: { table: table.name, filter: where, client: `${clientName(r)} (${r.mode}) → icefront rb`, files: r.files },
        cell: { row: `${clientName(r)} (${r.mode})`, column: 'rb' },
        through,
        control,
        recent: () => ice.requests.slice(-8),
      });
    }
  }

  const only = process.env['ICEFRONT_INTEROP_TABLES']?.split(',').map((n) => n.trim()).filter(Boolean);
  for (const table of INTEROP_TABLES.filter((tb) => !only || only.includes(tb.name))) {
    await t.test(`table ${table.name}`, async (t) => {
      const wrote = await t.test(`Spark through Icefront writes ${table.name} into Rustberg`, (t) => write(t, table));
      if (!wrote) return;
      for (const f of table.filters) {
        await t.test(`every client through Icefront reads what Spark reads straight from Rustberg: ${f.name}${f.filter ? ` [${f.filter}]` : ''}`, (t) => readAll(t, table, f));
      }
    });
  }

  t.test("Rustberg's plans reached clients paged by Icefront; its /tasks was never asked; its key never left Icefront", async (t) => {
    const plans = ice.requests.filter((r) => r.method === 'POST' && r.url.endsWith('/plan'));
    const tasks = ice.requests.filter((r) => r.method === 'POST' && r.url.endsWith('/tasks'));
    t.ok(plans.length > 0, `clients planned on the server through rb (${plans.length} /plan)`);
    t.ok(tasks.length > 0 && tasks.every((r) => r.status === 200), `clients redeemed Icefront's page tasks at /tasks, each answered 200 (${tasks.length})`, {
      failed: tasks.filter((r) => r.status !== 200).slice(0, 3),
    });
    t.same(shim.requests.filter((r) => r.url.split('?')[0]!.endsWith('/tasks')), [], 'no /tasks reached Rustberg');
    const upstreamPlans = shim.requests.filter((r) => r.method === 'POST' && r.url.endsWith('/plan'));
    t.ok(upstreamPlans.length > 0, `Rustberg planned (${upstreamPlans.length} /plan reached it)`);
    const config = await (await fetch(`${ice.url}/v1/config?warehouse=rb`)).text();
    t.notMatch(config, rustberg.apiKey, "Icefront's /v1/config does not carry Rustberg's key");
  });

  t.test("Rustberg cannot plan a row-level DML's scan (its select names metadata columns): it refuses the same DELETE straight, and Icefront names the catalog", async (t) => {
    const sql = (table: string) => [
      `CREATE TABLE {catalog}.db.${table} (id bigint, grp string) USING iceberg PARTITIONED BY (grp) TBLPROPERTIES ('format-version'='2', 'write.delete.mode'='merge-on-read')`,
      `INSERT INTO {catalog}.db.${table} VALUES (1, 'a'), (2, 'b'), (3, 'a')`,
    ];
    await worker.run({ client: 'spark', catalog: via('client'), sql: sql('dml_via') }, 300_000);
    await worker.run({ client: 'spark', catalog: direct, sql: sql('dml_direct') }, 300_000);
    const attempt = (catalog: CatalogRef, table: string) =>
      worker.run({ client: 'spark', catalog, sql: [`DELETE FROM {catalog}.db.${table} WHERE id = 2`] }, 300_000).then(
        () => 'no error',
        (e: Error) => firstLine(e.message),
      );
    const through = await attempt(via('server'), 'dml_via');
    const straight = await attempt({ ...direct, planning: 'server' }, 'dml_direct');
    t.match(straight, /BadRequestException.*Column _\w+/, "straight on Rustberg, Spark's server-planned DELETE is refused: its scan selects a metadata column", { straight });
    t.match(through, /Catalog 'rb': the upstream could not plan this scan: Column _\w+/, 'through Icefront the same refusal, naming the catalog', { through });
  });

  t.test("a plan over Rustberg's 25,000-task cap is a clear Iceberg error naming the catalog, not a hang", async (t) => {
    await worker.run({ client: 'spark', catalog: via('client'), sql: ['CREATE TABLE {catalog}.db.wide (id bigint) USING iceberg'] }, 120_000);
    // 25,001 data files that exist only in metadata: planning reads the manifest, nothing reads the files.
    await worker.run({ client: 'spark', catalog: via('client'), metadataOnlyAppend: 'db.wide', files: 25_001 }, 600_000);
    const started = Date.now();
    const res = await fetch(`${ice.url}/v1/rb/namespaces/db/tables/wide/plan`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    const seconds = (Date.now() - started) / 1000;
    const body = (await res.json()) as { error?: { message: string; type: string; code: number } };
    t.equal(res.status, 400, `POST …/plan answered ${res.status} in ${seconds.toFixed(1)} s`);
    t.equal(body.error?.type, 'BadRequestException');
    t.match(body.error?.message, /^Catalog 'rb': the upstream could not plan this scan: .*25000/, 'the message names the catalog and the cap', { message: body.error?.message });
    // A client: Spark asking for server planning gets the same error, and does not hang.
    const read = await worker.run({ client: 'spark', catalog: via('server'), query: 'SELECT count(*) AS n FROM {catalog}.db.wide' }, 300_000).then(
      () => 'no error',
      (e: Error) => e.message,
    );
    t.match(read, /Catalog 'rb': the upstream could not plan this scan/, "Spark's server-planning read fails with Icefront's message", { read: read.slice(0, 500) });
    const straight = await worker.run({ client: 'spark', catalog: { ...direct, planning: 'server' }, query: 'SELECT count(*) AS n FROM {catalog}.db.wide' }, 300_000).then(
      () => 'no error',
      (e: Error) => e.message,
    );
    t.match(straight, /25000/, 'straight on Rustberg the same read fails on the same cap (its own message)', { straight: straight.slice(0, 500) });
  });

  t.test('the matrix: (table, filter) reads through Icefront rb that agreed with Spark straight on Rustberg', async (t) => {
    for (const line of matrix.render()) t.comment(line);
    t.comment(`written to ${matrix.write('matrix-rustberg.md')}`);
    t.ok(matrix.total('agree') > 0, `${matrix.total('agree')} reads agreed`);
    t.equal(matrix.total('disagree'), 0, 'no read through Icefront disagreed with the truth');
  });
}
