/**
 * Bound expressions (Java `BoundReference`, `BoundTransform`, `BoundPredicate`): terms resolved
 * to field ids and types, literals converted to the term's type in Icefront's internal value
 * representation (see `LiteralValue` in iceberg/literals).
 */
import type {
  Expr,
  IcebergType,
  LiteralPredicate,
  NestedField,
  PrimitiveValue,
  SetPredicate,
  Transform,
  UnaryPredicate,
} from '../../iceberg/index.js';

export interface BoundReference {
  readonly kind: 'ref';
  readonly fieldId: number;
  /** The name as written in the filter (Java `BoundReference.name`), used when writing JSON. */
  readonly name: string;
  readonly field: NestedField;
  /** The field's type (a primitive for every predicate except is-null / not-null). */
  readonly type: IcebergType;
  /**
   * Positions from the bound struct down to the field, for rows given as nested arrays in struct
   * field order (`row[a][b]`). Null for a field inside a list or map, which has no single value per
   * row (Java's accessor is null there too); such terms can be bound but not evaluated on rows.
   */
  readonly accessor: readonly number[] | null;
}

export interface BoundTransform {
  readonly kind: 'transform';
  readonly transform: Transform;
  readonly ref: BoundReference;
  /** The transform's result type for the source type (bucket/year/month/hour int, day date, else the source). */
  readonly type: IcebergType;
}

export type BoundTerm = BoundReference | BoundTransform;

export type BoundUnaryPredicate = UnaryPredicate<BoundTerm>;
/** A comparison; `literal` has the term's type (an int column gets a number, a long a bigint…). */
export type BoundLiteralPredicate = LiteralPredicate<BoundTerm, PrimitiveValue>;
/** in / not-in with two or more distinct values of the term's type (fewer are rewritten at bind). */
export type BoundSetPredicate = SetPredicate<BoundTerm, PrimitiveValue>;
export type BoundPredicate = BoundUnaryPredicate | BoundLiteralPredicate | BoundSetPredicate;
export type BoundExpression = Expr<BoundPredicate>;

/** The reference under a term (Java `BoundTerm.ref`). */
export function termRef(term: BoundTerm): BoundReference {
  return term.kind === 'ref' ? term : term.ref;
}
