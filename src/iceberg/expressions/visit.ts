/**
 * The one walk of an expression's boolean skeleton (Java `ExpressionVisitors.visit`, iceberg-rust
 * `expr/visitors`): a fold with one rule per node kind, each combination rule given its children
 * already folded. Every evaluator, rewrite and writer is its own rules; none walks the tree.
 * Short-circuiting users fold to closures (`and: (l, r) => (x) => l(x) && r(x)`), which also
 * keeps the walk out of their per-row or per-file loop.
 */
import type { And, Expr, Not, Or } from './ast.js';

export interface ExprVisitor<P, R> {
  readonly alwaysTrue: () => R;
  readonly alwaysFalse: () => R;
  readonly and: (left: R, right: R) => R;
  readonly or: (left: R, right: R) => R;
  readonly not: (child: R) => R;
  readonly predicate: (pred: P) => R;
}

/** The skeleton's nodes; anything else is a predicate leaf (P's kinds are none of these). */
type Skeleton<P> = { readonly kind: 'true' } | { readonly kind: 'false' } | And<P> | Or<P> | Not<P>;

export function visit<P, R>(expr: Expr<P>, visitor: ExprVisitor<P, R>): R {
  // `Expr<P>` cannot narrow on `kind` while P is generic: the one cast, here
  const node = expr as Skeleton<P>;
  switch (node.kind) {
    case 'true':
      return visitor.alwaysTrue();
    case 'false':
      return visitor.alwaysFalse();
    case 'not':
      return visitor.not(visit(node.child, visitor));
    case 'and':
      return visitor.and(visit(node.left, visitor), visit(node.right, visitor));
    case 'or':
      return visitor.or(visit(node.left, visitor), visit(node.right, visitor));
    default:
      return visitor.predicate(expr as P);
  }
}
