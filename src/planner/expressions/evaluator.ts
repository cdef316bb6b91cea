/**
 * The exact row evaluator (Java `Evaluator`, `BoundPredicate.test`): a bound expression against
 * one row or partition tuple, given as nested arrays in struct field order. Java's semantics,
 * including its quirks:
 *
 * - comparisons use the literal's comparator, which sorts null first: for a null value lt,
 *   lt-eq and not-eq are true, gt, gt-eq and eq are false;
 * - float/double compare as `Double.compare`: NaN is above +Infinity (gt NaN is true), -0.0 < 0.0;
 * - in is set membership (null and NaN are never members), not-in its negation;
 * - starts-with is false for null, not-starts-with true; is-nan is false for null.
 */
import { fail } from '../../errors/index.js';
import { compareValues, visit } from '../../iceberg/index.js';
import { applyTransform } from '../transforms/index.js';
import type {
  BoundExpression,
  BoundLiteralPredicate,
  BoundPredicate,
  BoundSetPredicate,
  BoundTerm,
  BoundUnaryPredicate,
} from './bound.js';
import { valueKey } from './value-key.js';

/** A bound expression as a check of rows, compiled once: a loop over rows walks no tree. */
export function rowCheck(expr: BoundExpression): (row: readonly unknown[]) => boolean {
  return visit<BoundPredicate, RowCheck>(expr, {
    alwaysTrue: () => () => true,
    alwaysFalse: () => () => false,
    not: (child) => (row) => !child(row),
    and: (left, right) => (row) => left(row) && right(row),
    or: (left, right) => (row) => left(row) || right(row),
    predicate: (pred) => (row) => testPredicate(pred, evalTerm(pred.term, row)),
  });
}

type RowCheck = (row: readonly unknown[]) => boolean;

/** One row against a bound expression (a check compiled for it: loops keep a `rowCheck`). */
export function evaluate(expr: BoundExpression, row: readonly unknown[]): boolean {
  return rowCheck(expr)(row);
}

/** The term's value on a row (Java `Bound.eval`): the field through its accessor, then the transform. */
export function evalTerm(term: BoundTerm, row: readonly unknown[]): unknown {
  const ref = term.kind === 'ref' ? term : term.ref;
  if (ref.accessor === null) {
    throw fail('INVALID_FILTER', `Cannot evaluate '${ref.name}' on a row: it is inside a list or map`);
  }
  let v: unknown = row;
  for (const position of ref.accessor) {
    if (v === null || v === undefined) return null;
    v = (v as readonly unknown[])[position];
  }
  v ??= null;
  return term.kind === 'ref' ? v : applyTransform(term.transform, ref.type, v);
}

/** Java `BoundPredicate.test(value)`: the predicate applied to an already evaluated term value. */
export function testPredicate(pred: BoundPredicate, value: unknown): boolean {
  const isNull = value === null || value === undefined;
  switch (pred.kind) {
    case 'unary':
      return testUnary(pred.op, value, isNull);
    case 'literal':
      return testLiteral(pred, value, isNull);
    case 'set': {
      const member = !isNull && memberKeys(pred).has(valueKey(value));
      return pred.op === 'in' ? member : !member;
    }
  }
}

function testUnary(op: BoundUnaryPredicate['op'], value: unknown, isNull: boolean): boolean {
  const isNaN = typeof value === 'number' && Number.isNaN(value);
  switch (op) {
    case 'is-null':
      return isNull;
    case 'not-null':
      return !isNull;
    case 'is-nan':
      return isNaN;
    case 'not-nan':
      return !isNaN;
  }
}

function testLiteral(pred: BoundLiteralPredicate, value: unknown, isNull: boolean): boolean {
  if (pred.op === 'starts-with' || pred.op === 'not-starts-with') {
    const starts = typeof value === 'string' && value.startsWith(pred.literal as string);
    return pred.op === 'starts-with' ? starts : !starts;
  }
  // the literal's comparator is Comparators.nullsFirst().thenComparing(...)
  const cmp = isNull ? -1 : compareValues(pred.term.type, value, pred.literal);
  switch (pred.op) {
    case 'lt':
      return cmp < 0;
    case 'lt-eq':
      return cmp <= 0;
    case 'gt':
      return cmp > 0;
    case 'gt-eq':
      return cmp >= 0;
    case 'eq':
      return cmp === 0;
    case 'not-eq':
      return cmp !== 0;
  }
}

const keysByPredicate = new WeakMap<BoundSetPredicate, ReadonlySet<string>>();

function memberKeys(pred: BoundSetPredicate): ReadonlySet<string> {
  let keys = keysByPredicate.get(pred);
  if (keys === undefined) {
    keys = new Set(pred.literals.map(valueKey));
    keysByPredicate.set(pred, keys);
  }
  return keys;
}
