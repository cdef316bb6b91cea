/**
 * Typed reads from a view request body (as `parseJson` yields it). Every failure is BAD_REQUEST
 * whose message names the field by its path (`updates[1].view-version`). Maps and lists of
 * strings are strict, as Java's JsonUtil.getStringMap / getStringSet: a number is not a string.
 */
import { fail, isIcefrontError, type IcefrontError } from '../../errors/index.js';
import { JsonFloat } from '../../json/index.js';

export type RequestObject = Record<string, unknown>;

export function badRequest(path: string, problem: string): IcefrontError {
  return fail('BAD_REQUEST', `Invalid request: '${path || '(body)'}' ${problem}`);
}

export function at(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return path === '' ? key : `${path}.${key}`;
}

/** Runs an iceberg/ parser on a part of the request: unreadable metadata there is a bad request. */
export function fromRequest<T>(read: () => T): T {
  try {
    return read();
  } catch (err) {
    if (isIcefrontError(err, 'INVALID_METADATA')) {
      throw fail('BAD_REQUEST', err.message.replace(/^Invalid Iceberg metadata:/, 'Invalid request:'), err);
    }
    throw err;
  }
}

export function isRequestObject(v: unknown): v is RequestObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof JsonFloat);
}

export function requestObject(v: unknown, path: string): RequestObject {
  if (!isRequestObject(v)) throw badRequest(path, 'must be an object');
  return v;
}

/** The member, with JSON null read as absent (Java JsonUtil's hasNonNull). */
export function member(obj: RequestObject, key: string): unknown {
  const v = Object.hasOwn(obj, key) ? obj[key] : undefined;
  return v === null ? undefined : v;
}

export function reqMember(obj: RequestObject, key: string, path: string): unknown {
  const v = member(obj, key);
  if (v === undefined) throw badRequest(at(path, key), 'is missing');
  return v;
}

export function reqString(obj: RequestObject, key: string, path: string): string {
  const v = reqMember(obj, key, path);
  if (typeof v !== 'string') throw badRequest(at(path, key), 'must be a string');
  return v;
}

export function optString(obj: RequestObject, key: string, path: string): string | undefined {
  const v = member(obj, key);
  if (v === undefined) return undefined;
  if (typeof v !== 'string') throw badRequest(at(path, key), 'must be a string');
  return v;
}

export function reqInt(obj: RequestObject, key: string, path: string): number {
  const v = reqMember(obj, key, path);
  if (typeof v !== 'number' || !Number.isInteger(v) || v < -(2 ** 31) || v > 2 ** 31 - 1) {
    throw badRequest(at(path, key), 'must be an int');
  }
  return v;
}

export function stringMap(v: unknown, path: string): Record<string, string> {
  const obj = requestObject(v, path);
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(obj)) {
    if (typeof x !== 'string') throw badRequest(at(path, k), 'must be a string');
    // a `__proto__` key is data, as JSON.parse keeps it
    Object.defineProperty(out, k, { value: x, writable: true, enumerable: true, configurable: true });
  }
  return out;
}

export function stringList(v: unknown, path: string): string[] {
  if (!Array.isArray(v)) throw badRequest(path, 'must be an array');
  return v.map((x, i) => {
    if (typeof x !== 'string') throw badRequest(at(path, i), 'must be a string');
    return x;
  });
}

export function requestArray(obj: RequestObject, key: string, path: string): readonly unknown[] | undefined {
  const v = member(obj, key);
  if (v === undefined) return undefined;
  if (!Array.isArray(v)) throw badRequest(at(path, key), 'must be an array');
  return v;
}
