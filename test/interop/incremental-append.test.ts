/**
 * Incremental append scans (issue #28) against Iceberg Java's own IncrementalAppendScan.
 *
 * Spark, pointed only at Icefront, writes `db.inc` into the REST fixture: appends, a metadata-only
 * DELETE of one partition (some of two appends' files), an INSERT OVERWRITE, a rewrite_data_files
 * compaction, a rewrite_manifests, a merge-on-read DELETE (a position delete file), a branch and
 * an append on it. Those operations move appended files into manifests other snapshots wrote, as
 * EXISTING or DELETED entries, which is where reading only the end snapshot's manifest list loses
 * them.
 *
 * Truth, per range: Iceberg Java 1.11 itself, `table.newIncrementalAppendScan()
 * .fromSnapshotExclusive(a).toSnapshot(b).filter(f).planFiles()` on the fixture's table (Spark's
 * JVM, through Py4J), and Spark's own incremental read (`start-snapshot-id`/`end-snapshot-id`
 * read options) for rows. Icefront's plans are walked as a client walks them, `/plan` and then
 * every `/tasks` (breadth-first, answers' plan tasks queued again), at batch sizes 1, 3 and the
 * default, through every catalog kind:
 *   - `fxfs` (filesystem) and `fxlocal` (rest, planning: local): Icefront plans; the files must
 *     be Java's, each once, with no delete attached, and Spark reading those files as plain Parquet
 *     must return the rows Spark's incremental read returns;
 *   - `fx` (rest, planning: upstream) and `fxpaged` (the fixture behind a shim hiding its /tasks,
 *     Icefront pages): the fixture plans. Its CatalogHandlers builds the scan with
 *     `fromSnapshotInclusive(start)` (the spec says exclusive), so the truth there is Java's
 *     inclusive plan: Icefront must relay the upstream's plan, each file once, at every batch size.
 */
import t, { type Test } from 'tap';
import { ClientWorker, type CatalogRef, type IncrementalFiles, type IncrementalRange, type ScanResult } from './harness/clients.js';
import { startEndpointShim } from './harness/endpoint-shim.js';
import { filesystemCatalog, restCatalog, startInteropIcefront, type InteropIcefront } from './harness/icefront.js';
import { startRestFixture } from './harness/rest-fixture.js';
import { interopToolchain } from './harness/toolchain.js';

t.setTimeout(30 * 60_000);

const TASKS_ENDPOINT = 'POST /v1/{prefix}/namespaces/{namespace}/tables/{table}/tasks';
const TABLE = 'db.inc';
const COLUMNS = ['id', 'region', 'qty'];

/** What Spark writes, in commit order: a label per snapshot and the operation it must record. */
const WRITES: ReadonlyArray<{ readonly label: string; readonly operation: string; readonly sql: string }> = [
  { label: 'a1', operation: 'append', sql: "INSERT INTO {t} VALUES (1, 'EU', 10), (2, 'US', 20), (3, 'APAC', 30)" },
  { label: 'a2', operation: 'append', sql: "INSERT INTO {t} VALUES (4, 'EU', 40), (5, 'US', 50)" },
  // whole partitions: Spark deletes the files in metadata, rewriting a1's and a2's manifests
  { label: 'd3', operation: 'delete', sql: "DELETE FROM {t} WHERE region = 'EU'" },
  { label: 'a4', operation: 'append', sql: "INSERT INTO {t} VALUES (6, 'EU', 60), (7, 'US', 70)" },
  { label: 'o5', operation: 'overwrite', sql: "INSERT OVERWRITE {t} PARTITION (region = 'US') SELECT 8, 80" },
  { label: 'a6', operation: 'append', sql: "INSERT INTO {t} VALUES (9, 'APAC', 90), (10, 'EU', 100)" },
  { label: 'r7', operation: 'replace', sql: "CALL {catalog}.system.rewrite_data_files(table => 'db.inc', options => map('min-input-files', '2'))" },
  { label: 'a8', operation: 'append', sql: "INSERT INTO {t} VALUES (11, 'US', 110)" },
  { label: 'm9', operation: 'replace', sql: "CALL {catalog}.system.rewrite_manifests(table => 'db.inc')" },
  { label: 'a10', operation: 'append', sql: "INSERT INTO {t} VALUES (12, 'APAC', 120), (17, 'APAC', 170), (13, 'US', 130)" },
  // merge-on-read: a position delete file against one of the two rows of a10's APAC file
  { label: 'p11', operation: 'delete', sql: 'DELETE FROM {t} WHERE id = 12' },
  { label: 'b12', operation: 'append', sql: "ALTER TABLE {t} CREATE BRANCH audit; INSERT INTO {t}.branch_audit VALUES (14, 'EU', 140)" },
  { label: 'a13', operation: 'append', sql: "INSERT INTO {t} VALUES (15, 'US', 150), (16, 'APAC', 160)" },
];

