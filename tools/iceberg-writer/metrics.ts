/**
 * Column metrics computed from the rows of a file (spec "Manifests": value_counts,
 * null_value_counts, nan_value_counts, lower_bounds, upper_bounds; Java `ParquetMetrics` with the
 * default `truncate(16)` metrics mode). Bounds are Appendix D bytes from `toBinary`.
 */
import { toBinary, type NestedField, type PrimitiveType } from '../../src/iceberg/index.js';
import {
  compareForBounds,
  isNaNValue,
  truncateBinaryMax,
  truncateBinaryMin,
  truncateStringMax,
  truncateStringMin,
} from './values.js';

export interface ColumnMetrics {
  readonly valueCounts: Map<number, bigint>;
  readonly nullValueCounts: Map<number, bigint>;
  readonly nanValueCounts: Map<number, bigint>;
  readonly lowerBounds: Map<number, Uint8Array>;
  readonly upperBounds: Map<number, Uint8Array>;
}

/** A top-level primitive column; rows hold its value under the field's name. */
export interface MetricsColumn {
  readonly field: NestedField & { readonly type: PrimitiveType };
  /** Java's `full` metrics mode (no truncation), used for position-delete columns. */
  readonly full?: boolean;
}

/** Metrics of `columns` over `rows` (row objects keyed by column name). */
export function columnMetrics(columns: readonly MetricsColumn[], rows: readonly Readonly<Record<string, unknown>>[]): ColumnMetrics {
  const m: ColumnMetrics = {
    valueCounts: new Map(),
    nullValueCounts: new Map(),
    nanValueCounts: new Map(),
    lowerBounds: new Map(),
    upperBounds: new Map(),
  };
  for (const { field, full } of columns) {
    const type = field.type;
    let nulls = 0n;
    let nans = 0n;
    let min: unknown = null;
    let max: unknown = null;
    for (const row of rows) {
      const v = row[field.name];
      if (v === null || v === undefined) nulls++;
      else if (isNaNValue(v)) nans++;
      else {
        if (min === null || compareForBounds(type, v, min) < 0) min = v;
        if (max === null || compareForBounds(type, v, max) > 0) max = v;
      }
    }
    m.valueCounts.set(field.id, BigInt(rows.length));
    m.nullValueCounts.set(field.id, nulls);
    // Java records NaN counts for float and double columns only
    if (type.kind === 'float' || type.kind === 'double') m.nanValueCounts.set(field.id, nans);
    if (min === null) continue;
    const lower = full ? min : truncateLower(type, min);
    const upper = full ? max : truncateUpper(type, max);
    m.lowerBounds.set(field.id, toBinary(type, lower));
    if (upper !== null) m.upperBounds.set(field.id, toBinary(type, upper));
  }
  return m;
}

function truncateLower(type: PrimitiveType, v: unknown): unknown {
  if (type.kind === 'string') return truncateStringMin(v as string);
  if (type.kind === 'binary') return truncateBinaryMin(v as Uint8Array);
  return v;
}

function truncateUpper(type: PrimitiveType, v: unknown): unknown {
  if (type.kind === 'string') return truncateStringMax(v as string);
  if (type.kind === 'binary') return truncateBinaryMax(v as Uint8Array);
  return v;
}
