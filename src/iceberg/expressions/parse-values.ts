/**
 * Terms and literals of expression JSON: the legacy term form (Java `ExpressionParser.term`,
 * `literal`, `asObject`; wire-format.md §8.2) and the new value expressions (references, typed
 * literals, `apply` of partition transforms; expressions-spec Appendix A/B, wire-format.md §8.3).
 */
import { fail, type IcefrontError } from '../../errors/index.js';
import { JsonFloat, stringifyJson } from '../../json/index.js';
import { fromJsonSingleValue } from '../literals/index.js';
import { parseTransform, type Transform } from '../transform.js';
import { parsePrimitive } from '../type-json.js';
import { primitiveToString, type PrimitiveType } from '../types.js';
import type { JsonScalar, NamedReference, UnboundLiteral, UnboundTerm } from './ast.js';

export type JsonObject = Record<string, unknown>;

export function invalidFilter(message: string, cause?: unknown): IcefrontError {
  return fail('INVALID_FILTER', message, cause);
}

export function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof JsonFloat);
}

/** Java `JsonNode.has`: the key is present, even with a JSON null. */
export function has(node: JsonObject, key: string): boolean {
  return Object.hasOwn(node, key);
}

/** Java `JsonUtil.get`. */
export function get(node: JsonObject, key: string): unknown {
  if (!has(node, key)) throw invalidFilter(`Cannot parse missing field: ${key}`);
  return node[key];
}

/** Java `JsonUtil.getString`. */
export function getString(node: JsonObject, key: string): string {
  if (!has(node, key)) throw invalidFilter(`Cannot parse missing string: ${key}`);
  const v = node[key];
  if (typeof v !== 'string') throw invalidFilter(`Cannot parse to a string value: ${key}: ${show(v)}`);
  return v;
}

/** Short JSON text of a node for error messages. */
export function show(v: unknown): string {
  let text: string;
  try {
    text = v === undefined ? 'undefined' : stringifyJson(v);
  } catch {
    // too deep to stringify (a RangeError): say what it is, never recurse again
    text = Array.isArray(v) ? '[…]' : typeof v === 'object' && v !== null ? '{…}' : typeof v;
  }
  return text.length > 120 ? `${text.slice(0, 120)}…` : text;
}

const LONG_MIN = -(2n ** 63n);
const LONG_MAX = 2n ** 63n - 1n;

/**
 * A bare JSON literal (Java `asObject`): an integral number in the 64-bit range (a Java Long), a
 * number with a fraction or exponent (a Double), a string or a boolean. Anything else throws.
 */
function scalar(v: unknown): JsonScalar {
  if (typeof v === 'boolean' || typeof v === 'string' || v instanceof JsonFloat) return v;
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'bigint' && v >= LONG_MIN && v <= LONG_MAX) return v;
  throw invalidFilter(`Cannot convert JSON to literal: ${show(v)}`);
}

const TYPED_KINDS = new Set([
  'boolean', 'int', 'long', 'float', 'double', 'decimal', 'date', 'time', 'timestamp', 'timestamptz',
  'timestamp_ns', 'timestamptz_ns', 'string', 'uuid', 'fixed', 'binary',
]);

function dataType(v: unknown): PrimitiveType {
  if (typeof v !== 'string') throw invalidFilter(`Cannot parse literal data-type: ${show(v)}`);
  let type: PrimitiveType;
  try {
    type = parsePrimitive(v);
  } catch (err) {
    throw invalidFilter(`Cannot parse literal data-type: ${show(v)}`, err);
  }
  if (!TYPED_KINDS.has(type.kind)) throw invalidFilter(`Unsupported literal data-type: ${primitiveToString(type)}`);
  return type;
}

/** A typed literal (new form): the value must be a JSON single value of its data-type, never NaN. */
function typed(value: unknown, type: PrimitiveType): UnboundLiteral {
  const raw = scalar(value);
  let parsed: unknown;
  try {
    parsed = fromJsonSingleValue(type, raw);
  } catch (err) {
    throw invalidFilter(`Invalid ${primitiveToString(type)} literal: ${show(raw)}`, err);
  }
  // Java Literals.from: "Cannot create expression literal from NaN"
  if (typeof parsed === 'number' && Number.isNaN(parsed)) throw invalidFilter('Cannot create expression literal from NaN');
  return { value: raw, dataType: type };
}

/**
 * One literal: a bare value, or `{"type":"literal","value":V[,"data-type":T]}` (Java accepts the
 * object form for any value; the type name is case-insensitive).
 */
export function parseLiteral(node: unknown): UnboundLiteral {
  if (isObject(node) && has(node, 'type')) {
    const type = getString(node, 'type');
    if (type.toLowerCase() !== 'literal') throw invalidFilter(`Cannot parse type as a literal: ${type}`);
    const value = get(node, 'value');
    if (has(node, 'data-type')) return typed(value, dataType(node['data-type']));
    return { value: scalar(value) };
  }
  return { value: scalar(node) };
}

/** `values` of a set predicate: an array of literals, or `{"type":"literals","values":[…],"data-type":T}`. */
export function parseLiterals(node: unknown): UnboundLiteral[] {
  if (Array.isArray(node)) return node.map(parseLiteral);
  if (isObject(node) && node['type'] === 'literals') {
    const values = get(node, 'values');
    if (!Array.isArray(values)) throw invalidFilter(`Cannot parse literals from non-array: ${show(values)}`);
    const type = dataType(get(node, 'data-type'));
    return values.map((v) => typed(v, type));
  }
  throw invalidFilter(`Cannot parse literals from non-array: ${show(node)}`);
}

