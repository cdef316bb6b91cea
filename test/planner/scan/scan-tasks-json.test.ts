/**
 * What a task adds to a response (ScanTasksWriter.taskBytes, which cuts plans into batches under
 * `max-response-bytes`) against the JSON the writer writes for it, and contentFileJsonLength
 * against contentFileToJson: over every task of every real fixture table and of the demo
 * warehouse, without stats and with every top-level column's. Both sides are Icefront's; the
 * JSON itself is checked against real clients elsewhere, this holds the measuring to it.
 */
import t, { type Test } from 'tap';
import { contentFileJsonLength, contentFileToJson, currentSchema, partitionType, type ContentFile } from '../../../src/iceberg/index.js';
import { jsonLength } from '../../../src/json/index.js';
import { fileManifestSource, parseScanRequest, planFiles, ScanTasksWriter, type ScanPlan } from '../../../src/planner/index.js';
import type { LoadedTable } from '../../../src/catalogs/index.js';
import { REAL_FIXTURES_SKIP, realFixturesAvailable } from '../../helpers/real-fixtures.js';
import { demoTables, fixtureFacts, loadDemoTable, loadRealTable } from '../../helpers/rows/index.js';

async function tablesToCheck(t: Test): Promise<[string, LoadedTable][]> {
  const out: [string, LoadedTable][] = [];
  for (const { name } of demoTables()) out.push([name, await loadDemoTable(name)]);
  if (realFixturesAvailable()) for (const { fixture } of fixtureFacts()) out.push([fixture, await loadRealTable(fixture)]);
  else t.comment(`real tables not checked: ${REAL_FIXTURES_SKIP}`);
  return out;
}

/** The plan of `table` (none when it cannot be planned: plan-real-tables.test.ts covers those). */
async function planOf(table: LoadedTable, body: unknown): Promise<ScanPlan | undefined> {
  try {
    return await planFiles(table.metadata, parseScanRequest(body), { source: fileManifestSource(table.io, table.metadata) });
  } catch {
    return undefined;
  }
}

t.test('a task is measured at the length of the JSON written for it, for every task of every table, with and without stats', async (t) => {
  let tasks = 0;
  let withDeletes = 0;
  let withStats = 0;
  const wrong: string[] = [];
  for (const [name, table] of await tablesToCheck(t)) {
    const columns = currentSchema(table.metadata).fields.map((f) => f.name);
    for (const body of [{}, { 'stats-fields': columns }]) {
      const plan = await planOf(table, body);
      if (!plan) continue;
      const writer = new ScanTasksWriter(plan);
      for (const task of plan.tasks) {
        tasks++;
        if (task.deletes.length > 0) withDeletes++;
        if (plan.statsFieldIds.size > 0) withStats++;
        const measured = writer.taskBytes(task);
        const written = jsonLength(writer.write([task])) + 2;
        if (measured !== written && wrong.length < 10) wrong.push(`${name} ${JSON.stringify(body).slice(0, 40)} ${task.data.file.filePath}: measured ${measured}, written ${written}`);
        // each content file on its own, the deletes' too
        for (const file of [task.data.file, ...task.deletes.map((d) => d.file)]) {
          const options = { partitionType: partitionType(plan.specsById.get(file.specId)!, plan.schema), statsFieldIds: plan.statsFieldIds };
          const length = contentFileJsonLength(file, options);
          const json = jsonLength(contentFileToJson(file, options));
          if (length !== json && wrong.length < 10) wrong.push(`${name} ${file.filePath}: content file measured ${length}, written ${json}`);
        }
      }
    }
  }
  t.same(wrong, [], `${tasks} tasks measured as written`);
  t.ok(tasks > 100 && withStats > 50, `tasks with stats among them (${withStats})`);
  if (realFixturesAvailable()) t.ok(withDeletes > 0, `and tasks with deletes (${withDeletes})`);
});

t.test('odd content files are measured as written: no partition, long ids, escapes, key metadata, deletion vectors', async (t) => {
  const base: ContentFile = { content: 0, filePath: 's3://b/a.parquet', fileFormat: 'PARQUET', specId: 0, partition: [], recordCount: 1n, fileSizeInBytes: 10n };
  const stats = new Set([1, 2, 1000]);
  const files: ContentFile[] = [
    base,
    { ...base, filePath: 's3://b/"quoted"\\ \u0001 é 𝄞.parquet', fileFormat: 'Avro' },
    { ...base, recordCount: 9_007_199_254_740_993n, fileSizeInBytes: -1n, specId: 12345 },
    { ...base, keyMetadata: new Uint8Array([0, 255, 16]), splitOffsets: [4n, 1_000_000_000_000n], sortOrderId: 0, firstRowId: 0n },
    { ...base, splitOffsets: [], equalityIds: [] },
    { ...base, content: 1, fileFormat: 'PUFFIN', referencedDataFile: 's3://b/a.parquet', contentOffset: 4n, contentSizeInBytes: 120n, firstRowId: 7n },
    { ...base, content: 2, equalityIds: [1, 2], sortOrderId: 3 },
    {
      ...base,
      columnSizes: new Map([[1, 10n], [2, 99_999_999_999_999_999n], [3, 1n]]),
      valueCounts: new Map([[3, 1n]]),
      nullValueCounts: new Map(),
      lowerBounds: new Map([[1, new Uint8Array([1, 2])], [1000, new Uint8Array()]]),
      upperBounds: new Map([[4, new Uint8Array([9])]]),
    },
  ];
  for (const file of files)
    for (const statsFieldIds of [new Set<number>(), stats]) {
      const options = { partitionType: { kind: 'struct' as const, fields: [] }, statsFieldIds };
      t.equal(contentFileJsonLength(file, options), jsonLength(contentFileToJson(file, options)), `${JSON.stringify(Object.keys(file))} stats ${statsFieldIds.size}`);
    }
});
