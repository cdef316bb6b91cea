/**
 * End to end (issue #11 part 2): a REST catalog that cannot plan, with its tables on S3.
 *
 *   Spark, pyiceberg, DuckDB ──▶ Icefront `s3up` ──▶ endpoint shim ──▶ Iceberg REST fixture ──▶ moto S3
 *                               (type: rest,        (hides /plan,        (S3FileIO warehouse
 *                                planning: auto)     /plan/{id}, /tasks)  s3://warehouse/wh)
 *
 * Nessie (the issue's upstream: Iceberg REST on S3, no planning) cannot be installed here, so the
 * real Iceberg REST fixture stands in for it: its warehouse is on moto's S3 server, and the
 * shim removes the four planning endpoints from its /v1/config (and answers 406 should they be
 * called anyway). Icefront, on `planning: auto`, sees no planning advertised, so it must plan
 * every scan itself: tables loaded through the upstream, manifests read from S3 with the
 * catalog's static `storage.s3` settings (the fixture vends none).
 *
 * Spark, pointed only at Icefront (client planning; the UPDATE's and MERGE's scans server
 * planned, i.e. by Icefront), writes three tables of ./tables.ts into the fixture. The truth is
 * Spark reading straight from the fixture, client-side planning. Readers through Icefront:
 * Spark and pyiceberg with scan-planning-mode=server, and DuckDB (its own client-side planning,
 * S3 through httpfs). A reader that fails or disagrees is asked the same scan straight from the
 * fixture (which plans, when asked directly): the same failure or rows there make it a todo.
 */
import t, { type Test } from 'tap';
import { ClientWorker, type CatalogRef, type ScanJob } from './harness/clients.js';
import type { Comparison } from './harness/compare.js';
import { judgeRead, truthOf } from './harness/judge.js';
import { startEndpointShim } from './harness/endpoint-shim.js';
import { restCatalog, startInteropIcefront } from './harness/icefront.js';
import { Matrix } from './harness/matrix.js';
import { startMoto } from './harness/moto.js';
import { startRestFixture } from './harness/rest-fixture.js';
import { interopToolchain } from './harness/toolchain.js';
import { INTEROP_TABLES, type FilterCase, type InteropTable } from './tables.js';

// A cold setup (pip + Maven), three tables written and ~30 scans read by four clients.
t.setTimeout(30 * 60_000);

/** The REST spec's scan-planning endpoints, as /v1/config advertises them. */
const PLANNING = [
  'POST /v1/{prefix}/namespaces/{namespace}/tables/{table}/plan',
  'GET /v1/{prefix}/namespaces/{namespace}/tables/{table}/plan/{plan-id}',
  'DELETE /v1/{prefix}/namespaces/{namespace}/tables/{table}/plan/{plan-id}',
  'POST /v1/{prefix}/namespaces/{namespace}/tables/{table}/tasks',
];
const CATALOG = 's3up';
const BUCKET = 'warehouse';
const TABLES = ['db.events', 'db.accounts', 'db.dv'].map((name) => {
  const table = INTEROP_TABLES.find((x) => x.name === name);
  if (!table) throw new Error(`tables.ts has no ${name}`);
  return table;
});

