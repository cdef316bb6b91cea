/**
 * The spec's delete scope rules applied naively, pair by pair, over every live delete file of a
 * snapshot (spec "Scan Planning"; no index, no stats pruning): the reference the planner's
 * DeleteFileIndex is checked against.
 */
import type { ContentFile, ManifestEntry, PartitionSpec, TableMetadata } from '../../../src/iceberg/index.js';
import { equalityKey, isDv, pathKey } from './apply-deletes.js';
import type { LiveRow } from './apply-deletes.js';
import type { TableRows } from './table-rows.js';

function specOf(metadata: TableMetadata, file: ContentFile): PartitionSpec {
  const spec = metadata.partitionSpecs.find((s) => s.specId === file.specId);
  if (!spec) throw new Error(`${file.filePath}: unknown spec id ${file.specId}`);
  return spec;
}

/** Spec: a spec is unpartitioned when it has no fields or only void transforms. */
function unpartitioned(spec: PartitionSpec): boolean {
  return spec.fields.every((f) => f.transform === 'void');
}

function tupleKey(partition: ContentFile['partition']): string {
  return JSON.stringify(partition, (_k, v: unknown) => {
    if (typeof v === 'bigint') return `l${v}`;
    if (typeof v === 'number') return Number.isNaN(v) ? 'NaN' : Object.is(v, -0) ? '-0' : v;
    if (v instanceof Uint8Array) return `b${Buffer.from(v).toString('hex')}`;
    return v;
  });
}

/** Same spec id and equal partition values (spec note: floats by their bits, NaNs equal). */
function samePartition(a: ContentFile, b: ContentFile): boolean {
  return a.specId === b.specId && tupleKey(a.partition) === tupleKey(b.partition);
}

/**
 * The delete files that must be applied to `data` (spec "Scan Planning"): DVs and position
 * deletes when D ≥ S in the same partition (a DV only for its referenced file, position files
 * only when the data file has no DV); equality deletes when D > S in the same partition or from
 * an unpartitioned spec.
 */
export function applicableDeletes(metadata: TableMetadata, data: ManifestEntry, deletes: readonly ManifestEntry[]): ManifestEntry[] {
  const S = data.dataSequenceNumber;
  const dvs = deletes.filter(
    (d) => isDv(d.file) && d.file.referencedDataFile === data.file.filePath && d.dataSequenceNumber >= S && samePartition(d.file, data.file),
  );
  const out: ManifestEntry[] = [...dvs];
  for (const d of deletes) {
    if (d.file.content === 1 && !isDv(d.file) && dvs.length === 0 && d.dataSequenceNumber >= S && samePartition(d.file, data.file)) out.push(d);
    if (d.file.content === 2 && d.dataSequenceNumber > S && (unpartitioned(specOf(metadata, d.file)) || samePartition(d.file, data.file))) out.push(d);
  }
  return out;
}

/** The rows of `data` that survive `deletes` (all of which apply), computed from the files. */
export async function survivingRows(data: ManifestEntry, deletes: readonly ManifestEntry[], rows: TableRows): Promise<LiveRow[]> {
  const all = await rows.dataRows(data.file);
  const removed = new Set<number>();
  for (const d of deletes) {
    if (isDv(d.file)) for (const p of await rows.deletionVector(d.file)) removed.add(Number(p));
    else if (d.file.content === 1) {
      const key = pathKey(data.file.filePath);
      for (const r of await rows.positionDeletes(d.file)) if (pathKey(r.path) === key) removed.add(Number(r.pos));
    }
  }
  const out: LiveRow[] = [];
  for (let pos = 0; pos < all.length; pos++) {
    if (removed.has(pos)) continue;
    let deleted = false;
    for (const d of deletes) {
      if (d.file.content !== 2) continue;
      const ids = d.file.equalityIds ?? [];
      const key = equalityKey(ids, all[pos]!);
      if ((await rows.equalityDeletes(d.file)).some((del) => equalityKey(ids, del) === key)) {
        deleted = true;
        break;
      }
    }
    if (!deleted) out.push({ pos, row: all[pos]! });
  }
  return out;
}