function reference(node: JsonObject): NamedReference {
  if (has(node, 'id') && !has(node, 'name') && !has(node, 'term')) {
    throw invalidFilter(`Cannot bind a reference by field id in a filter: ${show(node)}`);
  }
  // legacy {"type":"reference","term":"a"} (Java) or new {"type":"reference","name":"a"}
  return { kind: 'ref', name: getString(node, has(node, 'term') ? 'term' : 'name') };
}

function refOnly(node: unknown, where: string): NamedReference {
  if (typeof node === 'string') return { kind: 'ref', name: node };
  if (isObject(node) && node['type'] === 'reference') return reference(node);
  throw invalidFilter(`Cannot parse ${where}: expected a column reference, got ${show(node)}`);
}

/** A legacy transform string; unknown transforms cannot be evaluated and are rejected. */
function transformFrom(text: string): Transform {
  const t = parseTransform(text);
  if (t.kind === 'unknown') throw invalidFilter(`Unsupported transform: ${text}`);
  return parseTransform(t.param === undefined ? t.kind : `${t.kind}[${t.param}]`);
}

/** A legacy term (Java `ExpressionParser.term`): a name, a reference object or a transform object. */
export function parseTerm(node: unknown): UnboundTerm {
  if (typeof node === 'string') return { kind: 'ref', name: node };
  if (isObject(node)) {
    const type = getString(node, 'type');
    switch (type) {
      case 'reference':
        return reference(node);
      case 'transform': {
        const ref = refOnly(get(node, 'term'), 'transform term');
        return { kind: 'transform', transform: transformFrom(getString(node, 'transform')), ref };
      }
      case 'apply':
        return parseApply(node);
      default:
        throw invalidFilter(`Cannot parse type as a reference: ${type}`);
    }
  }
  throw invalidFilter(`Cannot parse reference (requires string or object): ${show(node)}`);
}

export type ValueExpression = { readonly term: UnboundTerm } | { readonly literal: UnboundLiteral };

/** A new-form value expression: a literal (bare or object), a reference or an apply. */
export function parseValueExpression(node: unknown): ValueExpression {
  if (node === null || node === undefined) {
    throw invalidFilter('Cannot parse value expression: null is not a literal (use is-null / not-null)');
  }
  if (isObject(node) && has(node, 'type')) {
    const type = node['type'];
    if (type === 'reference' || type === 'apply' || type === 'transform') return { term: parseTerm(node) };
    if (typeof type === 'string' && type.toLowerCase() === 'literal') return { literal: parseLiteral(node) };
    throw invalidFilter(`Cannot parse value expression type: ${show(type)}`);
  }
  return { literal: parseLiteral(node) };
}

const ONE_ARG = new Set(['identity', 'year', 'month', 'day', 'hour']);
const INT_MAX = 2 ** 31 - 1;

// expressions-spec "Apply function": a string, an identifier array, or {catalog?, identifier}
function functionName(fn: unknown): string {
  let catalog: unknown = null;
  let identifier: unknown = fn;
  if (isObject(fn)) {
    catalog = fn['catalog'] ?? null;
    identifier = get(fn, 'identifier');
  }
  const parts = typeof identifier === 'string' ? [identifier] : identifier;
  if (!Array.isArray(parts) || parts.length === 0 || !parts.every((p) => typeof p === 'string')) {
    throw invalidFilter(`Cannot parse function reference: ${show(fn)}`);
  }
  if (parts.length !== 1 || (catalog !== null && catalog !== 'iceberg_functions')) {
    throw invalidFilter(`Unsupported function: ${show(fn)}`);
  }
  return (parts[0] as string).toLowerCase();
}

function intParameter(node: unknown, fn: string): number {
  const v = isObject(node) ? parseLiteral(node).value : node;
  const n = typeof v === 'bigint' ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isInteger(n) || n <= 0 || n > INT_MAX) {
    throw invalidFilter(`Cannot parse ${fn} parameter: expected a positive int, got ${show(node)}`);
  }
  return n;
}

/**
 * `{"type":"apply","function":F,"arguments":[…]}` of an Iceberg partition transform (expressions
 * spec Appendix A): identity/year/month/day/hour(ref), bucket(N, ref), truncate(W, ref).
 */
function parseApply(node: JsonObject): UnboundTerm {
  const fn = functionName(get(node, 'function'));
  const args = get(node, 'arguments');
  if (!Array.isArray(args)) throw invalidFilter(`Cannot parse ${fn} arguments from non-array: ${show(args)}`);
  if (ONE_ARG.has(fn)) {
    if (args.length !== 1) throw invalidFilter(`Function ${fn} takes 1 argument, got ${args.length}`);
    return { kind: 'transform', transform: parseTransform(fn), ref: refOnly(args[0], `${fn} argument`) };
  }
  if (fn === 'bucket' || fn === 'truncate') {
    if (args.length !== 2) throw invalidFilter(`Function ${fn} takes 2 arguments, got ${args.length}`);
    const param = intParameter(args[0], fn);
    return { kind: 'transform', transform: parseTransform(`${fn}[${param}]`), ref: refOnly(args[1], `${fn} argument`) };
  }
  throw invalidFilter(`Unsupported function: ${fn}`);
}
