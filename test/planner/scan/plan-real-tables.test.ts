/**
 * Issue 3 acceptance: an unfiltered plan of every real fixture table (and of the demo warehouse)
 * has exactly one task per live data file of the current snapshot — the same files, as many
 * times as the manifests list them — and tables that cannot be planned fail with a clear
 * IcefrontError naming a file INDEX.json reports as absent.
 */
import t from 'tap';
import { isIcefrontError } from '../../../src/errors/index.js';
import { currentSnapshot } from '../../../src/iceberg/index.js';
import { DEFAULT_SCAN, fileManifestSource, planFiles, type ScanPlan } from '../../../src/planner/index.js';
import { REAL_FIXTURES_SKIP, realFixturesAvailable } from '../../helpers/real-fixtures.js';
import {
  demoTables,
  fixtureFacts,
  indexedDataFileCount,
  liveEntries,
  loadDemoTable,
  loadRealTable,
  type LiveEntries,
  type ReadableTable,
} from '../../helpers/rows/index.js';

const skip = realFixturesAvailable() ? false : REAL_FIXTURES_SKIP;

function counts(paths: readonly string[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const p of paths) out.set(p, (out.get(p) ?? 0) + 1);
  return out;
}

function plan(table: ReadableTable): Promise<ScanPlan> {
  return planFiles(table.metadata, DEFAULT_SCAN, { source: fileManifestSource(table.io, table.metadata) });
}

/** Compares an unfiltered plan with the live data files found by walking every manifest; returns problems. */
function compareWithLiveFiles(live: LiveEntries, result: ScanPlan): string[] {
  const problems: string[] = [];
  const planned = counts(result.tasks.map((task) => task.data.file.filePath));
  const expected = counts(live.data.map((e) => e.file.filePath));
  for (const [p, n] of expected) if (planned.get(p) !== n) problems.push(`${p}: live ${n} time(s), planned ${planned.get(p) ?? 0}`);
  for (const [p, n] of planned) if (!expected.has(p)) problems.push(`${p}: planned ${n} time(s) but not a live data file`);
  if (result.stats.dataFilesPruned !== 0) problems.push(`an unfiltered scan pruned ${result.stats.dataFilesPruned} data file(s)`);
  for (const task of result.tasks) {
    if (task.data.file.content !== 0 || task.data.status === 2) problems.push(`${task.data.file.filePath}: task over a non-data or DELETED entry`);
  }
  return problems.slice(0, 5);
}

t.test('an unfiltered plan of every real table has one task per live data file of its current snapshot', { skip }, async (t) => {
  const notPlannable: string[] = [];
  let planned = 0;
  let files = 0;
  for (const facts of fixtureFacts()) {
    const name = facts.fixture;
    const table = await loadRealTable(name);
    let result: ScanPlan;
    try {
      result = await plan(table);
    } catch (err) {
      t.ok(isIcefrontError(err), `${name}: a plan failure is an IcefrontError (${String(err)})`);
      const message = (err as Error).message;
      const named = facts.report.missing_referenced.find((p) => message.includes(p));
      t.ok(named, `${name}: the failure names a file INDEX.json lists as absent (${message})`);
      notPlannable.push(`${name}: ${(err as { code?: string }).code} — ${message}`);
      continue;
    }
    planned++;
    files += result.tasks.length;
    const live = await liveEntries(table);
    const problems = compareWithLiveFiles(live, result);
    t.same(problems, [], `${name}: planned data files = live data files`);

    const snapshot = currentSnapshot(table.metadata);
    // INDEX.json counts a manifest listed N times N times; its distinct files are the live set
    const repeatsManifests = new Set(live.manifests.map((m) => m.path)).size < live.manifests.length;
    const indexed = snapshot && (repeatsManifests ? facts.report.unique_files_all_manifests?.data : indexedDataFileCount(facts, snapshot.snapshotId));
    if (indexed !== undefined) t.equal(result.tasks.length, indexed, `${name}: ${indexed} data files, as INDEX.json counts for snapshot ${snapshot!.snapshotId}${repeatsManifests ? ' (distinct files of a list that repeats manifests)' : ''}`);
    else if (!snapshot) t.equal(result.tasks.length, 0, `${name}: no current snapshot, no tasks`);
    else t.comment(`${name}: INDEX.json has no counts for snapshot ${snapshot.snapshotId} (it picked another metadata file)`);

    // Spec "Scan Planning": a path occurs at most once among live entries, even when the manifest list repeats a manifest.
    const repeated = [...counts(result.tasks.map((x) => x.data.file.filePath))].filter(([, n]) => n > 1);
    t.same(repeated.slice(0, 5), [], `${name}: no data file path repeats`);
  }
  t.comment(`planned ${planned} tables (${files} tasks); not plannable: ${notPlannable.length}`);
  for (const line of notPlannable) t.comment(`  not plannable: ${line}`);
  t.ok(planned >= 160, `${planned} of ${fixtureFacts().length} tables planned`);
});

t.test('an unfiltered plan of every demo warehouse table has one task per live data file', async (t) => {
  const tables = demoTables();
  t.ok(tables.length >= 4, `the README lists ${tables.length} tables`);
  for (const demo of tables) {
    const table = await loadDemoTable(demo.name);
    const result = await plan(table);
    t.ok(result.tasks.length > 0, `${demo.name}: ${result.tasks.length} tasks`);
    t.same(compareWithLiveFiles(await liveEntries(table), result), [], `${demo.name}: planned data files = live data files`);
  }
});
