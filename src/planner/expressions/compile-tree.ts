/**
 * Turning a bound expression into one closure per node, built once per evaluator so that
 * evaluating a file or manifest walks no tree and allocates nothing (the planner architecture's
 * "one evaluator per file", with Java's ROWS_MIGHT_MATCH / ROWS_CANNOT_MATCH verdicts).
 */
import type { BoundExpression, BoundPredicate } from './bound.js';

export const ROWS_MIGHT_MATCH = true;
export const ROWS_CANNOT_MATCH = false;

/** A compiled check; `signedUuid` selects the legacy signed UUID order for bound comparisons. */
export type Check<C> = (ctx: C, signedUuid: boolean) => boolean;

export function compileTree<C>(expr: BoundExpression, leaf: (pred: BoundPredicate) => Check<C>): Check<C> {
  const node = expr as BoundExpression & { kind: string };
  switch (node.kind) {
    case 'true':
      return () => ROWS_MIGHT_MATCH;
    case 'false':
      return () => ROWS_CANNOT_MATCH;
    case 'not': {
      const child = compileTree((node as { child: BoundExpression }).child, leaf);
      return (ctx, signed) => !child(ctx, signed);
    }
    case 'and': {
      const left = compileTree((node as { left: BoundExpression }).left, leaf);
      const right = compileTree((node as { right: BoundExpression }).right, leaf);
      return (ctx, signed) => left(ctx, signed) && right(ctx, signed);
    }
    case 'or': {
      const left = compileTree((node as { left: BoundExpression }).left, leaf);
      const right = compileTree((node as { right: BoundExpression }).right, leaf);
      return (ctx, signed) => left(ctx, signed) || right(ctx, signed);
    }
    default:
      return leaf(expr as BoundPredicate);
  }
}

const COMPARING = new Set(['lt', 'lt-eq', 'gt', 'gt-eq', 'eq', 'not-eq', 'in', 'not-in']);

/**
 * Whether the expression compares a UUID with bounds. Java evaluates such filters a second
 * time with the signed UUID order when the first (RFC) pass prunes, because bounds written
 * before RFC-compliant UUID ordering may use either (`ExpressionUtil.toSignedUUIDLiteral`).
 */
export function comparesUuidBounds(expr: BoundExpression): boolean {
  const node = expr as BoundExpression & { kind: string };
  switch (node.kind) {
    case 'true':
    case 'false':
      return false;
    case 'not':
      return comparesUuidBounds((node as { child: BoundExpression }).child);
    case 'and':
    case 'or':
      return (
        comparesUuidBounds((node as { left: BoundExpression }).left) ||
        comparesUuidBounds((node as { right: BoundExpression }).right)
      );
    default: {
      const pred = expr as BoundPredicate;
      return pred.term.type.kind === 'uuid' && COMPARING.has(pred.op);
    }
  }
}

/** Runs a check in the RFC order, then, if it prunes and UUID bounds are involved, in the signed order. */
export function withUuidFallback<C>(check: Check<C>, uuid: boolean): (ctx: C) => boolean {
  return uuid ? (ctx) => check(ctx, false) || check(ctx, true) : (ctx) => check(ctx, false);
}
