/**
 * Typed reads from parsed JSON (see json.ts) for the metadata parsers. Every failure is an
 * IcefrontError INVALID_METADATA whose message names the field by its path
 * (`schemas[0].fields[2].type`).
 */
import { fail, type IcefrontError } from '../errors/index.js';
import { JsonFloat } from '../json/index.js';

export type JsonObject = Record<string, unknown>;

export function invalid(path: string, problem: string): IcefrontError {
  return fail('INVALID_METADATA', `Invalid Iceberg metadata: '${path || '(root)'}' ${problem}`);
}

/** `path` extended by an object key or an array index. */
export function at(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return path === '' ? key : `${path}.${key}`;
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (v instanceof JsonFloat) return `the number ${v.text}`;
  if (typeof v === 'object') return 'an object';
  if (typeof v === 'string') return `the string ${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)}`;
  return `${typeof v} ${String(v)}`;
}

export function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof JsonFloat);
}

export function asObject(v: unknown, path: string): JsonObject {
  if (!isObject(v)) throw invalid(path, `must be an object, got ${describe(v)}`);
  return v;
}

export function asArray(v: unknown, path: string): readonly unknown[] {
  if (!Array.isArray(v)) throw invalid(path, `must be an array, got ${describe(v)}`);
  return v;
}

/** Absent and JSON null both read as "not there". */
function present(obj: JsonObject, key: string): unknown {
  const v = obj[key];
  return v === null ? undefined : v;
}

export function asInt(v: unknown, path: string): number {
  if (typeof v === 'number' && Number.isInteger(v) && v >= -(2 ** 31) && v <= 2 ** 31 - 1) return v;
  throw invalid(path, `must be an int, got ${describe(v)}`);
}

export function asLong(v: unknown, path: string): bigint {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number' && Number.isSafeInteger(v)) return BigInt(v);
  // a number beyond ±(2^53−1) was rounded by whoever parsed it (parseJson makes those bigints)
  if (typeof v === 'number' && Number.isInteger(v)) throw invalid(path, `must be a long read exactly, got ${v}, which a lossy JSON parse rounded`);
  throw invalid(path, `must be a long, got ${describe(v)}`);
}

export function asString(v: unknown, path: string): string {
  if (typeof v === 'string') return v;
  throw invalid(path, `must be a string, got ${describe(v)}`);
}

function required<T>(obj: JsonObject, key: string, path: string, read: (v: unknown, p: string) => T): T {
  const v = present(obj, key);
  if (v === undefined) throw invalid(at(path, key), 'is missing');
  return read(v, at(path, key));
}

function optional<T>(obj: JsonObject, key: string, path: string, read: (v: unknown, p: string) => T): T | undefined {
  const v = present(obj, key);
  return v === undefined ? undefined : read(v, at(path, key));
}

export const reqInt = (o: JsonObject, k: string, p: string): number => required(o, k, p, asInt);
export const optInt = (o: JsonObject, k: string, p: string): number | undefined => optional(o, k, p, asInt);
export const reqLong = (o: JsonObject, k: string, p: string): bigint => required(o, k, p, asLong);
export const optLong = (o: JsonObject, k: string, p: string): bigint | undefined => optional(o, k, p, asLong);
export const reqString = (o: JsonObject, k: string, p: string): string => required(o, k, p, asString);
export const optString = (o: JsonObject, k: string, p: string): string | undefined => optional(o, k, p, asString);
export const reqArray = (o: JsonObject, k: string, p: string): readonly unknown[] => required(o, k, p, asArray);
export const optArray = (o: JsonObject, k: string, p: string): readonly unknown[] | undefined =>
  optional(o, k, p, asArray);
export const optObject = (o: JsonObject, k: string, p: string): JsonObject | undefined => optional(o, k, p, asObject);

export function reqBool(obj: JsonObject, key: string, path: string): boolean {
  return required(obj, key, path, (v, p) => {
    if (typeof v === 'boolean') return v;
    throw invalid(p, `must be a boolean, got ${describe(v)}`);
  });
}

/** A millisecond timestamp (always below 2^53) as a JS number. */
export function reqMillis(obj: JsonObject, key: string, path: string): number {
  const v = reqLong(obj, key, path);
  if (v > BigInt(Number.MAX_SAFE_INTEGER) || v < -BigInt(Number.MAX_SAFE_INTEGER)) {
    throw invalid(at(path, key), `is out of range for a millisecond timestamp: ${v}`);
  }
  return Number(v);
}

export function intList(v: unknown, path: string): number[] {
  return asArray(v, path).map((x, i) => asInt(x, at(path, i)));
}

/**
 * A string→string map. Writers that put numbers or booleans in properties/summaries are read
 * liberally: scalars become their JSON text; nested values are rejected.
 */
export function stringMap(v: unknown, path: string): Record<string, string> {
  const obj = asObject(v, path);
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(obj)) {
    if (typeof x === 'string') setKey(out, k, x);
    else if (typeof x === 'number' || typeof x === 'bigint' || typeof x === 'boolean') setKey(out, k, String(x));
    else if (x instanceof JsonFloat) setKey(out, k, x.text);
    else if (x !== null) throw invalid(at(path, k), `must be a string, got ${describe(x)}`);
  }
  return out;
}

/** `obj[key] = value` that stores a `__proto__` key as data, as JSON.parse does. */
export function setKey<T>(obj: Record<string, T>, key: string, value: T): void {
  if (key === '__proto__') {
    Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
  } else {
    obj[key] = value;
  }
}
