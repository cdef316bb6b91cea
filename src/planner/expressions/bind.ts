/**
 * Binding an unbound filter to a struct (Java `Binder.bind`, `NamedReference.bind`,
 * `UnboundTransform.bind`, `UnboundPredicate.bind`; wire-format.md §8.4): names become field
 * ids, literals are converted to the term's type, and predicates that are decided by the schema
 * alone fold to true/false.
 */
import { fail } from '../../errors/index.js';
import { ALWAYS_FALSE, ALWAYS_TRUE, and, not, or, transformResultType, transformToString, primitiveToString, isPrimitive, type Expression, type IcebergType, type LiteralOp, type PrimitiveValue, type StructType, type UnboundLiteral, type UnboundPredicate, type UnboundTerm, type UnaryPredicate, visit } from '../../iceberg/index.js';
import { stringifyJson } from '../../json/index.js';
import { canTransform, preservesOrder } from '../transforms/index.js';
import type { BoundExpression, BoundReference, BoundTerm } from './bound.js';
import { convertLiteral, sourceLiteral, type Converted } from './literal-convert.js';
import { resolveField } from './struct-index.js';
import { valueKey } from './value-key.js';

/**
 * Binds `expr` to `struct` (a schema's struct or a partition type). Throws INVALID_FILTER for
 * an unknown field (naming it), a literal that cannot become the term's type, is-nan/not-nan on
 * a non-float term, starts-with on a non-string term, or a transform that does not accept the
 * column's type. `caseSensitive` defaults to true as in Java.
 */
export function bind(expr: Expression, struct: StructType, caseSensitive = true): BoundExpression {
  return visit<UnboundPredicate, BoundExpression>(expr, {
    alwaysTrue: () => ALWAYS_TRUE,
    alwaysFalse: () => ALWAYS_FALSE,
    not,
    and,
    or,
    predicate: (pred) => bindPredicate(pred, struct, caseSensitive),
  });
}

function bindPredicate(pred: UnboundPredicate, struct: StructType, caseSensitive: boolean): BoundExpression {
  const { term, ancestorsRequired } = bindTerm(pred.term, struct, caseSensitive);
  switch (pred.kind) {
    case 'unary':
      return bindUnary({ ...pred, term }, ancestorsRequired);
    case 'literal':
      return bindLiteral(pred.op, term, pred.literal);
    case 'set':
      return bindSet(pred.op, term, pred.literals);
  }
}

function bindTerm(term: UnboundTerm, struct: StructType, caseSensitive: boolean): { term: BoundTerm; ancestorsRequired: boolean } {
  const name = term.kind === 'ref' ? term.name : term.ref.name;
  const resolved = resolveField(struct, name, caseSensitive);
  if (resolved === undefined) throw fail('INVALID_FILTER', `Cannot find field '${name}' in struct`);
  const ref: BoundReference = {
    kind: 'ref',
    fieldId: resolved.field.id,
    name,
    field: resolved.field,
    type: resolved.field.type,
    accessor: resolved.accessor,
  };
  if (term.kind === 'ref') return { term: ref, ancestorsRequired: resolved.ancestorsRequired };
  if (!canTransform(term.transform, ref.type)) {
    throw fail(
      'INVALID_FILTER',
      `Cannot bind: ${transformToString(term.transform)} cannot transform ${typeName(ref.type)} values from '${name}'`,
    );
  }
  const bound: BoundTerm = { kind: 'transform', transform: term.transform, ref, type: transformResultType(term.transform, ref.type) };
  return { term: bound, ancestorsRequired: resolved.ancestorsRequired };
}

function typeName(type: IcebergType): string {
  return isPrimitive(type) ? primitiveToString(type) : type.kind;
}

/** Java `BoundTerm.producesNull`: an optional field, or a transform that may map a value to null. */
function producesNull(term: BoundTerm): boolean {
  if (term.kind === 'ref') return !term.field.required;
  return !term.ref.field.required || !preservesOrder(term.transform);
}

