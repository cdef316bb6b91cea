/**
 * Typed reads from a parsed request body (`parseJson`) for the commit parsers. Every failure is a
 * BAD_REQUEST (400) whose message names the field by its path (`updates[2].action`), where Java's
 * JsonUtil answers IllegalArgumentException ("Cannot parse missing int: …").
 */
import { fail, isIcefrontError, type IcefrontError } from '../errors/index.js';
import { JsonFloat } from '../json/index.js';

export type JsonObject = Record<string, unknown>;

export function badRequest(path: string, problem: string): IcefrontError {
  return fail('BAD_REQUEST', `Invalid request: '${path || '(body)'}' ${problem}`);
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
  if (!isObject(v)) throw badRequest(path, `must be an object, got ${describe(v)}`);
  return v;
}

export function asArray(v: unknown, path: string): readonly unknown[] {
  if (!Array.isArray(v)) throw badRequest(path, `must be an array, got ${describe(v)}`);
  return v;
}

// Java JsonUtil.getInt: an integral number that fits an int
export function asInt(v: unknown, path: string): number {
  if (typeof v === 'number' && Number.isInteger(v) && v >= -(2 ** 31) && v <= 2 ** 31 - 1) return v;
  throw badRequest(path, `must be an int, got ${describe(v)}`);
}

// Java JsonUtil.getLong: an integral number that fits a long (parseJson keeps big ones as bigint)
export function asLong(v: unknown, path: string): bigint {
  if (typeof v === 'bigint' && v >= -(2n ** 63n) && v <= 2n ** 63n - 1n) return v;
  if (typeof v === 'number' && Number.isSafeInteger(v)) return BigInt(v);
  throw badRequest(path, `must be a long, got ${describe(v)}`);
}

export function asString(v: unknown, path: string): string {
  if (typeof v === 'string') return v;
  throw badRequest(path, `must be a string, got ${describe(v)}`);
}

/** Absent and JSON null both read as "not there" (Java JsonUtil's `…OrNull` readers). */
function present(obj: JsonObject, key: string): unknown {
  const v = Object.hasOwn(obj, key) ? obj[key] : undefined;
  return v === null ? undefined : v;
}

function required<T>(obj: JsonObject, key: string, path: string, read: (v: unknown, p: string) => T): T {
  const v = present(obj, key);
  if (v === undefined) throw badRequest(at(path, key), 'is missing');
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
export const reqObject = (o: JsonObject, k: string, p: string): JsonObject => required(o, k, p, asObject);

/** The raw value of a required member (for the iceberg/ parsers), BAD_REQUEST when absent or null. */
export function reqValue(obj: JsonObject, key: string, path: string): unknown {
  return required(obj, key, path, (v) => v);
}

export function hasMember(obj: JsonObject, key: string): boolean {
  return Object.hasOwn(obj, key);
}

/** Java JsonUtil.getStringMap: an object whose every value is a JSON string. */
export function stringMapOf(v: unknown, path: string): Record<string, string> {
  const obj = asObject(v, path);
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(obj)) setKey(out, k, asString(x, at(path, k)));
  return out;
}

export function intList(v: unknown, path: string): number[] {
  return asArray(v, path).map((x, i) => asInt(x, at(path, i)));
}

export function longList(v: unknown, path: string): bigint[] {
  return asArray(v, path).map((x, i) => asLong(x, at(path, i)));
}

export function stringList(v: unknown, path: string): string[] {
  return asArray(v, path).map((x, i) => asString(x, at(path, i)));
}

/** `obj[key] = value` that stores a `__proto__` key as data, as JSON.parse does. */
export function setKey<T>(obj: Record<string, T>, key: string, value: T): void {
  if (key === '__proto__') {
    Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
  } else {
    obj[key] = value;
  }
}

/**
 * Runs an iceberg/ parser over request JSON. Its INVALID_METADATA (500: a stored file is broken)
 * becomes BAD_REQUEST (400: the request is), message kept, so the field path still shows.
 */
export function fromRequest<T>(parse: () => T): T {
  try {
    return parse();
  } catch (err) {
    if (isIcefrontError(err, 'INVALID_METADATA')) throw fail('BAD_REQUEST', err.message, err);
    throw err;
  }
}
