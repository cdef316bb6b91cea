/**
 * Pushes NOT down to the predicates (Java `RewriteNot` with `Expression.negate`): not(and(a, b))
 * becomes or(not a, not b), not(lt) becomes gt-eq, and so on, so evaluators that cannot negate
 * (inclusive/strict metrics, manifest summaries, projections) never see a Not node. Works on
 * bound and unbound trees alike.
 */
import { ALWAYS_FALSE, ALWAYS_TRUE, and, negatePredicate, or, type Expr, type Predicate } from '../../iceberg/index.js';

export function rewriteNot<P extends Predicate<unknown, unknown>>(expr: Expr<P>): Expr<P> {
  return rewrite(expr, false);
}

function rewrite<P extends Predicate<unknown, unknown>>(expr: Expr<P>, negate: boolean): Expr<P> {
  const e = expr as Expr<P> & { kind: string };
  switch (e.kind) {
    case 'true':
      return negate ? ALWAYS_FALSE : ALWAYS_TRUE;
    case 'false':
      return negate ? ALWAYS_TRUE : ALWAYS_FALSE;
    case 'not':
      return rewrite((e as { child: Expr<P> }).child, !negate);
    case 'and':
    case 'or': {
      const { left, right } = e as { left: Expr<P>; right: Expr<P> };
      const l = rewrite(left, negate);
      const r = rewrite(right, negate);
      // De Morgan: a negated and is an or of negations, and vice versa
      return (e.kind === 'and') !== negate ? and(l, r) : or(l, r);
    }
    default:
      return negate ? (negatePredicate(expr as P) as P) : expr;
  }
}
