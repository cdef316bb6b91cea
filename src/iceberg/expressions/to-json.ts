/**
 * Expression → legacy (term-based) JSON, the form every shipped client reads (wire-format.md
 * §8.2, §10.5): as Java's `ExpressionParser.JsonGeneratorVisitor` writes unbound expressions.
 * Constants are bare booleans; terms are a plain name or a transform object; literals are the
 * JSON values that came in. The result is for `stringifyJson` (bigint and JsonFloat kept).
 */
import type { Transform } from '../transform.js';
import type { Expr, Expression, UnboundLiteral, UnboundPredicate, UnboundTerm } from './ast.js';
import { visit } from './visit.js';

/** The legacy JSON of an unbound expression, suitable for `residual-filter`. */
export function expressionToJson(expr: Expression): unknown {
  return exprToJson(expr, unboundPredicateToJson);
}

/** The boolean skeleton of the legacy form, with predicates written by `predicate`. */
export function exprToJson<P>(expr: Expr<P>, predicate: (p: P) => unknown): unknown {
  return visit<P, unknown>(expr, {
    alwaysTrue: () => true,
    alwaysFalse: () => false,
    not: (child) => ({ type: 'not', child }),
    and: (left, right) => ({ type: 'and', left, right }),
    or: (left, right) => ({ type: 'or', left, right }),
    predicate,
  });
}

/** Canonical transform text as Java's `Transform.toString` writes it: `bucket[16]`, `day`. */
export function transformToString(t: Transform): string {
  return t.param === undefined ? t.kind : `${t.kind}[${t.param}]`;
}

/** A legacy term: the column name, or `{"type":"transform","transform":"bucket[16]","term":"id"}`. */
export function legacyTermJson(name: string, transform?: Transform): unknown {
  if (transform === undefined) return name;
  return { type: 'transform', transform: transformToString(transform), term: name };
}

function termJson(term: UnboundTerm): unknown {
  return term.kind === 'ref' ? legacyTermJson(term.name) : legacyTermJson(term.ref.name, term.transform);
}

function literalJson(lit: UnboundLiteral): unknown {
  return lit.value;
}

function unboundPredicateToJson(p: UnboundPredicate): unknown {
  switch (p.kind) {
    case 'unary':
      return { type: p.op, term: termJson(p.term) };
    case 'literal':
      return { type: p.op, term: termJson(p.term), value: literalJson(p.literal) };
    case 'set':
      return { type: p.op, term: termJson(p.term), values: p.literals.map(literalJson) };
  }
}
