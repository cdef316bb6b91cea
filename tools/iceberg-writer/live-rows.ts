/**
 * The rows a correct reader returns for the current snapshot, computed from what the builder
 * wrote (spec "Scan Planning": a position delete or DV applies when its data sequence number is
 * >= the data file's, an equality delete when it is strictly greater and the partition matches
 * or the delete's spec is unpartitioned).
 */
import { EQUALITY_DELETES, POSITION_DELETES, type Row } from './model.js';
import type { TrackedFile } from './tracked.js';

export interface LiveRow {
  readonly dataFile: string;
  readonly pos: number;
  readonly row: Row;
}

export function liveRows(live: Iterable<TrackedFile>, unpartitionedSpecIds: ReadonlySet<number>): LiveRow[] {
  const files = [...live];
  const deletes = files.filter((t) => t.file.content !== 0);
  const out: LiveRow[] = [];
  for (const data of files) {
    if (data.file.content !== 0) continue;
    if (!data.rows) throw new Error(`no rows known for ${data.file.filePath} (metadata-only file)`);
    const deleted = new Set<number>();
    for (const d of deletes) {
      if (d.file.content === POSITION_DELETES && d.dataSequenceNumber >= data.dataSequenceNumber) {
        for (const pos of d.positions?.get(data.file.filePath) ?? []) deleted.add(Number(pos));
      }
    }
    const eqDeletes = deletes.filter(
      (d) =>
        d.file.content === EQUALITY_DELETES &&
        d.dataSequenceNumber > data.dataSequenceNumber &&
        (unpartitionedSpecIds.has(d.file.specId) ||
          (d.file.specId === data.file.specId && samePartition(d.file.partition, data.file.partition))),
    );
    data.rows.forEach((row, pos) => {
      if (deleted.has(pos)) return;
      if (eqDeletes.some((d) => d.equality!.rows.some((del) => d.equality!.columns.every((c) => sameValue(row[c], del[c]))))) return;
      out.push({ dataFile: data.file.filePath, pos, row });
    });
  }
  return out;
}

function samePartition(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((v, i) => sameValue(v, b[i]));
}

// spec "Equality Delete Files": null equals null for equality deletes
function sameValue(a: unknown, b: unknown): boolean {
  const x = a ?? null;
  const y = b ?? null;
  if (x instanceof Uint8Array && y instanceof Uint8Array) return Buffer.compare(x, y) === 0;
  return x === y || (typeof x === 'number' && typeof y === 'number' && Number.isNaN(x) && Number.isNaN(y));
}
