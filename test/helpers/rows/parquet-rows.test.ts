import t from 'tap';
import { compareValues, fromBinary, type IcebergType, type ManifestEntry } from '../../../src/iceberg/index.js';
import { REAL_FIXTURES_SKIP, realFixturesAvailable } from '../real-fixtures.js';
import { fixtureFacts, liveEntries, loadRealTable, readParquetRows, TableRows, type ColumnBinding } from './index.js';

const skip = realFixturesAvailable() ? false : REAL_FIXTURES_SKIP;

/** Tables whose data files are not all present (INDEX.md: skipped for size, or metadata-only perf fixtures). */
const DATA_ABSENT = /meta_perf|generated_bounds|lineitem_iceberg_gz|column_mapping|unknown_puffin/;
/**
 * Fixtures whose recorded stats are synthetic, so rows cannot agree with them: DuckDB's
 * moved_positional_delete_path carries placeholder bounds (`max_val_1` as the upper bound of
 * columns holding `value_0`…) and null counts for columns without nulls.
 */
/** Larger files (TPC-H lineitem copies, multi-row-group Dremio tables) cost seconds and add no new column kinds. */
const MAX_ROWS = 10_000n;
const SYNTHETIC_STATS = new Set(['duckdb-iceberg/moved_positional_delete_path']);

function decode(type: IcebergType, bytes: Uint8Array): unknown {
  try {
    return fromBinary(type, bytes);
  } catch {
    return undefined; // a bound written at a narrower (promoted) type proves nothing here
  }
}

/** Disagreements between a file's rows and its manifest stats for one column. */
function statsProblems(entry: ManifestEntry, column: ColumnBinding, values: readonly unknown[]): string[] {
  const f = entry.file;
  const id = column.fieldId;
  const out: string[] = [];
  const nulls = values.filter((v) => v === null).length;
  const nans = values.filter((v) => typeof v === 'number' && Number.isNaN(v)).length;
  const recordedNulls = f.nullValueCounts?.get(id);
  if (recordedNulls !== undefined && recordedNulls !== BigInt(nulls)) out.push(`null count ${nulls} ≠ recorded ${recordedNulls}`);
  const recordedNans = f.nanValueCounts?.get(id);
  if (recordedNans !== undefined && recordedNans !== BigInt(nans)) out.push(`NaN count ${nans} ≠ recorded ${recordedNans}`);
  const real = values.filter((v) => v !== null && !(typeof v === 'number' && Number.isNaN(v)));
  const lowerBytes = f.lowerBounds?.get(id);
  const upperBytes = f.upperBounds?.get(id);
  const lower = lowerBytes && decode(column.type, lowerBytes);
  const upper = upperBytes && decode(column.type, upperBytes);
  for (const v of real) {
    if (lower !== undefined && compareValues(column.type, v, lower) < 0) out.push(`value ${String(v)} below lower bound ${String(lower)}`);
    if (upper !== undefined && compareValues(column.type, v, upper) > 0) out.push(`value ${String(v)} above upper bound ${String(upper)}`);
  }
  return out.slice(0, 3);
}

t.test('rows read from every real Parquet data file agree with the manifest stats of that file', { skip }, async (t) => {
  let files = 0;
  let skipped = 0;
  let columnsChecked = 0;
  for (const facts of fixtureFacts()) {
    if (DATA_ABSENT.test(facts.fixture) || SYNTHETIC_STATS.has(facts.fixture) || facts.report.missing_referenced.length > 0) continue;
    let entries: ManifestEntry[];
    let table;
    try {
      table = await loadRealTable(facts.fixture);
      entries = (await liveEntries(table)).data;
    } catch {
      continue; // tables that cannot be planned are covered by plan-real-tables.test.ts
    }
    const rows = new TableRows(table);
    for (const entry of entries) {
      if (entry.file.fileFormat !== 'PARQUET') continue;
      if (entry.file.recordCount > MAX_ROWS) {
        skipped++;
        continue;
      }
      const { rows: read, columns } = await readParquetRows(await table.io.readFile(entry.file.filePath), rows.ctx);
      files++;
      t.equal(BigInt(read.length), entry.file.recordCount, `${facts.fixture}: ${entry.file.filePath} has record_count rows`);
      for (const column of columns) {
        const problems = statsProblems(entry, column, read.map((r) => r.get(column.fieldId) ?? null));
        columnsChecked++;
        if (problems.length > 0) t.fail(`${facts.fixture}: ${entry.file.filePath} field ${column.fieldId}: ${problems.join('; ')}`);
      }
    }
  }
  t.ok(files > 300, `read ${files} data files`);
  t.comment(`${files} data files, ${columnsChecked} columns checked against null/NaN counts and bounds (${skipped} files over ${MAX_ROWS} rows skipped)`);
});
