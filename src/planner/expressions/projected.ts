/**
 * A predicate projected onto one partition field, before it is written as an unbound predicate
 * (for callers) or as a bound predicate on the partition struct (for the evaluators). Values
 * are in the internal representation of the partition field's result type.
 */
import {
  toJsonSingleValue,
  type IcebergType,
  type JsonScalar,
  type LiteralOp,
  type NamedReference,
  type PrimitiveType,
  type PrimitiveValue,
  type SetOp,
  type StructType,
  type UnaryOp,
  type UnboundLiteral,
  type UnboundPredicate,
} from '../../iceberg/index.js';
import type { BoundExpression, BoundReference } from './bound.js';
import type { PartitionTarget } from './partition-targets.js';
import { valueKey } from './value-key.js';

export type ProjectedShape =
  | { readonly kind: 'unary'; readonly op: UnaryOp }
  | { readonly kind: 'literal'; readonly op: LiteralOp; readonly value: PrimitiveValue }
  | { readonly kind: 'set'; readonly op: SetOp; readonly values: readonly PrimitiveValue[] };

export interface Projected {
  readonly target: PartitionTarget;
  readonly shape: ProjectedShape;
}

function literal(type: IcebergType, value: PrimitiveValue): UnboundLiteral {
  return { value: toJsonSingleValue(type, value) as JsonScalar, dataType: type as PrimitiveType };
}

/**
 * As an unbound predicate on the partition field name (Java `Expressions.predicate(op, name, …)`).
 * Literals are typed with the result type (`data-type`), so binding to the partition struct gives
 * back exactly these values.
 */
export function projectedToUnbound({ target, shape }: Projected): UnboundPredicate {
  const term: NamedReference = { kind: 'ref', name: target.name };
  const type = target.resultType;
  switch (shape.kind) {
    case 'unary':
      return { kind: 'unary', op: shape.op, term };
    case 'literal':
      return { kind: 'literal', op: shape.op, term, literal: literal(type, shape.value) };
    case 'set':
      return { kind: 'set', op: shape.op, term, literals: shape.values.map((v) => literal(type, v)) };
  }
}

/**
 * As a bound predicate on the partition struct, as `bind` would produce from the unbound form:
 * set values are de-duplicated and a set of one value becomes eq / not-eq
 * (Java `UnboundPredicate.bindInOperation`).
 */
export function projectedToBound({ target, shape }: Projected, partitionStruct: StructType): BoundExpression {
  const field = partitionStruct.fields[target.position]!;
  const term: BoundReference = {
    kind: 'ref',
    fieldId: field.id,
    name: field.name,
    field,
    type: field.type,
    accessor: [target.position],
  };
  switch (shape.kind) {
    case 'unary':
      return { kind: 'unary', op: shape.op, term };
    case 'literal':
      return { kind: 'literal', op: shape.op, term, literal: shape.value };
    case 'set': {
      const seen = new Set<string>();
      const values = shape.values.filter((v) => {
        const key = valueKey(v);
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      });
      if (values.length === 1) return { kind: 'literal', op: shape.op === 'in' ? 'eq' : 'not-eq', term, literal: values[0]! };
      return { kind: 'set', op: shape.op, term, literals: values };
    }
  }
}