// UnboundPredicate.bindUnaryOperation (Iceberg 1.11: ancestors must be required too)
function bindUnary(pred: UnaryPredicate<BoundTerm>, ancestorsRequired: boolean): BoundExpression {
  const neverNull = !producesNull(pred.term) && ancestorsRequired;
  const alwaysNull = pred.term.type.kind === 'unknown';
  switch (pred.op) {
    case 'is-null':
      return neverNull ? ALWAYS_FALSE : alwaysNull ? ALWAYS_TRUE : pred;
    case 'not-null':
      return neverNull ? ALWAYS_TRUE : alwaysNull ? ALWAYS_FALSE : pred;
    case 'is-nan':
    case 'not-nan':
      if (pred.term.type.kind !== 'float' && pred.term.type.kind !== 'double') {
        const what = pred.op === 'is-nan' ? 'IsNaN' : 'NotNaN';
        throw fail('INVALID_FILTER', `${what} cannot be used with a non-floating-point column: ${describeTerm(pred.term)}`);
      }
      return pred;
  }
}

function describeTerm(term: BoundTerm): string {
  return term.kind === 'ref' ? term.name : `${transformToString(term.transform)}(${term.ref.name})`;
}

function convert(term: BoundTerm, lit: UnboundLiteral): Converted {
  const converted = convertLiteral(sourceLiteral(lit), term.type);
  if (converted === undefined) {
    const kind = lit.dataType === undefined ? typeof lit.value : typeName(lit.dataType);
    throw fail(
      'INVALID_FILTER',
      `Invalid value for conversion to type ${typeName(term.type)}: ${stringifyJson(lit.value)} (${kind}) for ${describeTerm(term)}`,
    );
  }
  return converted;
}

// UnboundPredicate.bindLiteralOperation
function bindLiteral(op: LiteralOp, term: BoundTerm, lit: UnboundLiteral): BoundExpression {
  if ((op === 'starts-with' || op === 'not-starts-with') && term.type.kind !== 'string') {
    throw fail('INVALID_FILTER', `Term for ${op} must produce a string: ${describeTerm(term)} is ${typeName(term.type)}`);
  }
  const c = convert(term, lit);
  switch (c.kind) {
    case 'value':
      return { kind: 'literal', op, term, literal: c.value };
    case 'above-max':
      return op === 'lt' || op === 'lt-eq' || op === 'not-eq' ? ALWAYS_TRUE : ALWAYS_FALSE;
    case 'below-min':
      return op === 'gt' || op === 'gt-eq' || op === 'not-eq' ? ALWAYS_TRUE : ALWAYS_FALSE;
    case 'between':
      return betweenDecimals(op, term, c.floor);
  }
}

/**
 * A decimal literal with more fraction digits than the column, strictly between `floor` and
 * `floor + 1`: no value equals it, and each ordering has an exact equivalent at the column's
 * scale (`x < 3.145` ⇔ `x < 3.15` for decimal(p,2)), so numeric comparison is preserved.
 */
function betweenDecimals(op: LiteralOp, term: BoundTerm, floor: bigint): BoundExpression {
  const ceil = floor + 1n;
  switch (op) {
    case 'eq':
      return ALWAYS_FALSE;
    case 'not-eq':
      return ALWAYS_TRUE;
    case 'lt':
    case 'gt-eq':
      return { kind: 'literal', op, term, literal: ceil };
    default:
      return { kind: 'literal', op, term, literal: floor };
  }
}

// UnboundPredicate.bindInOperation: out-of-range values drop out; 0 or 1 distinct values fold
function bindSet(op: 'in' | 'not-in', term: BoundTerm, literals: readonly UnboundLiteral[]): BoundExpression {
  const seen = new Set<string>();
  const values: PrimitiveValue[] = [];
  for (const lit of literals) {
    const c = convert(term, lit);
    if (c.kind !== 'value') continue;
    const key = valueKey(c.value);
    if (seen.has(key)) continue;
    seen.add(key);
    values.push(c.value);
  }
  if (values.length === 0) return op === 'in' ? ALWAYS_FALSE : ALWAYS_TRUE;
  if (values.length === 1) return { kind: 'literal', op: op === 'in' ? 'eq' : 'not-eq', term, literal: values[0]! };
  return { kind: 'set', op, term, literals: values };
}