const env = await interopToolchain(t);
if (env) {
  for (const [name, version] of Object.entries(env.versions)) t.comment(`${name} ${version}`);
  const moto = await startMoto(env, [BUCKET]);
  const s3 = { endpoint: moto.endpoint, region: moto.region, accessKeyId: moto.accessKeyId, secretAccessKey: moto.secretAccessKey };
  const fixture = await startRestFixture(env, { s3: { ...s3, warehouse: `s3://${BUCKET}/wh` }, jvmOptions: ['-Xmx512m'] }).catch(async (e: unknown) => {
    await moto.close();
    throw e;
  });
  const shim = await startEndpointShim(fixture.url, PLANNING);
  // batch-size 2: Icefront's plans answer with plan tasks, so clients redeem them at /tasks.
  const ice = await startInteropIcefront([{ ...restCatalog(CATALOG, shim.url, 'auto'), storage: { s3: { ...s3, pathStyle: true } } }], { batchSize: 2 });
  const worker = ClientWorker.start(env);
  t.teardown(async () => {
    await worker.close();
    await ice.close();
    await shim.close();
    await fixture.close();
    await moto.close();
  });

  // Iceberg's S3 properties, for every client: Java's (s3.path-style-access, client.region) and
  // pyiceberg's (s3.region); each ignores the others'. The fixture vends no storage config.
  const properties = {
    's3.endpoint': moto.endpoint,
    's3.path-style-access': 'true',
    'client.region': moto.region,
    's3.region': moto.region,
    's3.access-key-id': moto.accessKeyId,
    's3.secret-access-key': moto.secretAccessKey,
  };
  const direct: CatalogRef = { name: 'fixture', uri: fixture.url, planning: 'client', properties };
  const via = (planning: 'server' | 'client'): CatalogRef => ({ name: `ice_${CATALOG}`, uri: ice.url, warehouse: CATALOG, planning, properties });

  interface Reader {
    readonly client: ScanJob['client'];
    readonly mode: string;
    readonly planning: 'server' | 'client';
    readonly files: Comparison['files'];
    /** The same client straight on the fixture (which plans when asked directly). */
    readonly control: CatalogRef;
  }
  const SERVER = 'scan-planning-mode=server';
  const readers: readonly Reader[] = [
    { client: 'spark', mode: SERVER, planning: 'server', files: 'read', control: { ...direct, planning: 'server' } },
    { client: 'pyiceberg', mode: SERVER, planning: 'server', files: 'planned', control: { ...direct, planning: 'server' } },
    { client: 'duckdb', mode: 'client-side (its own)', planning: 'client', files: 'none', control: direct },
  ];
  const matrix = new Matrix([CATALOG]);
  const snapshotsOf = new Map<string, string[]>();
  const tablePath = (name: string): string => {
    const [ns, table] = name.split('.') as [string, string];
    return `namespaces/${ns}/tables/${table}`;
  };

  await t.test('the upstream advertises no planning, so Icefront advertises its own', async (t) => {
    const fixtureConfig = (await (await fetch(`${fixture.url}/v1/config`)).json()) as { endpoints: string[] };
    t.same(PLANNING.filter((e) => !fixtureConfig.endpoints.includes(e)), [], 'the fixture itself advertises all four planning endpoints');
    const shimConfig = (await (await fetch(`${shim.url}/v1/config`)).json()) as { endpoints: string[] };
    t.same(PLANNING.filter((e) => shimConfig.endpoints.includes(e)), [], 'behind the shim, none of them is advertised');
    const res = await fetch(`${ice.url}/v1/config?warehouse=${CATALOG}`);
    t.equal(res.status, 200);
    const iceConfig = (await res.json()) as { endpoints: string[] };
    t.same(PLANNING.filter((e) => !iceConfig.endpoints.includes(e)), [], `Icefront's /v1/config for ${CATALOG} advertises the planning endpoints (it plans)`);
  });

  async function write(t: Test, table: InteropTable): Promise<void> {
    if (table.write === 'equality-delete-writer') throw new Error(`${table.name}: only Spark-written tables here`);
    await worker.run({ client: 'spark', catalog: via('client'), sql: ['CREATE NAMESPACE IF NOT EXISTS {catalog}.db'] }, 120_000);
    for (const step of table.write) {
      const sql = step.sql.replaceAll('{table}', `{catalog}.${table.name}`);
      await worker.run({ client: 'spark', catalog: via(step.planning ?? 'client'), sql: [sql] }, 300_000);
    }
    const summary = (await worker.run({
      client: 'spark',
      catalog: direct,
      query: `SELECT operation, CAST(snapshot_id AS STRING) AS id, summary FROM {catalog}.${table.name}.snapshots ORDER BY committed_at`,
    })) as { rows: Array<{ operation: string; id: string; summary: Record<string, string> }> };
    t.same(summary.rows.map((r) => r.operation), table.snapshots, `the fixture holds the snapshots of ${table.name}: ${table.snapshots.join(', ')}`);
    snapshotsOf.set(table.name, summary.rows.map((r) => r.id));
    const files = (await worker.run({ client: 'spark', catalog: direct, query: `SELECT file_path FROM {catalog}.${table.name}.all_files` })) as { rows: Array<{ file_path: string }> };
    t.ok(files.rows.length > 0 && files.rows.every((r) => r.file_path.startsWith(`s3://${BUCKET}/wh/`)), `${table.name}'s files are on S3 (s3://${BUCKET}/wh/…)`, {
      notOnS3: files.rows.filter((r) => !r.file_path.startsWith(`s3://${BUCKET}/`)).slice(0, 3),
    });
    const path = tablePath(table.name);
    const commits = ice.requests.filter((r) => r.method === 'POST' && r.url === `/v1/${CATALOG}/${path}` && r.status === 200);
    t.ok(commits.length >= table.snapshots.length, `every commit of ${table.name} went through Icefront (${commits.length} commits answered 200)`);
    for (const step of table.write.filter((s) => s.planning === 'server')) {
      const planned = ice.requests.some((r) => r.method === 'POST' && r.url === `/v1/${CATALOG}/${path}/plan` && r.status === 200 && r.body?.includes('"_pos"'));
      t.ok(planned, `the row-level DML's scan was planned by Icefront itself: ${step.sql.trim().split(/\s+/)[0]}`);
    }
    for (const r of summary.rows.filter((r) => ['delete', 'overwrite'].includes(r.operation))) {
      const added = ['added-position-delete-files', 'added-dvs'].reduce((n, k) => n + Number(r.summary[k] ?? 0), 0);
      t.ok(added > 0, `${table.name} snapshot ${r.id} (${r.operation}) wrote delete files (merge-on-read)`, { summary: r.summary });
    }
  }

  async function readAll(t: Test, table: InteropTable, f: FilterCase): Promise<void> {
    const { scan, where, truth } = await truthOf(t, worker, table, f, snapshotsOf.get(table.name), direct, 'fixture');
    for (const r of readers) {
      const c: Comparison = { table: table.name, filter: where, client: `${r.client} (${r.mode}) → icefront ${CATALOG}`, files: r.files };
      const cell = { row: `${r.client} (${r.mode})`, column: CATALOG };
      await judgeRead(t, worker, matrix, truth, { comparison: c, cell, through: scan(via(r.planning), r.client), control: scan(r.control, r.client), recent: () => ice.requests.slice(-8) });
    }
  }

  for (const table of TABLES) {
    await t.test(`table ${table.name} on S3`, async (t) => {
      const wrote = await t.test(`Spark through Icefront writes ${table.name} into the S3-backed fixture`, (t) => write(t, table));
      if (!wrote) return;
      for (const f of table.filters) {
        await t.test(`every client through Icefront reads what Spark reads straight from the fixture: ${f.name}${f.filter ? ` [${f.filter}]` : ''}`, (t) =>
          readAll(t, table, f),
        );
      }
    });
  }

  t.test('Icefront planned every scan itself; no planning request reached the upstream', async (t) => {
    const mine = (suffix: RegExp) => ice.requests.filter((r) => r.url.startsWith(`/v1/${CATALOG}/namespaces/`) && suffix.test(r.url.split('?')[0]!));
    const plans = mine(/\/plan$/).filter((r) => r.method === 'POST');
    t.ok(plans.length > 0 && plans.every((r) => r.status === 200), `Icefront answered POST /v1/${CATALOG}/…/plan (${plans.length} plans)`, {
      failed: plans.filter((r) => r.status !== 200).slice(0, 3),
    });
    const tasks = mine(/\/tasks$/).filter((r) => r.method === 'POST');
    t.ok(tasks.length > 0 && tasks.every((r) => r.status === 200), `clients redeemed Icefront's plan tasks at POST /v1/${CATALOG}/…/tasks (${tasks.length})`, {
      failed: tasks.filter((r) => r.status !== 200).slice(0, 3),
    });
    const cancels = mine(/\/plan\/[^/]+$/).filter((r) => r.method === 'DELETE');
    t.ok(cancels.length > 0 && cancels.every((r) => r.status === 204), `Spark's DELETE /v1/${CATALOG}/…/plan/{plan-id} answered 204 by Icefront (${cancels.length})`, {
      failed: cancels.filter((r) => r.status !== 204).slice(0, 3),
    });
    t.same(shim.requests.filter((r) => r.hidden), [], 'the upstream (behind the shim) never saw a planning request');
    const commits = shim.requests.filter((r) => r.method === 'POST' && /^\/v1\/namespaces\/db\/tables\/[^/]+$/.test(r.url));
    t.ok(commits.length > 0, `the commits reached the upstream through the shim (${commits.length})`);
  });

  t.test('the matrix: (table, filter) reads that agreed with the truth', async (t) => {
    for (const line of matrix.render()) t.comment(line);
    const file = matrix.write('matrix-s3.md');
    t.comment(`written to ${file}`);
    t.ok(matrix.total('agree') > 0, `${matrix.total('agree')} reads agreed`);
    t.equal(matrix.total('disagree'), 0, 'no read through Icefront disagreed with the truth');
  });
}
