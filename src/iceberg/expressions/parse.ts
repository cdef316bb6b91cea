/**
 * Expression JSON → unbound Expression (REST `filter`; wire-format.md §8). Reads the legacy
 * term form exactly as Java `ExpressionParser.fromJson` does without a schema (same checks, same
 * order, same messages) and also the new form of expressions-spec Appendix B.
 */
import {
  ALWAYS_FALSE,
  ALWAYS_TRUE,
  and,
  flipOp,
  not,
  or,
  type Expression,
  type LiteralOp,
  type PredicateOp,
  type SetOp,
  type UnaryOp,
  type UnboundLiteral,
  type UnboundPredicate,
  type UnboundTerm,
} from './ast.js';
import {
  get,
  getString,
  has,
  invalidFilter,
  isObject,
  parseLiteral,
  parseLiterals,
  parseTerm,
  parseValueExpression,
  show,
  type JsonObject,
} from './parse-values.js';

/** Deepest and/or/not nesting accepted, so a hostile body cannot exhaust the stack. */
export const MAX_EXPRESSION_DEPTH = 1000;
/** Most nodes (predicates, and/or/not, constants) in one filter: binding and pruning cost follows it. */
export const MAX_EXPRESSION_NODES = 100_000;
/**
 * Most values in one `in`/`not-in`: binding, deduplication and plan-task serialisation cost
 * follows it (150,000 values took 5.8 s of planning before); beyond it a range or a join serves better.
 */
export const MAX_IN_VALUES = 50_000;

const UNARY: ReadonlySet<string> = new Set<UnaryOp>(['is-null', 'not-null', 'is-nan', 'not-nan']);
const LITERAL: ReadonlySet<string> = new Set<LiteralOp>([
  'lt', 'lt-eq', 'gt', 'gt-eq', 'eq', 'not-eq', 'starts-with', 'not-starts-with',
]);
const SET: ReadonlySet<string> = new Set<SetOp>(['in', 'not-in']);
const LOGICAL: ReadonlySet<string> = new Set(['true', 'false', 'not', 'and', 'or']);
// Java Expression.Operation values that are not filters Icefront can evaluate
const UNSUPPORTED: ReadonlySet<string> = new Set([
  'st-intersects', 'st-covers', 'st-disjoint', 'st-not-covers', 'count', 'count-star', 'max', 'min',
]);

/**
 * Parses a filter from JSON as produced by `parseJson` (bigint and JsonFloat numbers; plain
 * JSON.parse output also works, but `1.0` then reads as the integer 1). Throws IcefrontError
 * INVALID_FILTER naming the offending field or type. Constant sub-expressions are simplified
 * as Java's `Expressions.and/or/not` do (`and(true, x)` is `x`, `not(not(x))` is `x`).
 */
export function parseExpression(json: unknown): Expression {
  return parseNode(json, 1, { nodes: 0 });
}

function parseNode(json: unknown, depth: number, seen: { nodes: number }): Expression {
  if (depth > MAX_EXPRESSION_DEPTH) {
    throw invalidFilter(`Cannot parse expression: nested deeper than ${MAX_EXPRESSION_DEPTH} levels`);
  }
  if (++seen.nodes > MAX_EXPRESSION_NODES) throw invalidFilter(`Cannot parse expression: more than ${MAX_EXPRESSION_NODES} nodes`);
  if (json === null || json === undefined) throw invalidFilter('Cannot parse expression from null object');
  if (typeof json === 'boolean') return json ? ALWAYS_TRUE : ALWAYS_FALSE;
  if (!isObject(json)) throw invalidFilter(`Cannot parse expression from non-object: ${show(json)}`);

  const type = getString(json, 'type');
  if (type.toLowerCase() === 'literal') {
    const value = get(json, 'value');
    if (typeof value !== 'boolean') throw invalidFilter(`Cannot parse to a boolean value: value: ${show(value)}`);
    return value ? ALWAYS_TRUE : ALWAYS_FALSE;
  }

  const op = operation(type);
  switch (op) {
    // the spec's deprecated {"type":"true"} / {"type":"false"} (Java cannot read them; we do)
    case 'true':
      return ALWAYS_TRUE;
    case 'false':
      return ALWAYS_FALSE;
    case 'not':
      return not(parseNode(get(json, 'child'), depth + 1, seen));
    case 'and': {
      const left = parseNode(get(json, 'left'), depth + 1, seen);
      return and(left, parseNode(get(json, 'right'), depth + 1, seen));
    }
    case 'or': {
      const left = parseNode(get(json, 'left'), depth + 1, seen);
      return or(left, parseNode(get(json, 'right'), depth + 1, seen));
    }
    default:
      return has(json, 'term') ? legacyPredicate(op, json) : newPredicate(op, json);
  }
}

