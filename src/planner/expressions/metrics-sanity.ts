/**
 * Column metrics that contradict themselves are not evidence (issue: real writers leave
 * placeholder bounds such as `min_val_1` / `max_val_1`, and pruning on them drops files that hold
 * matching rows). A column's metrics are contradictory when its lower bound is greater than its
 * upper bound in every order a writer may have used (UUIDs: RFC byte order and Java's signed
 * order), or when its null count exceeds its value count. Such a column is treated as having no
 * metrics for that file: the file might match.
 */
import type { BoundCodec } from './bound-codec.js';
import type { FileMetrics } from './metrics-access.js';

/** A column the filter reads, with the codec of its type (undefined: bounds are not compared). */
export interface CheckedColumn {
  readonly fieldId: number;
  readonly codec: BoundCodec | undefined;
}

/** Field ids among `columns` whose metrics in `file` contradict themselves. */
export function contradictoryColumns(file: FileMetrics, columns: readonly CheckedColumn[]): number[] {
  const out: number[] = [];
  for (const { fieldId, codec } of columns) {
    const nulls = file.nullValueCounts?.get(fieldId);
    const values = file.valueCounts?.get(fieldId);
    if (nulls !== undefined && values !== undefined && values >= 0n && nulls > values) out.push(fieldId);
    else if (codec && boundsInverted(file, fieldId, codec)) out.push(fieldId);
  }
  return out;
}

function boundsInverted(file: FileMetrics, fieldId: number, codec: BoundCodec): boolean {
  const lowerBytes = file.lowerBounds?.get(fieldId);
  const upperBytes = file.upperBounds?.get(fieldId);
  if (lowerBytes === undefined || upperBytes === undefined) return false;
  const lower = codec.decode(lowerBytes);
  const upper = codec.decode(upperBytes);
  if (lower === undefined || upper === undefined) return false;
  // a NaN bound (ORC) is already read as unknown; it contradicts nothing
  if (codec.floating && (Number.isNaN(lower) || Number.isNaN(upper))) return false;
  return codec.compare(lower, upper, false) > 0 && codec.compare(lower, upper, true) > 0;
}

/** The file as if it carried no counts or bounds for `fieldIds`. */
export function withoutColumnMetrics(file: FileMetrics, fieldIds: readonly number[]): FileMetrics {
  const drop = new Set(fieldIds);
  const keep = <V>(m: ReadonlyMap<number, V> | undefined): ReadonlyMap<number, V> | undefined =>
    m === undefined ? undefined : new Map([...m].filter(([id]) => !drop.has(id)));
  return {
    ...file,
    valueCounts: keep(file.valueCounts),
    nullValueCounts: keep(file.nullValueCounts),
    nanValueCounts: keep(file.nanValueCounts),
    lowerBounds: keep(file.lowerBounds),
    upperBounds: keep(file.upperBounds),
  };
}
