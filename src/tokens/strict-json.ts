/**
 * Strict readers for token payloads. A payload either has exactly the shape this server writes
 * or it is rejected: `Rejected` is thrown and the decoders turn it into `undefined`. Unknown
 * keys are rejected too, because a field this version does not understand may change what the
 * string means (a newer format must take a new envelope kind instead).
 */
import { parseJson } from '../json/index.js';

export class Rejected extends Error {}

const REJECTED = new Rejected('not a token this server issued');

export function reject(): never {
  throw REJECTED;
}

export type JsonObject = Record<string, unknown>;

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** Runs `read`, giving undefined when it rejects the payload. Other errors propagate. */
export function readOrUndefined<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch (err) {
    if (err instanceof Rejected) return undefined;
    throw err;
  }
}

/** `parseJson`, rejecting malformed JSON instead of throwing INVALID_JSON. */
export function parsePayload(text: string): unknown {
  try {
    return parseJson(text);
  } catch {
    return reject();
  }
}

/** A JSON object whose keys are all in `required` or `optional`, with every required one present. */
export function object(v: unknown, required: readonly string[], optional: readonly string[] = []): JsonObject {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) reject();
  const obj = v as JsonObject;
  for (const k of required) if (!Object.hasOwn(obj, k)) reject();
  for (const k of Object.keys(obj)) if (!required.includes(k) && !optional.includes(k)) reject();
  return obj;
}

export function string(v: unknown, nonEmpty = false): string {
  if (typeof v !== 'string' || (nonEmpty && v.length === 0)) reject();
  return v as string;
}

export function boolean(v: unknown): boolean {
  if (typeof v !== 'boolean') reject();
  return v as boolean;
}

export function stringList(v: unknown): string[] {
  if (!Array.isArray(v)) reject();
  return (v as unknown[]).map((s) => string(s));
}

/** A 64-bit signed integer (parseJson gives a number when it is safe, a bigint otherwise). */
export function long(v: unknown): bigint {
  if (typeof v === 'number' && Number.isSafeInteger(v)) return BigInt(v);
  if (typeof v === 'bigint' && v >= INT64_MIN && v <= INT64_MAX) return v;
  return reject();
}

/** A non-negative integer that a JS number holds exactly (entry positions, byte offsets). */
export function count(v: unknown): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) reject();
  return v as number;
}

/** `read(obj[key])` when the key is present, else undefined. */
export function optional<T>(obj: JsonObject, key: string, read: (v: unknown) => T): T | undefined {
  return Object.hasOwn(obj, key) ? read(obj[key]) : undefined;
}
