/**
 * Row truth for filters under SQL-style semantics, deliberately NOT the planner's evaluator
 * (which follows Java's Evaluator, where null sorts first and `null < 5` is true):
 *
 * - a comparison, set test or prefix test on null is UNKNOWN; `is-null` is the only predicate
 *   true for null; AND/OR use Kleene logic; a row matches when the filter is TRUE;
 * - NaN follows Iceberg's rule that a comparison with NaN is false (lt, lt-eq, gt, gt-eq, eq, in
 *   never match NaN; not-eq and not-in do) — only is-nan / not-nan test for NaN;
 * - NOT is pushed down to the predicates first (not(x > 1) means x <= 1), as Iceberg rewrites
 *   NOT before evaluating; with the two rules above the result is the same for null, and for NaN
 *   it keeps not(x > 1) from matching NaN.
 *
 * The filter is bound with the planner's binder (names → field ids, literals converted to the
 * column type, as Java's Binder); the interpretation is independent.
 */
import { compareValues, negatePredicate, type Expression, type Schema } from '../../../src/iceberg/index.js';
import { bind, type BoundExpression, type BoundPredicate } from '../../../src/planner/expressions/index.js';
import type { Row } from './parquet-rows.js';

export type Truth = boolean | null;

function and3(a: Truth, b: () => Truth): Truth {
  if (a === false) return false;
  const r = b();
  if (r === false) return false;
  return a === null || r === null ? null : true;
}

function or3(a: Truth, b: () => Truth): Truth {
  if (a === true) return true;
  const r = b();
  if (r === true) return true;
  return a === null || r === null ? null : false;
}

function predicate(p: BoundPredicate, row: Row): Truth {
  if (p.term.kind !== 'ref') throw new Error('transform terms are not evaluated by the SQL row filter');
  const type = p.term.type;
  const v = row.get(p.term.fieldId) ?? null;
  if (p.kind === 'unary') {
    if (p.op === 'is-null') return v === null;
    if (p.op === 'not-null') return v !== null;
    if (v === null) return null;
    const nan = typeof v === 'number' && Number.isNaN(v);
    return p.op === 'is-nan' ? nan : !nan;
  }
  if (v === null) return null;
  const nan = typeof v === 'number' && Number.isNaN(v);
  if (p.kind === 'set') {
    const member = !nan && p.literals.some((l) => compareValues(type, v, l) === 0);
    return p.op === 'in' ? member : !member;
  }
  if (p.op === 'starts-with' || p.op === 'not-starts-with') {
    const starts = (v as string).startsWith(p.literal as string);
    return p.op === 'starts-with' ? starts : !starts;
  }
  if (nan) return p.op === 'not-eq';
  const c = compareValues(type, v, p.literal);
  switch (p.op) {
    case 'lt':
      return c < 0;
    case 'lt-eq':
      return c <= 0;
    case 'gt':
      return c > 0;
    case 'gt-eq':
      return c >= 0;
    case 'eq':
      return c === 0;
    case 'not-eq':
      return c !== 0;
  }
}

/** The truth value of a bound filter on one row (`negated`: of its negation, NOT pushed down). */
export function sqlTruth(expr: BoundExpression, row: Row, negated = false): Truth {
  switch (expr.kind) {
    case 'true':
      return !negated;
    case 'false':
      return negated;
    case 'not':
      return sqlTruth(expr.child, row, !negated);
    case 'and':
    case 'or': {
      const conjunction = (expr.kind === 'and') !== negated;
      const left = sqlTruth(expr.left, row, negated);
      const right = () => sqlTruth(expr.right, row, negated);
      return conjunction ? and3(left, right) : or3(left, right);
    }
    default:
      return predicate(negated ? (negatePredicate(expr) as BoundPredicate) : expr, row);
  }
}

/** A row predicate: true when `filter` (unbound) is TRUE on the row. */
export function sqlMatcher(filter: Expression, schema: Schema, caseSensitive = true): (row: Row) => boolean {
  const bound = bind(filter, schema.asStruct(), caseSensitive);
  return (row) => sqlTruth(bound, row) === true;
}

/** Field ids a bound filter reads. */
export function boundFieldIds(expr: BoundExpression, out = new Set<number>()): Set<number> {
  switch (expr.kind) {
    case 'true':
    case 'false':
      return out;
    case 'not':
      return boundFieldIds(expr.child, out);
    case 'and':
    case 'or':
      boundFieldIds(expr.left, out);
      return boundFieldIds(expr.right, out);
    default:
      out.add(expr.term.kind === 'ref' ? expr.term.fieldId : expr.term.ref.fieldId);
      return out;
  }
}
