/**
 * Applies a planned task's attached deletes to its data file's rows (spec "Scan Planning",
 * "Position Delete Files", "Equality Delete Files", "Deletion Vectors"): the attached list is
 * taken as given (which deletes apply is the planner's job); this only executes them.
 */
import type { ContentFile, ManifestEntry } from '../../../src/iceberg/index.js';
import type { Row } from './parquet-rows.js';
import type { TableRows } from './table-rows.js';

/** A data row that survives its deletes, with its position in the data file. */
export interface LiveRow {
  readonly pos: number;
  readonly row: Row;
}

/** The task shape applyDeletes needs (a planner FileTask fits). */
export interface DeleteTask {
  readonly data: ManifestEntry;
  readonly deletes: readonly ManifestEntry[];
}

export function isDv(file: ContentFile): boolean {
  return file.content === 1 && file.fileFormat.toUpperCase() === 'PUFFIN';
}

/**
 * A string equal for two values exactly when they are Iceberg-equal for one column type: null
 * equals null, floats as Java's compare (-0.0 ≠ 0.0, every NaN equal), bytes by content.
 */
export function equalityKey(ids: readonly number[], row: Row): string {
  return ids
    .map((id) => {
      const v = row.get(id) ?? null;
      if (v === null) return 'N';
      if (typeof v === 'number') return Number.isNaN(v) ? 'dNaN' : Object.is(v, -0) ? 'd-0' : `d${v}`;
      if (typeof v === 'bigint') return `l${v}`;
      if (typeof v === 'string') return `s${JSON.stringify(v)}`;
      if (typeof v === 'boolean') return v ? 'T' : 'F';
      return `b${Buffer.from(v).toString('hex')}`;
    })
    .join('|');
}

/**
 * The file a location names, without a `file:` or `hdfs://host` prefix: `hdfs://localhost:20500/a/b`,
 * `file:/a/b`, `file:///a/b` and `/a/b` all give `/a/b` (object-store URIs stay whole). Position delete rows name data files by
 * location; the Impala fixtures' Avro metadata was rewritten to scheme-less `/test-warehouse/…`
 * paths while their Parquet position deletes still say `hdfs://localhost:20500/test-warehouse/…`
 * (INDEX.md), and Impala matches them by path, as this does.
 */
export function pathKey(location: string): string {
  const m = /^(?:file:(?:\/\/)?|hdfs:\/\/[^/]*)(\/.*)$/.exec(location);
  return m ? m[1]! : location;
}

/** Positions of `dataPath` removed by one position delete file or DV. */
export async function deletedPositions(del: ContentFile, dataPath: string, rows: TableRows): Promise<Set<number>> {
  const out = new Set<number>();
  if (isDv(del)) {
    for (const p of await rows.deletionVector(del)) out.add(Number(p));
  } else {
    const key = pathKey(dataPath);
    for (const d of await rows.positionDeletes(del)) if (pathKey(d.path) === key) out.add(Number(d.pos));
  }
  return out;
}

/** The rows of `task.data` that survive `task.deletes`. */
export async function applyDeletes(task: DeleteTask, rows: TableRows): Promise<LiveRow[]> {
  const data = task.data.file;
  const all = await rows.dataRows(data);
  const removed = new Set<number>();
  const equality: Array<{ ids: readonly number[]; keys: ReadonlySet<string> }> = [];
  for (const del of task.deletes) {
    if (del.file.content === 1) {
      for (const p of await deletedPositions(del.file, data.filePath, rows)) removed.add(p);
    } else if (del.file.content === 2) {
      const ids = del.file.equalityIds ?? [];
      equality.push({ ids, keys: new Set((await rows.equalityDeletes(del.file)).map((d) => equalityKey(ids, d))) });
    }
  }
  const out: LiveRow[] = [];
  all.forEach((row, pos) => {
    if (removed.has(pos)) return;
    if (equality.some((e) => e.keys.has(equalityKey(e.ids, row)))) return;
    out.push({ pos, row });
  });
  return out;
}
