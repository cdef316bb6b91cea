/**
 * Turning a bound expression into one closure per node, built once per evaluator so that
 * evaluating a file or manifest walks no tree and allocates nothing (the planner architecture's
 * "one evaluator per file", with Java's ROWS_MIGHT_MATCH / ROWS_CANNOT_MATCH verdicts).
 */
import { visit } from '../../iceberg/index.js';
import type { BoundExpression, BoundPredicate } from './bound.js';

export const ROWS_MIGHT_MATCH = true;
export const ROWS_CANNOT_MATCH = false;

/** A compiled check; `signedUuid` selects the legacy signed UUID order for bound comparisons. */
export type Check<C> = (ctx: C, signedUuid: boolean) => boolean;

export function compileTree<C>(expr: BoundExpression, leaf: (pred: BoundPredicate) => Check<C>): Check<C> {
  return visit<BoundPredicate, Check<C>>(expr, {
    alwaysTrue: () => () => ROWS_MIGHT_MATCH,
    alwaysFalse: () => () => ROWS_CANNOT_MATCH,
    not: (child) => (ctx, signed) => !child(ctx, signed),
    and: (left, right) => (ctx, signed) => left(ctx, signed) && right(ctx, signed),
    or: (left, right) => (ctx, signed) => left(ctx, signed) || right(ctx, signed),
    predicate: leaf,
  });
}

const COMPARING = new Set(['lt', 'lt-eq', 'gt', 'gt-eq', 'eq', 'not-eq', 'in', 'not-in']);

/**
 * Whether the expression compares a UUID with bounds. Java evaluates such filters a second
 * time with the signed UUID order when the first (RFC) pass prunes, because bounds written
 * before RFC-compliant UUID ordering may use either (`ExpressionUtil.toSignedUUIDLiteral`).
 */
export function comparesUuidBounds(expr: BoundExpression): boolean {
  return visit<BoundPredicate, boolean>(expr, {
    alwaysTrue: () => false,
    alwaysFalse: () => false,
    not: (child) => child,
    and: (left, right) => left || right,
    or: (left, right) => left || right,
    predicate: (pred) => pred.term.type.kind === 'uuid' && COMPARING.has(pred.op),
  });
}

/** Runs a check in the RFC order, then, if it prunes and UUID bounds are involved, in the signed order. */
export function withUuidFallback<C>(check: Check<C>, uuid: boolean): (ctx: C) => boolean {
  return uuid ? (ctx) => check(ctx, false) || check(ctx, true) : (ctx) => check(ctx, false);
}
