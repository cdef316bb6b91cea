/**
 * Human-readable text of an expression for logs and the CLI, in the style of Java's
 * `toString` (`(a < 5 and not_null(b))`, `bucket[16](id) == 3`, `s startsWith "ab"`).
 */
import { stringifyJson } from '../../json/index.js';
import { primitiveToString } from '../types.js';
import type { Expr, Expression, LiteralOp, PredicateOp, UnboundLiteral, UnboundTerm } from './ast.js';
import { transformToString } from './to-json.js';
import { visit } from './visit.js';

const SYMBOL: Readonly<Record<LiteralOp, string>> = {
  lt: '<',
  'lt-eq': '<=',
  gt: '>',
  'gt-eq': '>=',
  eq: '==',
  'not-eq': '!=',
  'starts-with': 'startsWith',
  'not-starts-with': 'notStartsWith',
};

export function expressionToString(expr: Expression): string {
  return formatExpression(expr, (p) => formatPredicate(p, unboundTermToString, unboundLiteralToString));
}

/** The boolean skeleton as text, with predicates formatted by `predicate`. */
export function formatExpression<P>(expr: Expr<P>, predicate: (p: P) => string): string {
  return visit(expr, {
    alwaysTrue: () => 'true',
    alwaysFalse: () => 'false',
    not: (child) => `not(${child})`,
    and: (left, right) => `(${left} and ${right})`,
    or: (left, right) => `(${left} or ${right})`,
    predicate,
  });
}

/** One predicate as text, given how to show its term and its literals. */
export function formatPredicate<T, L>(
  p: { kind: 'unary' | 'literal' | 'set'; op: PredicateOp; term: T; literal?: L; literals?: readonly L[] },
  term: (t: T) => string,
  literal: (l: L) => string,
): string {
  const t = term(p.term);
  if (p.kind === 'unary') return `${p.op.replace('-', '_')}(${t})`;
  if (p.kind === 'set') return `${t} ${p.op === 'in' ? 'in' : 'not in'} (${(p.literals ?? []).map(literal).join(', ')})`;
  return `${t} ${SYMBOL[p.op as LiteralOp]} ${literal(p.literal as L)}`;
}

export function unboundTermToString(term: UnboundTerm): string {
  return term.kind === 'ref' ? term.name : `${transformToString(term.transform)}(${term.ref.name})`;
}

function unboundLiteralToString(lit: UnboundLiteral): string {
  const text = stringifyJson(lit.value);
  return lit.dataType === undefined ? text : `${primitiveToString(lit.dataType)} ${text}`;
}
