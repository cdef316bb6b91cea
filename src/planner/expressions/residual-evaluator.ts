/**
 * Residual filters per partition (Java `ResidualEvaluator`; wire-format.md §12.4): the part of
 * the row filter a file's partition tuple does not already decide. For each predicate on a
 * partitioned column, per partition field: if the strict projection holds for the tuple the
 * predicate is true for every row (→ true); else if the inclusive projection fails it is false
 * for every row (→ false); otherwise the caller's original unbound predicate is kept. The tree
 * is rebuilt with constant folding, NOT included, so the result holds only the caller's own
 * literals and terms and can be written as legacy JSON.
 */
import {
  ALWAYS_FALSE,
  ALWAYS_TRUE,
  and,
  isPredicate,
  not,
  or,
  partitionType,
  type Expression,
  type LiteralValue,
  type PartitionSpec,
  type Schema,
  type StructType,
  type UnboundPredicate,
  visit,
} from '../../iceberg/index.js';
import { bind } from './bind.js';
import { termRef } from './bound.js';
import { rowCheck } from './evaluator.js';
import { partitionTargets } from './partition-targets.js';
import { projectedToBound, type Projected } from './projected.js';
import { projectPredicate } from './projection-rules.js';
import { valueKey } from './value-key.js';

type Partition = ReadonlyArray<LiteralValue | null>;
type Residual = (partition: Partition) => Expression;

export class ResidualEvaluator {
  readonly #filter: Expression;
  readonly #residual: Residual | undefined;
  readonly #memo = new Map<string, Expression>();

  /**
   * Binds the filter to the schema now, so an unknown column throws INVALID_FILTER here (Java
   * binds on the first `residualFor`). A spec without fields gives the filter back unchanged.
   */
  constructor(spec: PartitionSpec, schema: Schema, filter: Expression, caseSensitive = true) {
    // A constant filter is every partition's residual (what compile makes of it): no per-tuple work.
    const kind = (filter as { kind: string }).kind;
    const constant = kind === 'true' ? ALWAYS_TRUE : kind === 'false' ? ALWAYS_FALSE : undefined;
    this.#filter = constant ?? filter;
    if (constant !== undefined || spec.fields.length === 0) return;
    const context: Context = {
      spec,
      schema,
      caseSensitive,
      struct: schema.asStruct(),
      partitionStruct: partitionType(spec, schema),
    };
    this.#residual = compile(filter, context);
  }

  /** The residual for a partition tuple (spec field order, values of the partition result types). */
  residualFor(partition: Partition): Expression {
    if (this.#residual === undefined) return this.#filter;
    const key = JSON.stringify(partition.map((v) => (v === null || v === undefined ? null : valueKey(v))));
    let residual = this.#memo.get(key);
    if (residual === undefined) {
      residual = this.#residual(partition);
      this.#memo.set(key, residual);
    }
    return residual;
  }
}

interface Context {
  readonly spec: PartitionSpec;
  readonly schema: Schema;
  readonly caseSensitive: boolean;
  readonly struct: StructType;
  readonly partitionStruct: StructType;
}

function compile(expr: Expression, ctx: Context): Residual {
  return visit<UnboundPredicate, Residual>(expr, {
    alwaysTrue: () => () => ALWAYS_TRUE,
    alwaysFalse: () => () => ALWAYS_FALSE,
    not: (child) => (p) => not(child(p)),
    and: (left, right) => (p) => and(left(p), right(p)),
    or: (left, right) => (p) => or(left(p), right(p)),
    predicate: (pred) => compilePredicate(pred, ctx),
  });
}

/** The strict and inclusive projections of a predicate for one partition field, as checks of a tuple. */
interface FieldCheck {
  readonly strict: ((partition: Partition) => boolean) | null;
  readonly inclusive: ((partition: Partition) => boolean) | null;
}

function compilePredicate(pred: UnboundPredicate, ctx: Context): Residual {
  const bound = bind(pred, ctx.struct, ctx.caseSensitive);
  // decided by the schema alone (is-null on a required column, out-of-range literal…)
  if (!isPredicate(bound)) {
    const constant = bound as Expression;
    return () => constant;
  }
  const targets = partitionTargets(ctx.spec, ctx.schema).get(termRef(bound.term).fieldId) ?? [];
  if (targets.length === 0) return () => pred;
  const checks: FieldCheck[] = targets.map((target) => ({
    strict: onPartition(projectPredicate('strict', target, bound), ctx),
    inclusive: onPartition(projectPredicate('inclusive', target, bound), ctx),
  }));
  return (partition) => {
    for (const check of checks) {
      if (check.strict !== null && check.strict(partition)) return ALWAYS_TRUE;
      if (check.inclusive !== null && !check.inclusive(partition)) return ALWAYS_FALSE;
    }
    return pred;
  };
}

function onPartition(projected: Projected | null, ctx: Context): ((partition: Partition) => boolean) | null {
  return projected === null ? null : rowCheck(projectedToBound(projected, ctx.partitionStruct));
}