interface Case {
  readonly name: string;
  /** Labels of WRITES; start undefined: from the oldest ancestor. */
  readonly start?: string;
  readonly end: string;
  readonly filter?: { readonly json: unknown; readonly sql: string };
}

const US = { json: { type: 'eq', term: 'region', value: 'US' }, sql: "region = 'US'" };
const CASES: readonly Case[] = [
  { name: 'one append', start: 'a1', end: 'a2' },
  { name: 'appends around a metadata-only delete of some of their rows', start: 'a1', end: 'a4' },
  { name: 'from the first snapshot through the delete (no start)', end: 'a4' },
  { name: 'across an overwrite', start: 'a2', end: 'a6' },
  { name: 'across a rewrite_data_files compaction', start: 'a4', end: 'a8' },
  { name: 'across a rewrite_manifests', start: 'a6', end: 'a10' },
  { name: 'across everything (compaction, manifest rewrite, both deletes)', start: 'a1', end: 'a13' },
  { name: 'across a merge-on-read delete', start: 'a8', end: 'a13' },
  { name: 'the whole history (no start)', end: 'a13' },
  { name: 'a range onto a branch', start: 'a10', end: 'b12' },
  { name: 'a range onto a branch from far back', start: 'a2', end: 'b12' },
  { name: 'a partition filter that prunes', start: 'a1', end: 'a13', filter: US },
  { name: 'a metrics filter that prunes', start: 'a1', end: 'a13', filter: { json: { type: 'gt', term: 'id', value: 10 }, sql: 'id > 10' } },
  {
    name: 'an or of both kinds',
    start: 'a2',
    end: 'a13',
    filter: {
      json: { type: 'or', left: { type: 'lt', term: 'qty', value: 50 }, right: { type: 'eq', term: 'region', value: 'APAC' } },
      sql: "qty < 50 OR region = 'APAC'",
    },
  },
  { name: 'start == end', start: 'a4', end: 'a4' },
  { name: 'start after end', start: 'a8', end: 'a4' },
  { name: 'start on a branch, end on main', start: 'b12', end: 'a13' },
];

type Catalog = 'fx' | 'fxlocal' | 'fxfs' | 'fxpaged';
const BATCH_SIZES = [1, 3, 100] as const;

/** One plan walked through /plan and every /tasks: each file as often as it was handed out. */
interface Walked {
  readonly status: number;
  readonly error?: string;
  readonly files: readonly string[];
  /** Tasks that carried delete-file-references. */
  readonly withDeletes: number;
  readonly redemptions: number;
}

interface WireTask {
  readonly 'data-file': { readonly 'file-path': string };
  readonly 'delete-file-references'?: readonly number[];
}
interface WireAnswer {
  readonly status?: string;
  readonly 'plan-tasks'?: readonly string[];
  readonly 'file-scan-tasks'?: readonly WireTask[];
  readonly error?: { readonly message: string };
}

