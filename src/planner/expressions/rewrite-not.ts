/**
 * Pushes NOT down to the predicates (Java `RewriteNot` with `Expression.negate`): not(and(a, b))
 * becomes or(not a, not b), not(lt) becomes gt-eq, and so on, so evaluators that cannot negate
 * (inclusive/strict metrics, manifest summaries, projections) never see a Not node. Works on
 * bound and unbound trees alike.
 */
import { ALWAYS_FALSE, ALWAYS_TRUE, and, negatePredicate, or, visit, type Expr, type Predicate } from '../../iceberg/index.js';

export function rewriteNot<P extends Predicate<unknown, unknown>>(expr: Expr<P>): Expr<P> {
  return visit<P, Rewrite<P>>(expr, {
    alwaysTrue: () => (negate) => (negate ? ALWAYS_FALSE : ALWAYS_TRUE),
    alwaysFalse: () => (negate) => (negate ? ALWAYS_TRUE : ALWAYS_FALSE),
    not: (child) => (negate) => child(!negate),
    // De Morgan: a negated and is an or of negations, and vice versa
    and: (left, right) => (negate) => (negate ? or(left(true), right(true)) : and(left(false), right(false))),
    or: (left, right) => (negate) => (negate ? and(left(true), right(true)) : or(left(false), right(false))),
    predicate: (pred) => (negate) => (negate ? (negatePredicate(pred) as P) : pred),
  })(false);
}

/** A subtree, rewritten under an even (false) or odd (true) number of enclosing NOTs. */
type Rewrite<P> = (negate: boolean) => Expr<P>;
