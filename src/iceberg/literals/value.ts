import { fail, type IcefrontError } from '../../errors/index.js';
import { primitiveToString, type IcebergType } from '../types.js';

/**
 * The in-memory form of one Iceberg value. Every module that reads, compares, transforms or
 * serialises values uses exactly this representation (the planner relies on it):
 *
 * | Iceberg type                          | JS value                                               |
 * |---------------------------------------|--------------------------------------------------------|
 * | boolean                               | `boolean`                                              |
 * | int, date (days from 1970-01-01)      | `number` (32-bit integer)                              |
 * | long, time (µs of day)                | `bigint`                                               |
 * | timestamp, timestamptz (µs from epoch)| `bigint`                                               |
 * | timestamp_ns, timestamptz_ns (ns)     | `bigint`                                               |
 * | float, double                         | `number` (a float holds a value exact in binary32)     |
 * | decimal(P,S)                          | `bigint`, the unscaled value; the scale is the type's  |
 * | string                                | `string`                                               |
 * | uuid                                  | `string`, lower-case canonical 8-4-4-4-12 (36 chars)   |
 * | fixed(L), binary                      | `Uint8Array` (a Buffer is fine)                        |
 * | geometry, geography (JSON only)       | `string`, WKT                                          |
 * | struct                                | array of field values in field order, `null` if unset  |
 * | list                                  | array of element values                                |
 * | map                                   | `Map` from key value to value                          |
 *
 * A missing value is `null` everywhere.
 */
export type LiteralValue = PrimitiveValue | StructValue | ListValue | MapValue;
export type PrimitiveValue = boolean | number | bigint | string | Uint8Array;
export type StructValue = ReadonlyArray<LiteralValue | null>;
export type ListValue = ReadonlyArray<LiteralValue | null>;
export type MapValue = ReadonlyMap<LiteralValue, LiteralValue | null>;

export const INT_MIN = -2147483648;
export const INT_MAX = 2147483647;
const LONG_MIN = -(2n ** 63n);
const LONG_MAX = 2n ** 63n - 1n;

export function typeName(type: IcebergType): string {
  return type.kind === 'struct' || type.kind === 'list' || type.kind === 'map' ? type.kind : primitiveToString(type);
}

/** The one error every literal function throws for a value that does not fit its type. */
export function invalidValue(type: IcebergType, detail: string, cause?: unknown): IcefrontError {
  return fail('INVALID_VALUE', `Invalid ${typeName(type)} value: ${detail}`, cause);
}

/** A 32-bit integer (int, date): accepts a number or a bigint in range. */
export function asInt(type: IcebergType, v: unknown): number {
  const n = typeof v === 'bigint' ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < INT_MIN || n > INT_MAX) {
    throw invalidValue(type, `expected a 32-bit integer, got ${describe(v)}`);
  }
  return n;
}

/** A 64-bit integer (long, time, timestamps, decimal unscaled): accepts a bigint or a safe integer number. */
export function asLong(type: IcebergType, v: unknown): bigint {
  let b: bigint;
  if (typeof v === 'bigint') b = v;
  else if (typeof v === 'number' && Number.isSafeInteger(v)) b = BigInt(v);
  else throw invalidValue(type, `expected a bigint, got ${describe(v)}`);
  if (b < LONG_MIN || b > LONG_MAX) throw invalidValue(type, `${b} is outside the 64-bit range`);
  return b;
}

/** An arbitrary-size integer (decimal unscaled values). */
export function asBigInt(type: IcebergType, v: unknown): bigint {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number' && Number.isSafeInteger(v)) return BigInt(v);
  throw invalidValue(type, `expected a bigint, got ${describe(v)}`);
}

export function asNumber(type: IcebergType, v: unknown): number {
  if (typeof v !== 'number') throw invalidValue(type, `expected a number, got ${describe(v)}`);
  return v;
}

export function asString(type: IcebergType, v: unknown): string {
  if (typeof v !== 'string') throw invalidValue(type, `expected a string, got ${describe(v)}`);
  return v;
}

export function asBytes(type: IcebergType, v: unknown): Uint8Array {
  if (!(v instanceof Uint8Array)) throw invalidValue(type, `expected a Uint8Array, got ${describe(v)}`);
  return v;
}

export function asBoolean(type: IcebergType, v: unknown): boolean {
  if (typeof v !== 'boolean') throw invalidValue(type, `expected a boolean, got ${describe(v)}`);
  return v;
}

export function describe(v: unknown): string {
  if (v === null) return 'null';
  if (v instanceof Uint8Array) return `${v.length} bytes`;
  if (typeof v === 'bigint') return `${v}n`;
  if (typeof v === 'string') return JSON.stringify(v.length > 60 ? `${v.slice(0, 60)}…` : v);
  if (typeof v === 'object') return Array.isArray(v) ? 'an array' : 'an object';
  return `${typeof v} ${String(v)}`;
}

/** Floor division on bigints (Java `Math.floorDiv`). */
export function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return (a % b !== 0n && (a < 0n) !== (b < 0n)) ? q - 1n : q;
}

/** Floor modulus on bigints (Java `Math.floorMod`). */
export function floorMod(a: bigint, b: bigint): bigint {
  return a - floorDiv(a, b) * b;
}
