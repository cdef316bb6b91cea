/**
 * Issue 3 acceptance: merge-on-read truth. For every real table whose current snapshot has
 * position deletes, equality deletes or deletion vectors, and for the demo tables, the rows of
 * all planned tasks after applying their attached deletes are the table's true rows. Truth is
 * computed independently: every live delete file of the snapshot, paired with every data file by
 * the spec's scope rules (naive-deletes.ts), plus the engine's own counts where they exist
 * (snapshot summary totals, the demo README).
 */
import t, { type Test } from 'tap';
import path from 'node:path';
import type { ContentFile, ManifestEntry, TableMetadata } from '../../../src/iceberg/index.js';
import { currentSnapshot } from '../../../src/iceberg/index.js';
import { DEFAULT_SCAN, fileManifestSource, planFiles, type FileTask } from '../../../src/planner/index.js';
import { REAL_FIXTURES_SKIP, realFixturesAvailable } from '../../helpers/real-fixtures.js';
import {
  applicableDeletes,
  applyDeletes,
  asIndexed,
  demoTables,
  FILE_PATH_ID,
  fixtureFacts,
  isDv,
  liveEntries,
  loadDemoTable,
  loadRealTable,
  pathKey,
  survivingRows,
  TableRows,
  type ReadableTable,
} from '../../helpers/rows/index.js';

const skip = realFixturesAvailable() ? false : REAL_FIXTURES_SKIP;

const readable = (e: ManifestEntry): boolean => ['PARQUET', 'PUFFIN'].includes(e.file.fileFormat.toUpperCase());
const name = (e: ManifestEntry): string => `${e.file.filePath}${e.file.contentOffset !== undefined ? `@${e.file.contentOffset}` : ''}`;

/** Whether a position delete file's `file_path` bounds (field 2147483546) rule out `dataPath`. */
function pathBoundsExclude(file: ContentFile, dataPath: string): boolean {
  const lower = file.lowerBounds?.get(FILE_PATH_ID);
  const upper = file.upperBounds?.get(FILE_PATH_ID);
  if (file.referencedDataFile !== undefined) return file.referencedDataFile !== dataPath;
  if (!lower || !upper) return false;
  const path = Buffer.from(dataPath);
  return Buffer.compare(path, Buffer.from(lower)) < 0 || Buffer.compare(path, Buffer.from(upper)) > 0;
}

interface Outcome {
  readonly rows: number | undefined;
  /** Rows of the live data files before any delete. */
  readonly before: bigint;
  readonly kinds: ReadonlySet<'pos' | 'eq' | 'dv'>;
}

/** Checks one table; returns its live row count (undefined when its files cannot be read) and delete kinds. */
async function checkTable(t: Test, label: string, table: ReadableTable): Promise<Outcome> {
  const live = await liveEntries(table);
  const kinds = new Set(live.deletes.map((d) => (isDv(d.file) ? 'dv' : d.file.content === 1 ? 'pos' : 'eq') as 'pos' | 'eq' | 'dv'));
  const before = live.data.reduce((n, e) => n + e.file.recordCount, 0n);
  const plan = await planFiles(table.metadata, DEFAULT_SCAN, { source: fileManifestSource(table.io, table.metadata) });
  const tasks = new Map<string, FileTask>(plan.tasks.map((task) => [task.data.file.filePath, task]));

  // File level (every format): the planner attaches only deletes the scope rules allow, and
  // leaves out an in-scope position delete only when it provably holds no row for the data file.
  const rows = new TableRows(table);
  for (const data of live.data) {
    const task = tasks.get(data.file.filePath);
    if (!task) continue; // missing tasks are reported by plan-real-tables.test.ts
    const allowed = applicableDeletes(table.metadata, data, live.deletes);
    const attached = task.deletes.map(name);
    t.same(attached.filter((d) => !allowed.some((a) => name(a) === d)), [], `${label}: ${data.file.filePath} gets no delete outside the scope rules`);
    const wrongfullyOmitted: string[] = [];
    for (const d of allowed.filter((a) => !attached.includes(name(a)) && a.file.content === 1)) {
      if (pathBoundsExclude(d.file, data.file.filePath)) continue;
      if (readable(d) && !(await rows.positionDeletes(d.file)).some((r) => pathKey(r.path) === pathKey(data.file.filePath))) continue;
      wrongfullyOmitted.push(name(d));
    }
    t.same(wrongfullyOmitted, [], `${label}: ${data.file.filePath} gets every position delete and DV that may hold its rows`);
  }

  if (![...live.data, ...live.deletes].every(readable)) {
    t.comment(`${label}: ORC/Avro files — row-level truth skipped, file-level pairing checked`);
    return { rows: undefined, before, kinds };
  }
  // Row level: positions surviving per data file, planner vs naive truth.
  let total = 0;
  for (const data of live.data) {
    const task = tasks.get(data.file.filePath);
    const truth = (await survivingRows(data, applicableDeletes(table.metadata, data, live.deletes), rows)).map((r) => r.pos);
    const planned = task ? (await applyDeletes(task, rows)).map((r) => r.pos) : [];
    t.same(planned, truth, `${label}: ${data.file.filePath} keeps ${truth.length} of ${data.file.recordCount} rows`);
    total += truth.length;
  }
  return { rows: total, before, kinds };
}

