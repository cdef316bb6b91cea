/**
 * Projecting a row filter onto a partition spec (Java `Projections.inclusive` / `strict`;
 * wire-format.md §12.3). NOTs are rewritten away first; each predicate is bound to the schema,
 * then projected onto every partition field whose source is the predicate's column. Inclusive
 * projections are AND-ed (a predicate with no projection is true); strict projections are OR-ed
 * (one with no projection is false), exactly as Java's `InclusiveProjection`/`StrictProjection`.
 */
import { fail } from '../../errors/index.js';
import {
  ALWAYS_FALSE,
  ALWAYS_TRUE,
  and,
  isPredicate,
  or,
  partitionType,
  type Expr,
  type Expression,
  type PartitionSpec,
  type Schema,
  type UnboundPredicate,
  visit,
} from '../../iceberg/index.js';
import { bind } from './bind.js';
import { termRef, type BoundExpression, type BoundPredicate } from './bound.js';
import { partitionTargets } from './partition-targets.js';
import { projectedToBound, projectedToUnbound, type Projected } from './projected.js';
import { projectPredicate, type ProjectionMode } from './projection-rules.js';
import { rewriteNot } from './rewrite-not.js';

/**
 * The inclusive projection of an unbound row filter: an unbound expression over the partition
 * field names (bindable to `partitionType(spec, schema)`) that every matching row's partition
 * satisfies. Throws INVALID_FILTER when the filter does not bind to the schema.
 */
export function inclusiveProjection(filter: Expression, spec: PartitionSpec, schema: Schema, caseSensitive = true): Expression {
  return project('inclusive', filter, spec, schema, caseSensitive, projectedToUnbound);
}

/**
 * The strict projection: an unbound expression over the partition field names such that every
 * row of a partition satisfying it matches the filter.
 */
export function strictProjection(filter: Expression, spec: PartitionSpec, schema: Schema, caseSensitive = true): Expression {
  return project('strict', filter, spec, schema, caseSensitive, projectedToUnbound);
}

/**
 * The projection already bound to the partition struct (what binding the unbound projection to
 * `partitionType(spec, schema)` gives), for the evaluators.
 */
export function boundProjection(
  mode: ProjectionMode,
  filter: Expression,
  spec: PartitionSpec,
  schema: Schema,
  caseSensitive: boolean,
): BoundExpression {
  const struct = partitionType(spec, schema);
  return project(mode, filter, spec, schema, caseSensitive, (p) => projectedToBound(p, struct));
}

/** The projections of one bound predicate onto every partition field of its source column. */
function projectBoundPredicate<P>(
  mode: ProjectionMode,
  pred: BoundPredicate,
  spec: PartitionSpec,
  schema: Schema,
  emit: (p: Projected) => Expr<P>,
): Expr<P> {
  const targets = partitionTargets(spec, schema).get(termRef(pred.term).fieldId) ?? [];
  let result: Expr<P> = mode === 'inclusive' ? ALWAYS_TRUE : ALWAYS_FALSE;
  for (const target of targets) {
    // several fields on one column: the inclusive ANDs narrow (day and hour), the strict ORs widen
    const projected = projectPredicate(mode, target, pred);
    if (projected === null) continue;
    result = mode === 'inclusive' ? and(result, emit(projected)) : or(result, emit(projected));
  }
  return result;
}

function project<P>(
  mode: ProjectionMode,
  filter: Expression,
  spec: PartitionSpec,
  schema: Schema,
  caseSensitive: boolean,
  emit: (p: Projected) => Expr<P>,
): Expr<P> {
  const struct = schema.asStruct();
  return visit<UnboundPredicate, Expr<P>>(rewriteNot(filter), {
    alwaysTrue: () => ALWAYS_TRUE,
    alwaysFalse: () => ALWAYS_FALSE,
    and,
    or,
    not: () => {
      throw fail('INTERNAL', 'Projection called on an expression with a NOT');
    },
    predicate: (pred) => {
      // predicates that the schema alone decides bind to constants and stay constants
      const bound = bind(pred, struct, caseSensitive);
      if (!isPredicate(bound)) return bound as Expr<P>;
      return projectBoundPredicate(mode, bound, spec, schema, emit);
    },
  });
}