async function walk(base: string, catalog: Catalog, start: string | undefined, end: string, filter: unknown): Promise<Walked> {
  const table = `${base}/v1/${catalog}/namespaces/db/tables/inc`;
  const post = async (route: string, body: string): Promise<{ status: number; answer: WireAnswer }> => {
    const res = await fetch(`${table}/${route}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    return { status: res.status, answer: (await res.json()) as WireAnswer };
  };
  // int64 ids go on the wire as JSON numbers, written from their decimal strings.
  const ids = `${start === undefined ? '' : `"start-snapshot-id":${start},`}"end-snapshot-id":${end}`;
  const planned = await post('plan', `{${ids}${filter === undefined ? '' : `,"filter":${JSON.stringify(filter)}`}}`);
  if (planned.status !== 200) return { status: planned.status, error: planned.answer.error?.message ?? '', files: [], withDeletes: 0, redemptions: 0 };
  if (planned.answer.status !== 'completed') throw new Error(`${catalog} /plan answered status ${planned.answer.status}`);
  const files: string[] = [];
  let withDeletes = 0;
  let redemptions = 0;
  const take = (a: WireAnswer): void => {
    for (const task of a['file-scan-tasks'] ?? []) {
      files.push(task['data-file']['file-path']);
      if ((task['delete-file-references'] ?? []).length > 0) withDeletes++;
    }
  };
  take(planned.answer);
  const queue = [...(planned.answer['plan-tasks'] ?? [])];
  while (queue.length > 0) {
    const redeemed = await post('tasks', JSON.stringify({ 'plan-task': queue.shift() }));
    redemptions++;
    if (redeemed.status !== 200) return { status: redeemed.status, error: `/tasks: ${redeemed.answer.error?.message ?? ''}`, files, withDeletes, redemptions };
    take(redeemed.answer);
    queue.push(...(redeemed.answer['plan-tasks'] ?? []));
  }
  return { status: 200, files, withDeletes, redemptions };
}

const sorted = (xs: readonly string[]): string[] => [...xs].sort();
const duplicates = (xs: readonly string[]): string[] => sorted(xs).filter((x, i, all) => i > 0 && all[i - 1] === x);

const env = await interopToolchain(t);
if (env) {
  const fixture = await startRestFixture(env);
  const shim = await startEndpointShim(fixture.url, [TASKS_ENDPOINT]);
  const catalogs = () => [
    restCatalog('fx', fixture.url, 'upstream'),
    { ...restCatalog('fxlocal', fixture.url, 'local'), storage: { local: { roots: [fixture.warehouseDir], locations: [] } } },
    filesystemCatalog('fxfs', fixture.warehouseDir),
    restCatalog('fxpaged', shim.url, 'auto'),
  ];
  const doors = new Map<number, InteropIcefront>();
  for (const size of BATCH_SIZES) doors.set(size, await startInteropIcefront(catalogs(), { batchSize: size }));
  const door = doors.get(100)!;
  const worker = ClientWorker.start(env);
  t.teardown(async () => {
    await worker.close();
    for (const d of doors.values()) await d.close();
    await shim.close();
    await fixture.close();
  });

  const direct: CatalogRef = { name: 'fixture', uri: fixture.url, planning: 'client' };
  const viaFx: CatalogRef = { name: 'ice_fx', uri: door.url, warehouse: 'fx', planning: 'client' };
  /** Snapshot id (decimal string) per WRITES label. */
  const ids = new Map<string, string>();

  const wrote = await t.test(`Spark through Icefront writes ${TABLE}: ${WRITES.map((w) => `${w.label} ${w.operation}`).join(', ')}`, async (t) => {
    const create = `CREATE TABLE {catalog}.${TABLE} (id bigint, region string, qty int) USING iceberg PARTITIONED BY (region)
      TBLPROPERTIES ('format-version' = '2', 'write.delete.mode' = 'merge-on-read')`;
    await worker.run({ client: 'spark', catalog: viaFx, sql: ['CREATE NAMESPACE IF NOT EXISTS {catalog}.db', create] }, 120_000);
    for (const w of WRITES) {
      const sql = w.sql.split('; ').map((s) => s.replaceAll('{t}', `{catalog}.${TABLE}`));
      await worker.run({ client: 'spark', catalog: viaFx, sql }, 300_000);
    }
    const { rows } = (await worker.run({
      client: 'spark',
      catalog: direct,
      query: `SELECT operation, CAST(snapshot_id AS STRING) AS id, summary FROM {catalog}.${TABLE}.snapshots ORDER BY committed_at`,
    })) as { rows: Array<{ operation: string; id: string; summary: Record<string, string> }> };
    t.same(rows.map((r) => r.operation), WRITES.map((w) => w.operation), 'the fixture holds one snapshot per write, with the operations named');
    WRITES.forEach((w, i) => rows[i] && ids.set(w.label, rows[i].id));
    const summary = (label: string): Record<string, string> => rows[WRITES.findIndex((w) => w.label === label)]?.summary ?? {};
    // The premises the case names rest on, as the fixture recorded them.
    t.ok(Number(summary('d3')['deleted-data-files']) > 0 && summary('d3')['added-position-delete-files'] === undefined, 'd3 deleted data files in metadata only', { summary: summary('d3') });
    t.ok(Number(summary('r7')['deleted-data-files']) > 0 && Number(summary('r7')['added-data-files']) > 0, 'r7 compacted data files', { summary: summary('r7') });
    t.ok(Number(summary('m9')['manifests-replaced']) > 0, 'm9 replaced manifests', { summary: summary('m9') });
    t.ok(Number(summary('p11')['added-position-delete-files']) > 0, 'p11 wrote a position delete file', { summary: summary('p11') });
    const refs = (await worker.run({ client: 'spark', catalog: direct, query: `SELECT name, CAST(snapshot_id AS STRING) AS id FROM {catalog}.${TABLE}.refs` })) as {
      rows: Array<{ name: string; id: string }>;
    };
    t.same(Object.fromEntries(refs.rows.map((r) => [r.name, r.id])), { main: ids.get('a13'), audit: ids.get('b12') }, 'main ends at a13, the branch audit at b12');
  });

  if (wrote) {
    const id = (label: string | undefined): string | undefined => (label === undefined ? undefined : ids.get(label));
    const range = (c: Case, inclusive: boolean): IncrementalRange => ({ start: id(c.start) ?? null, end: id(c.end)!, inclusive, filter: c.filter?.json ?? null });
    const java = async (inclusive: boolean) =>
      ((await worker.run({ client: 'spark', catalog: direct, incremental: TABLE, cases: CASES.map((c) => range(c, inclusive)) })) as IncrementalFiles).cases;
    let exclusive: IncrementalFiles['cases'] = [];
    let inclusive: IncrementalFiles['cases'] = [];
    await t.test('Iceberg Java plans every range, exclusive (the spec) and inclusive (the fixture)', async (t) => {
      exclusive = await java(false);
      inclusive = await java(true);
      t.equal(exclusive.length, CASES.length);
      t.equal(inclusive.length, CASES.length);
    });
    const answered: string[] = [];

    for (const [i, c] of CASES.entries()) {
      await t.test(`(${c.start ?? 'oldest'}, ${c.end}]${c.filter ? ` where ${c.filter.sql}` : ''}: ${c.name}`, async (t) => {
        const truth = exclusive[i]!;
        answered.push(`(${c.start ?? '-'}, ${c.end}]${c.filter ? ` ${c.filter.sql}` : ''}: ${'files' in truth ? `${truth.files.length} files` : truth.error}`);
        t.comment(`Iceberg Java: ${'files' in truth ? `${truth.files.length} files` : truth.error}`);
        const [start, end] = [id(c.start), id(c.end)!];
        // (s, s] is empty by the spec's definition, and SnapshotUtil.ancestorsBetween yields nothing
        // for it; Java's fromSnapshotExclusive refuses it, as start is no parent of end's ancestors.
        // Icefront answers the empty plan a client polling for new appends expects.
        const emptyRange = start !== undefined && start === end;
        if (emptyRange) t.match(truth, { error: /is not a parent ancestor of end snapshot/ }, 'Java refuses start == end');
        const local = emptyRange ? { files: [] } : truth;
        for (const size of BATCH_SIZES) {
          for (const catalog of ['fxfs', 'fxlocal', 'fx', 'fxpaged'] as const) {
            const upstream = catalog === 'fx' || catalog === 'fxpaged';
            // The fixture plans only ranges with both ids (PlanTableScanRequest.validate).
            if (upstream && start === undefined) continue;
            const expected = upstream ? inclusive[i]! : local;
            const at = `${catalog}, batch size ${size}`;
            const got = await walk(doors.get(size)!.url, catalog, start, end, c.filter?.json);
            if ('error' in expected) {
              t.equal(got.status, 400, `${at}: 400 where Java refuses the range (${expected.error})`, { got });
              if (!upstream) t.ok(got.error?.includes(start!) && got.error.includes(end), `${at}: the message names both ids: ${got.error}`);
              continue;
            }
            if (!t.equal(got.status, 200, `${at}: planned`, { error: got.error })) continue;
            t.same(sorted(got.files), expected.files, `${at}: the data files Java's ${upstream ? 'inclusive (the fixture’s) ' : ''}IncrementalAppendScan plans`);
            t.same(duplicates(got.files), [], `${at}: each file handed out once`);
            if (!upstream) t.equal(got.withDeletes, 0, `${at}: no delete file attached`);
            if (size === 1 && expected.files.length > 1 && catalog !== 'fx') t.ok(got.redemptions > 0, `${at}: the files came through /tasks (${got.redemptions} redemptions)`);
          }
        }
        // Rows, through Spark: Spark's own incremental read (Java's plan, with its filter) against
        // Spark reading the files Icefront planned as plain Parquet, filtered alike.
        if (start === undefined || 'error' in local || emptyRange) return;
        const planned = await walk(door.url, 'fxfs', start, end, c.filter?.json);
        const filter = c.filter?.sql;
        const sparkRows = (await worker.run({ client: 'spark', catalog: direct, table: TABLE, columns: COLUMNS, startSnapshotId: start, endSnapshotId: end, ...(filter && { filter }) })) as ScanResult;
        const icefrontRows = (await worker.run({ client: 'spark', parquet: planned.files, columns: COLUMNS, ...(filter && { filter }) })) as ScanResult;
        t.same(icefrontRows.rows, sparkRows.rows, `the rows of Icefront's files are the rows Spark's incremental read returns (${sparkRows.count})`);
      });
    }

    await t.test('control: the position delete that incremental plans leave off is attached by a point-in-time plan', async (t: Test) => {
      const files = (await walk(door.url, 'fxfs', id('a8'), id('a13')!, undefined)).files;
      const res = await fetch(`${door.url}/v1/fxfs/namespaces/db/tables/inc/plan`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: `{"snapshot-id":${id('a13')}}`,
      });
      const answer = (await res.json()) as WireAnswer;
      const deleted = (answer['file-scan-tasks'] ?? []).filter((task) => (task['delete-file-references'] ?? []).length > 0).map((task) => task['data-file']['file-path']);
      t.equal(deleted.length, 1, 'at a13 one data file (a10’s APAC file) carries p11’s position delete', { status: res.status, answer });
      t.ok(deleted.length > 0 && deleted.every((f) => files.includes(f)), 'the incremental plan (a8, a13] holds that same file, without the delete');
    });

    t.test('what Iceberg Java answered', async (t) => {
      for (const line of answered) t.comment(line);
      t.equal(answered.length, CASES.length, 'every case was asked of Java');
    });
  }
}