/** Java `Operation.fromString(type.replaceAll("-", "_"))`: case-insensitive, `_` or `-`. */
function operation(type: string): PredicateOp | 'true' | 'false' | 'not' | 'and' | 'or' {
  const op = type.toLowerCase().replaceAll('_', '-');
  if (UNARY.has(op) || LITERAL.has(op) || SET.has(op) || LOGICAL.has(op)) {
    return op as PredicateOp | 'true' | 'false' | 'not' | 'and' | 'or';
  }
  if (UNSUPPORTED.has(op)) throw invalidFilter(`Unsupported operation: ${javaName(op)}`);
  throw invalidFilter(`Invalid operation type: ${type.replaceAll('-', '_')}`);
}

/** The Java enum name used in Java's messages: `not-nan` → `NOT_NAN`. */
function javaName(op: string): string {
  return op.toUpperCase().replaceAll('-', '_');
}

/** Java `predicateFromJson`: the term first, then the value/values checks of the operation. */
function legacyPredicate(op: PredicateOp, node: JsonObject): UnboundPredicate {
  const term = parseTerm(node['term']);
  const name = javaName(op);
  if (UNARY.has(op)) {
    rejectValues(node, name);
    return { kind: 'unary', op: op as UnaryOp, term };
  }
  if (LITERAL.has(op)) {
    if (!has(node, 'value')) throw invalidFilter(`Cannot parse ${name} predicate: missing value`);
    if (has(node, 'values')) throw invalidFilter(`Cannot parse ${name} predicate: has invalid values field`);
    return { kind: 'literal', op: op as LiteralOp, term, literal: parseLiteral(node['value']) };
  }
  return setPredicate(op as SetOp, term, node, name);
}

function rejectValues(node: JsonObject, name: string): void {
  if (has(node, 'value')) throw invalidFilter(`Cannot parse ${name} predicate: has invalid value field`);
  if (has(node, 'values')) throw invalidFilter(`Cannot parse ${name} predicate: has invalid values field`);
}

function setPredicate(op: SetOp, term: UnboundTerm, node: JsonObject, name: string): UnboundPredicate {
  if (!has(node, 'values')) throw invalidFilter(`Cannot parse ${name} predicate: missing values`);
  if (has(node, 'value')) throw invalidFilter(`Cannot parse ${name} predicate: has invalid value field`);
  const values = node['values'];
  if (Array.isArray(values) && values.length > MAX_IN_VALUES)
    throw invalidFilter(`Cannot parse ${name} predicate: ${values.length} values, more than ${MAX_IN_VALUES}`);
  return { kind: 'set', op, term, literals: parseLiterals(values) };
}

/** expressions-spec Appendix B: `child` for unary and set predicates, `left`/`right` for comparisons. */
function newPredicate(op: PredicateOp, node: JsonObject): UnboundPredicate {
  const name = javaName(op);
  if (UNARY.has(op) || SET.has(op)) {
    if (!has(node, 'child')) throw invalidFilter(`Cannot parse ${name} predicate: missing field: term or child`);
    const term = childTerm(node['child'], name);
    if (UNARY.has(op)) {
      rejectValues(node, name);
      return { kind: 'unary', op: op as UnaryOp, term };
    }
    return setPredicate(op as SetOp, term, node, name);
  }
  if (!has(node, 'left') && !has(node, 'right')) {
    throw invalidFilter(`Cannot parse ${name} predicate: missing field: term or left`);
  }
  const left = parseValueExpression(get(node, 'left'));
  const right = parseValueExpression(get(node, 'right'));
  if (has(node, 'value') || has(node, 'values')) {
    throw invalidFilter(`Cannot parse ${name} predicate: value/values cannot be combined with left/right`);
  }
  if ('term' in left && 'literal' in right) return comparison(op as LiteralOp, left.term, right.literal);
  if ('literal' in left && 'term' in right) {
    const flipped = flipOp(op as LiteralOp);
    if (flipped === undefined) throw invalidFilter(`Cannot parse ${name} predicate: the literal must be on the right`);
    return comparison(flipped, right.term, left.literal);
  }
  if ('term' in left) throw invalidFilter(`Cannot parse ${name} predicate: comparing two columns is not supported`);
  throw invalidFilter(`Cannot parse ${name} predicate: one side must be a column reference or transform`);
}

function childTerm(child: unknown, name: string): UnboundTerm {
  const value = parseValueExpression(child);
  if (!('term' in value)) throw invalidFilter(`Cannot parse ${name} predicate: child must be a column reference or transform`);
  return value.term;
}

function comparison(op: LiteralOp, term: UnboundTerm, literal: UnboundLiteral): UnboundPredicate {
  return { kind: 'literal', op, term, literal };
}
