/**
 * The expression tree (Java `org.apache.iceberg.expressions`; wire-format.md §8). The boolean
 * skeleton (constants, and/or/not) is generic over the predicate type, so the unbound tree
 * parsed from JSON and the bound tree produced by the planner share one shape.
 */
import type { PrimitiveType } from '../types.js';
import type { JsonFloat } from '../../json/index.js';
import type { Transform } from '../transform.js';

export type UnaryOp = 'is-null' | 'not-null' | 'is-nan' | 'not-nan';
export type LiteralOp = 'lt' | 'lt-eq' | 'gt' | 'gt-eq' | 'eq' | 'not-eq' | 'starts-with' | 'not-starts-with';
export type SetOp = 'in' | 'not-in';
export type PredicateOp = UnaryOp | LiteralOp | SetOp;

export interface AlwaysTrue {
  readonly kind: 'true';
}
export interface AlwaysFalse {
  readonly kind: 'false';
}
export interface And<P> {
  readonly kind: 'and';
  readonly left: Expr<P>;
  readonly right: Expr<P>;
}
export interface Or<P> {
  readonly kind: 'or';
  readonly left: Expr<P>;
  readonly right: Expr<P>;
}
export interface Not<P> {
  readonly kind: 'not';
  readonly child: Expr<P>;
}
/** A boolean expression whose leaves are predicates of type P. */
export type Expr<P> = AlwaysTrue | AlwaysFalse | And<P> | Or<P> | Not<P> | P;

/** Predicate shapes shared by unbound (T = UnboundTerm, L = UnboundLiteral) and bound trees. */
export interface UnaryPredicate<T> {
  readonly kind: 'unary';
  readonly op: UnaryOp;
  readonly term: T;
}
export interface LiteralPredicate<T, L> {
  readonly kind: 'literal';
  readonly op: LiteralOp;
  readonly term: T;
  readonly literal: L;
}
export interface SetPredicate<T, L> {
  readonly kind: 'set';
  readonly op: SetOp;
  readonly term: T;
  readonly literals: readonly L[];
}
export type Predicate<T, L> = UnaryPredicate<T> | LiteralPredicate<T, L> | SetPredicate<T, L>;

/** An unbound column reference by (possibly dotted) name, as written by the client. */
export interface NamedReference {
  readonly kind: 'ref';
  readonly name: string;
}
/** A partition transform applied to a named reference (`bucket[16](id)`). Never `unknown`. */
export interface UnboundTransform {
  readonly kind: 'transform';
  readonly transform: Transform;
  readonly ref: NamedReference;
}
export type UnboundTerm = NamedReference | UnboundTransform;

/** A JSON scalar as `parseJson` yields it: integral numbers are number or bigint, others JsonFloat. */
export type JsonScalar = boolean | number | bigint | string | JsonFloat;

/**
 * A literal kept as the JSON value that came in, converted only at bind time (Java keeps a
 * Long/Double/String/Boolean and converts with `Literal.to(type)`). `dataType` is the new-form
 * `"data-type"` of a typed literal; its value was checked against that type when parsed.
 */
export interface UnboundLiteral {
  readonly value: JsonScalar;
  readonly dataType?: PrimitiveType;
}

export type UnboundPredicate = Predicate<UnboundTerm, UnboundLiteral>;
/** An unbound filter, as parsed from a plan request. */
export type Expression = Expr<UnboundPredicate>;

export const ALWAYS_TRUE: AlwaysTrue = Object.freeze({ kind: 'true' });
export const ALWAYS_FALSE: AlwaysFalse = Object.freeze({ kind: 'false' });

export function alwaysTrue(): AlwaysTrue {
  return ALWAYS_TRUE;
}
export function alwaysFalse(): AlwaysFalse {
  return ALWAYS_FALSE;
}

// Java Expressions.and: a false side wins, a true side drops out
export function and<P>(left: Expr<P>, right: Expr<P>): Expr<P> {
  if (isFalse(left) || isFalse(right)) return ALWAYS_FALSE;
  if (isTrue(left)) return right;
  if (isTrue(right)) return left;
  return { kind: 'and', left, right };
}

// Java Expressions.or: a true side wins, a false side drops out
export function or<P>(left: Expr<P>, right: Expr<P>): Expr<P> {
  if (isTrue(left) || isTrue(right)) return ALWAYS_TRUE;
  if (isFalse(left)) return right;
  if (isFalse(right)) return left;
  return { kind: 'or', left, right };
}

// Java Expressions.not: constants flip, a double negation cancels
export function not<P>(child: Expr<P>): Expr<P> {
  if (isTrue(child)) return ALWAYS_FALSE;
  if (isFalse(child)) return ALWAYS_TRUE;
  if (isNot(child)) return child.child;
  return { kind: 'not', child };
}

export function isTrue(e: unknown): e is AlwaysTrue {
  return (e as { kind?: unknown }).kind === 'true';
}
export function isFalse(e: unknown): e is AlwaysFalse {
  return (e as { kind?: unknown }).kind === 'false';
}
function isNot<P>(e: Expr<P>): e is Not<P> {
  return (e as { kind?: unknown }).kind === 'not';
}

/** Whether a node is a predicate leaf rather than a constant or a boolean combination. */
export function isPredicate<P>(e: Expr<P>): e is P {
  const kind = (e as { kind?: unknown }).kind;
  return kind === 'unary' || kind === 'literal' || kind === 'set';
}

const NEGATED: Readonly<Record<PredicateOp, PredicateOp>> = {
  'is-null': 'not-null',
  'not-null': 'is-null',
  'is-nan': 'not-nan',
  'not-nan': 'is-nan',
  lt: 'gt-eq',
  'lt-eq': 'gt',
  gt: 'lt-eq',
  'gt-eq': 'lt',
  eq: 'not-eq',
  'not-eq': 'eq',
  'starts-with': 'not-starts-with',
  'not-starts-with': 'starts-with',
  in: 'not-in',
  'not-in': 'in',
};

/** Java `Operation.negate`: the operation equivalent to not(op). */
export function negateOp(op: UnaryOp): UnaryOp;
export function negateOp(op: LiteralOp): LiteralOp;
export function negateOp(op: SetOp): SetOp;
export function negateOp(op: PredicateOp): PredicateOp;
export function negateOp(op: PredicateOp): PredicateOp {
  return NEGATED[op];
}

/** A predicate with its operation negated (Java `Predicate.negate`); term and literals are kept. */
export function negatePredicate<T, L>(p: Predicate<T, L>): Predicate<T, L> {
  switch (p.kind) {
    case 'unary':
      return { ...p, op: negateOp(p.op) };
    case 'literal':
      return { ...p, op: negateOp(p.op) };
    case 'set':
      return { ...p, op: negateOp(p.op) };
  }
}

const FLIPPED: Partial<Readonly<Record<LiteralOp, LiteralOp>>> = {
  lt: 'gt',
  'lt-eq': 'gt-eq',
  gt: 'lt',
  'gt-eq': 'lt-eq',
  eq: 'eq',
  'not-eq': 'not-eq',
};

/** Java `Operation.flipLR`: the comparison with its operands exchanged; undefined for starts-with. */
export function flipOp(op: LiteralOp): LiteralOp | undefined {
  return FLIPPED[op];
}
