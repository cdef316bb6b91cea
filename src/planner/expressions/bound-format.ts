/**
 * Bound expressions as legacy JSON and as text. Java's `JsonGeneratorVisitor` writes a bound
 * predicate's literals as JSON single values of the term's type (`SingleValueParser.toJson`):
 * a date becomes "2024-01-01", a timestamptz "…+00:00", bytes upper-case hex. This is the form
 * for residuals computed from bound filters.
 */
import { exprToJson, formatExpression, formatPredicate, legacyTermJson, toJsonSingleValue, transformToString } from '../../iceberg/index.js';
import { stringifyJson } from '../../json/index.js';
import type { BoundExpression, BoundPredicate, BoundTerm } from './bound.js';

export function boundExpressionToJson(expr: BoundExpression): unknown {
  return exprToJson(expr, boundPredicateToJson);
}

function termJson(term: BoundTerm): unknown {
  return term.kind === 'ref' ? legacyTermJson(term.name) : legacyTermJson(term.ref.name, term.transform);
}

function boundPredicateToJson(p: BoundPredicate): unknown {
  switch (p.kind) {
    case 'unary':
      return { type: p.op, term: termJson(p.term) };
    case 'literal':
      return { type: p.op, term: termJson(p.term), value: toJsonSingleValue(p.term.type, p.literal) };
    case 'set':
      return { type: p.op, term: termJson(p.term), values: p.literals.map((v) => toJsonSingleValue(p.term.type, v)) };
  }
}

export function boundExpressionToString(expr: BoundExpression): string {
  return formatExpression(expr, (p) =>
    formatPredicate(p, boundTermToString, (v) => stringifyJson(toJsonSingleValue(p.term.type, v))),
  );
}

function boundTermToString(term: BoundTerm): string {
  return term.kind === 'ref' ? term.name : `${transformToString(term.transform)}(${term.ref.name})`;
}
