/**
 * What the inclusive metrics evaluator reads from a content file for one term: the null / NaN
 * count helpers (Java `InclusiveMetricsEvaluator.MetricsEvalVisitor`) and the term's lower and
 * upper bounds (Java `InclusiveEvalVisitor.evalLowerBound/evalUpperBound`): a column's bounds
 * decoded lazily, or for an order-preserving transform f, f(lower) and f(upper).
 */
import { fromBinary, type ContentFile, type IcebergType, type PrimitiveValue } from '../../iceberg/index.js';
import { applyTransform, preservesOrder } from '../transforms/index.js';
import type { BoundCodec, Comparable } from './bound-codec.js';
import type { BoundTerm } from './bound.js';

/**
 * What the metrics evaluator reads of a data file: a ContentFile, or a cursor over pooled metrics
 * that finds one column's value when asked.
 */
export type FileMetrics = Pick<ContentFile, 'filePath' | 'recordCount' | 'valueCounts' | 'nullValueCounts' | 'nanValueCounts' | 'lowerBounds' | 'upperBounds'>;

/** The null count is unknown or non-zero. */
export function mayContainNull(file: FileMetrics, id: number): boolean {
  const nulls = file.nullValueCounts?.get(id);
  return nulls === undefined || nulls !== 0n;
}

/** Value and null counts are both known and equal. */
export function containsNullsOnly(file: FileMetrics, id: number): boolean {
  const values = file.valueCounts?.get(id);
  const nulls = file.nullValueCounts?.get(id);
  return values !== undefined && nulls !== undefined && values - nulls === 0n;
}

/** The NaN count is unknown or non-zero. */
export function mayContainNaN(file: FileMetrics, id: number): boolean {
  const nans = file.nanValueCounts?.get(id);
  return nans === undefined || nans !== 0n;
}

/** The NaN count is known and equals the value count. */
export function containsNaNsOnly(file: FileMetrics, id: number): boolean {
  const nans = file.nanValueCounts?.get(id);
  return nans !== undefined && nans === file.valueCounts?.get(id);
}

export type BoundReader = (file: FileMetrics) => Comparable | undefined;

export interface TermAccess {
  readonly fieldId: number;
  /** A plain column (an identity transform counts as one). */
  readonly isReference: boolean;
  /** Non-null in, non-null out: references and order-preserving transforms. */
  readonly nonNullPreserving: boolean;
  readonly lower: BoundReader;
  readonly upper: BoundReader;
}

const UNKNOWN: BoundReader = () => undefined;

export function termAccess(term: BoundTerm, codec: BoundCodec | undefined): TermAccess {
  const ref = term.kind === 'ref' ? term : term.ref;
  const id = ref.fieldId;
  const isReference = term.kind === 'ref' || term.transform.kind === 'identity';
  const nonNullPreserving = isReference || (term.kind === 'transform' && preservesOrder(term.transform));
  if (codec === undefined) return { fieldId: id, isReference, nonNullPreserving, lower: UNKNOWN, upper: UNKNOWN };
  if (isReference) {
    return {
      fieldId: id,
      isReference,
      nonNullPreserving,
      lower: (file) => decoded(file.lowerBounds?.get(id), codec),
      upper: (file) => decoded(file.upperBounds?.get(id), codec),
    };
  }
  if (!nonNullPreserving) return { fieldId: id, isReference, nonNullPreserving, lower: UNKNOWN, upper: UNKNOWN };
  // an order-preserving f keeps lower <= v <= upper as f(lower) <= f(v) <= f(upper)
  const { transform } = term;
  const sourceType: IcebergType = ref.type;
  const through = (bytes: Uint8Array | undefined): Comparable | undefined => {
    if (bytes === undefined) return undefined;
    let value: PrimitiveValue;
    try {
      value = fromBinary(sourceType, bytes);
    } catch {
      return undefined;
    }
    const result = applyTransform(transform, sourceType, value);
    return result === null ? undefined : codec.prepare(result as PrimitiveValue);
  };
  return {
    fieldId: id,
    isReference,
    nonNullPreserving,
    lower: (file) => through(file.lowerBounds?.get(id)),
    upper: (file) => through(file.upperBounds?.get(id)),
  };
}

function decoded(bytes: Uint8Array | undefined, codec: BoundCodec): Comparable | undefined {
  return bytes === undefined ? undefined : codec.decode(bytes);
}
