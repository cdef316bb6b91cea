/**
 * A `sql` catalog whose warehouse is on S3 (issue #40 item 3), with real engines on both sides:
 *
 *   pyiceberg, Spark ──REST──▶ Icefront `lake` ──▶ SQLite file (Iceberg's JDBC catalog tables)
 *   (credentials only:         (type: sql,        └▶ moto's S3: s3://lake/wh (metadata written by
 *    endpoint, region and       warehouse-location     Icefront; data and manifests by the clients)
 *    path style come from       s3://lake/wh)
 *    Icefront's table config)
 *
 *   independent readers of the same store, never through Icefront: pyiceberg's SqlCatalog and
 *   Spark's JdbcCatalog (S3FileIO) on the same SQLite file, with moto's S3 settings.
 *
 * pyiceberg writes through Icefront (create namespace, create table, appends, an overwrite and a
 * delete with a filter), Spark appends through Icefront; each must read back, straight from the
 * store, exactly the rows the statements leave (kept here, never read back from Icefront). The
 * table is then read through Icefront with server-side planning (pyiceberg, Spark), and planned by
 * Icefront's own /plan and /tasks, whose data files must be the ones the store's reader plans. A
 * write straight into the store (pyiceberg's SqlCatalog) is seen by the next read through Icefront.
 * A purge through Icefront leaves no key below the table.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t, { type Test } from 'tap';
import { parseConfig } from '../../src/config/index.js';
import { createS3FileIO } from '../../src/storage/index.js';
import { ClientWorker, type CatalogRef, type PyicebergOp, type ScanResult, type SqlCatalogRef } from './harness/clients.js';
import { compareScan } from './harness/compare.js';
import { startRecordedIcefront } from './harness/icefront.js';
import { firstLine } from './harness/judge.js';
import { motoKeys, sqlCatalogOnMoto, startMoto } from './harness/moto.js';
import { interopToolchain } from './harness/toolchain.js';

// A cold setup (pip + Maven) fits in this; warm, the file takes about a minute (Spark's JVM).
t.setTimeout(15 * 60_000);

type Row = { readonly id: number; readonly name: string; readonly v: number };
const COLUMNS = ['id', 'name', 'v'] as const;
const itemRow = (i: number): Row => ({ id: i, name: i % 2 === 0 ? 'x' : 'y', v: i * 0.5 });

/** What a scan of every column must give (clients/rows.py: canonical JSON lines, SHA-256 of the sorted lines). */
function expected(rows: Iterable<Row>): ScanResult {
  // Python's repr() of a float, for the values used here (no exponents)
  const pyFloat = (v: number) => (Number.isInteger(v) ? v.toFixed(1) : String(v));
  const lines = [...rows].map((r) => JSON.stringify({ id: r.id, name: r.name, v: { float: pyFloat(r.v) } })).sort();
  return { count: lines.length, hash: createHash('sha256').update(lines.join('\n')).digest('hex'), rows: lines, truncated: false, files: null };
}

interface FileScanTask {
  readonly 'data-file': { readonly 'file-path': string };
}
interface PlanAnswer {
  readonly status?: string;
  readonly 'file-scan-tasks'?: readonly FileScanTask[];
  readonly 'plan-tasks'?: readonly string[];
}