/** Spec snapshot summary: total-records − total-position-deletes, when every position delete hits a distinct live row. */
async function summaryExpectation(table: ReadableTable, metadata: TableMetadata): Promise<number | undefined> {
  const summary = currentSnapshot(metadata)?.summary ?? {};
  const records = summary['total-records'];
  const posDeletes = summary['total-position-deletes'];
  if (records === undefined || posDeletes === undefined || summary['total-equality-deletes'] !== '0') return undefined;
  const live = await liveEntries(table);
  const rows = new TableRows(table);
  // dangling or duplicate position deletes make the summary arithmetic meaningless
  const hits = new Set<string>();
  let deleteRows = 0;
  for (const d of live.deletes) {
    const targets = isDv(d.file)
      ? (await rows.deletionVector(d.file)).map((pos) => ({ path: d.file.referencedDataFile!, pos }))
      : await rows.positionDeletes(d.file);
    for (const x of targets) {
      deleteRows++;
      const data = live.data.find((e) => pathKey(e.file.filePath) === pathKey(x.path));
      if (data && d.dataSequenceNumber >= data.dataSequenceNumber && x.pos < data.file.recordCount) hits.add(`${pathKey(x.path)}#${x.pos}`);
    }
  }
  if (hits.size !== deleteRows) return undefined;
  return Number(records) - Number(posDeletes);
}

t.test('merge-on-read: planned tasks after their deletes give the true rows of every real table with deletes', { skip }, async (t) => {
  const perKind = { pos: 0, eq: 0, dv: 0 };
  const results: string[] = [];
  for (const facts of fixtureFacts()) {
    const files = facts.report.current_snapshot_files ?? {};
    if (!Object.keys(files).some((k) => !k.startsWith('data:') && k !== 'manifest-missing')) continue;
    const loaded = await loadRealTable(facts.fixture);
    const indexed = asIndexed(facts, loaded);
    const variants: Array<[string, ReadableTable]> = [[facts.fixture, indexed]];
    // where the catalog picks another metadata file than INDEX.json, check that one too
    if (indexed.metadata !== loaded.metadata) variants.push([`${facts.fixture} (catalog's ${path.basename(loaded.metadataLocation)})`, loaded]);
    for (const [label, table] of variants) {
      await t.test(label, async (tt) => {
        const o = await checkTable(tt, label, table);
        if (table === indexed) for (const k of o.kinds) perKind[k]++;
        if (o.rows === undefined) {
          results.push(`${label}: file-level only (ORC)`);
          return;
        }
        const expected = await summaryExpectation(table, table.metadata);
        if (expected !== undefined) tt.equal(o.rows, expected, `${label}: ${expected} rows = summary total-records − total-position-deletes`);
        results.push(`${label}: ${o.rows} of ${o.before} rows live${expected !== undefined ? ' (= snapshot summary)' : ''}`);
      });
    }
  }
  // INDEX.md: 24 tables with position deletes, 15 with equality deletes, 4 with deletion vectors
  t.same(perKind, { pos: 24, eq: 15, dv: 4 }, 'every delete table INDEX.md lists was checked');
  for (const r of results) t.comment(r);
});

t.test('merge-on-read: the demo tables give the live row counts of fixtures/warehouse/README.md', async (t) => {
  const tables = demoTables();
  t.ok(tables.some((d) => d.name === 'sales.returns') && tables.some((d) => d.name === 'events.clicks'), 'the README lists the delete tables');
  for (const demo of tables) {
    const o = await checkTable(t, demo.name, await loadDemoTable(demo.name));
    t.equal(o.rows, demo.liveRows, `${demo.name}: ${demo.liveRows} live rows as the README says (${o.before} before deletes)`);
  }
});