const env = await interopToolchain(t);
if (env) {
  for (const [name, version] of Object.entries(env.versions)) t.comment(`${name} ${version}`);
  const moto = await startMoto(env, ['lake']);
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'icefront-sql-s3-')));
  const db = path.join(base, 'lake.db');
  const yaml = [
    'server:',
    '  host: 127.0.0.1',
    '  port: 0',
    'planning:',
    '  batch-size: 1', // a plan task per data file: /tasks reads the manifests from S3
    'catalogs:',
    ...sqlCatalogOnMoto(moto, 'lake', db, 's3://lake/wh'),
    '',
  ].join('\n');
  const configFile = path.join(base, 'icefront.yaml');
  fs.writeFileSync(configFile, yaml);
  const config = { ...parseConfig(yaml, configFile, motoKeys(moto)), logLevel: process.env['ICEFRONT_INTEROP_LOG'] ?? 'silent' };
  const ice = await startRecordedIcefront(config);
  const worker = ClientWorker.start(env);
  t.teardown(async () => {
    await worker.close();
    await ice.close();
    await moto.close();
    fs.rmSync(base, { recursive: true, force: true });
  });
  t.comment(`icefront: ${ice.url}, moto: ${moto.endpoint}, sqlite: ${db}`);

  // Through Icefront, clients are given their credentials only: where S3 is comes from Icefront.
  const credentials = { 's3.access-key-id': moto.accessKeyId, 's3.secret-access-key': moto.secretAccessKey };
  const via = (planning: 'server' | 'client'): CatalogRef => ({ name: 'ice_lake', uri: ice.url, warehouse: 'lake', planning, properties: credentials });
  // Straight on the store: every S3 setting (Java's and pyiceberg's names), and S3FileIO for JdbcCatalog (its default is HadoopFileIO)
  const direct: SqlCatalogRef = {
    name: 'lake',
    type: 'sql',
    uri: db,
    warehouse: 's3://lake/wh',
    properties: {
      ...credentials,
      's3.endpoint': moto.endpoint,
      's3.path-style-access': 'true',
      's3.region': moto.region,
      'client.region': moto.region,
      'io-impl': 'org.apache.iceberg.aws.s3.S3FileIO',
    },
  };
  const rows = new Map<number, Row>();
  const put = (...list: Row[]) => list.forEach((r) => rows.set(r.id, r));
  const drop = (where: (r: Row) => boolean) => [...rows.values()].filter(where).forEach((r) => rows.delete(r.id));
  const errorsSince = (from: number) => ice.requests.slice(from).filter((r) => r.status >= 400);

  /** One pyiceberg job; a failure fails the test naming the step and Icefront's error answers since. */
  async function py(t: Test, what: string, catalog: CatalogRef | SqlCatalogRef, ops: PyicebergOp[]): Promise<boolean> {
    const from = ice.requests.length;
    try {
      await worker.run({ client: 'pyiceberg', catalog, ops }, 300_000);
      return t.pass(`pyiceberg: ${what}`);
    } catch (e) {
      return t.fail(`pyiceberg: ${what}: ${firstLine((e as Error).message)}`, { error: (e as Error).message, icefrontErrors: errorsSince(from) });
    }
  }

  /** The rows straight from the store, by pyiceberg's SqlCatalog and Spark's JdbcCatalog; pyiceberg's planned data files. */
  async function readsFromStore(t: Test, when: string): Promise<readonly string[]> {
    const truth = expected(rows.values());
    const pyDirect = await worker.run({ client: 'pyiceberg', catalog: direct, table: 'db.items', columns: COLUMNS });
    compareScan(t, { table: 'db.items', filter: 'none', client: `pyiceberg SqlCatalog, straight on the store (${when})`, files: 'none' }, truth, pyDirect);
    const sparkDirect = await worker.run({ client: 'spark', catalog: direct, table: 'db.items', columns: COLUMNS, files: false }, 300_000);
    compareScan(t, { table: 'db.items', filter: 'none', client: `Spark JdbcCatalog, straight on the store (${when})`, files: 'none' }, truth, sparkDirect);
    const files = pyDirect.files ?? [];
    t.ok(files.length > 0 && files.every((f) => f.startsWith('s3://lake/wh/db/items/data/')), `the data files are on S3 below the table (${files.length})`, { files });
    return files;
  }

  /** Through Icefront with server-side planning (pyiceberg, Spark), and Icefront's own /plan and /tasks: the rows, and the store's files. */
  async function readsThroughIcefront(t: Test, storeFiles: readonly string[], when: string): Promise<void> {
    const truth = { ...expected(rows.values()), files: [...storeFiles].sort() };
    const from = ice.requests.length;
    const pyServer = await worker.run({ client: 'pyiceberg', catalog: via('server'), table: 'db.items', columns: COLUMNS });
    compareScan(t, { table: 'db.items', filter: 'none', client: `pyiceberg → icefront, server planning (${when})`, files: 'none' }, truth, pyServer);
    t.same(pyServer.files, truth.files, `pyiceberg's server-planned tasks are the files the store's reader plans (${when})`);
    const sparkServer = await worker.run({ client: 'spark', catalog: via('server'), table: 'db.items', columns: COLUMNS }, 300_000);
    compareScan(t, { table: 'db.items', filter: 'none', client: `spark → icefront, server planning (${when})`, files: 'read' }, truth, sparkServer);
    t.ok(
      ice.requests.slice(from).some((r) => r.method === 'POST' && r.url === '/v1/lake/namespaces/db/tables/items/plan' && r.status === 200),
      'the clients planned through Icefront (POST …/plan answered 200)',
    );
    t.same(await icefrontPlan(), truth.files, `Icefront's own /plan and /tasks name exactly those data files (${when})`);
  }

  /** Every data file of an unfiltered scan, planned by Icefront (/plan, then each plan task at /tasks). */
  async function icefrontPlan(): Promise<string[]> {
    const post = async (url: string, body: unknown): Promise<PlanAnswer> => {
      const res = await fetch(`${ice.url}${url}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      if (res.status !== 200) throw new Error(`${url}: ${res.status} ${await res.text()}`);
      return (await res.json()) as PlanAnswer;
    };
    const table = '/v1/lake/namespaces/db/tables/items';
    const files: string[] = [];
    const pending = [await post(`${table}/plan`, {})];
    for (let answer = pending.pop(); answer; answer = pending.pop()) {
      files.push(...(answer['file-scan-tasks'] ?? []).map((task) => task['data-file']['file-path']));
      for (const planTask of answer['plan-tasks'] ?? []) pending.push(await post(`${table}/tasks`, { 'plan-task': planTask }));
    }
    return files.sort();
  }

  await t.test('pyiceberg writes through Icefront into the S3 warehouse; the store reads back exactly its rows', async (t) => {
    const replacing = [
      { id: 1, name: 'y', v: 10.5 },
      { id: 20, name: 'x', v: 20.5 },
    ];
    const steps: Array<{ what: string; op: PyicebergOp; apply?: () => void }> = [
      { what: 'create_namespace db', op: { op: 'create_namespace', namespace: 'db' } },
      {
        what: 'create_table db.items (identity partition on name)',
        op: { op: 'create_table', table: 'db.items', schema: [['id', 'long'], ['name', 'string'], ['v', 'double']], partition: [['name', 'identity']] },
      },
      { what: 'append 1–6', op: { op: 'append', table: 'db.items', rows: [1, 2, 3, 4, 5, 6].map(itemRow) }, apply: () => put(...[1, 2, 3, 4, 5, 6].map(itemRow)) },
      { what: 'append 7–9', op: { op: 'append', table: 'db.items', rows: [7, 8, 9].map(itemRow) }, apply: () => put(...[7, 8, 9].map(itemRow)) },
      {
        what: 'overwrite id <= 2',
        op: { op: 'overwrite', table: 'db.items', rows: replacing, filter: 'id <= 2' },
        apply: () => (drop((r) => r.id <= 2), put(...replacing)),
      },
      { what: 'delete id = 5', op: { op: 'delete', table: 'db.items', filter: 'id = 5' }, apply: () => drop((r) => r.id === 5) },
    ];
    for (const step of steps) {
      if (!(await py(t, step.what, via('client'), [step.op]))) return;
      step.apply?.();
    }

    const load = await fetch(`${ice.url}/v1/lake/namespaces/db/tables/items`);
    const answer = (await load.json()) as { 'metadata-location': string; config: Record<string, string>; metadata: { location: string } };
    t.equal(answer.metadata.location, 's3://lake/wh/db/items', "the table is at JdbcCatalog's default location, on S3");
    t.match(answer['metadata-location'], /^s3:\/\/lake\/wh\/db\/items\/metadata\/\d{5}-[0-9a-f-]{36}\.metadata\.json$/, 'the current metadata file is on S3, named as Java names it');
    t.same(answer.config, { 's3.endpoint': moto.endpoint, 's3.path-style-access': 'true', 's3.region': moto.region, 'client.region': moto.region }, 'the config tells clients where S3 is, and no credential');
    const { DatabaseSync } = await import('node:sqlite');
    const sqlite = new DatabaseSync(db, { readOnly: true });
    const row = sqlite.prepare('SELECT catalog_name, metadata_location FROM iceberg_tables WHERE table_namespace = ? AND table_name = ?').get('db', 'items');
    sqlite.close();
    t.same(row, { catalog_name: 'lake', metadata_location: answer['metadata-location'] }, "the JDBC row names Icefront's latest metadata file");
    const files = await readsFromStore(t, 'after pyiceberg');
    await readsThroughIcefront(t, files, 'after pyiceberg');
  });

  await t.test('Spark appends through Icefront (S3 settings from the table config); the store reads its rows too', async (t) => {
    if (rows.size === 0) return void t.fail('pyiceberg wrote nothing to append to');
    const added = [30, 31].map(itemRow);
    const from = ice.requests.length;
    const sql = `INSERT INTO {catalog}.db.items VALUES ${added.map((r) => `(${r.id}, '${r.name}', ${r.v.toFixed(1)}D)`).join(', ')}`;
    const done = await worker.run({ client: 'spark', catalog: via('client'), sql: [sql] }, 300_000).then(
      () => true,
      (e: Error) => t.fail(`spark: INSERT: ${firstLine(e.message)}`, { error: e.message, icefrontErrors: errorsSince(from) }),
    );
    if (!done) return;
    put(...added);
    const files = await readsFromStore(t, 'after Spark');
    await readsThroughIcefront(t, files, 'after Spark');
  });

  await t.test('a write straight into the store is seen by the next read through Icefront', async (t) => {
    if (rows.size === 0) return void t.fail('nothing written before');
    if (!(await py(t, 'SqlCatalog append 40 (straight on the store)', direct, [{ op: 'append', table: 'db.items', rows: [itemRow(40)] }]))) return;
    put(itemRow(40));
    const got = await worker.run({ client: 'pyiceberg', catalog: via('server'), table: 'db.items', columns: COLUMNS });
    compareScan(t, { table: 'db.items', filter: 'none', client: 'pyiceberg → icefront, server planning (after a direct append)', files: 'none' }, expected(rows.values()), got);
  });

  await t.test('a purge through Icefront leaves no key below the table', async (t) => {
    if (!(await py(t, 'create db.scratch and append', via('client'), [
      { op: 'create_table', table: 'db.scratch', schema: [['id', 'long'], ['name', 'string'], ['v', 'double']] },
      { op: 'append', table: 'db.scratch', rows: [1, 2].map(itemRow) },
    ])))
      return;
    const io = createS3FileIO({ endpoint: moto.endpoint, region: moto.region, pathStyle: true, credentials: { accessKeyId: moto.accessKeyId, secretAccessKey: moto.secretAccessKey } });
    const keys = async (dir: string): Promise<string[]> => {
      const out: string[] = [];
      for (const e of await io.list(dir).catch(() => [])) out.push(...(e.kind === 'file' ? [`${dir}/${e.name}`] : await keys(`${dir}/${e.name}`)));
      return out;
    };
    const before = await keys('s3://lake/wh/db/scratch');
    t.ok(before.some((k) => k.includes('/data/')) && before.some((k) => k.endsWith('.metadata.json')), `data and metadata below the table (${before.length} keys)`);
    const res = await fetch(`${ice.url}/v1/lake/namespaces/db/tables/scratch?purgeRequested=true`, { method: 'DELETE' });
    t.equal(res.status, 204, 'dropped with purge');
    t.same(await keys('s3://lake/wh/db/scratch'), [], 'nothing left below s3://lake/wh/db/scratch');
    t.ok((await keys('s3://lake/wh/db/items')).length > 0, 'db.items is untouched');
  });
}
