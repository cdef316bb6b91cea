import type { IcebergType } from '../types.js';
import { compareUuidsJava } from './uuid.js';
import { invalidValue } from './value.js';

/**
 * The Iceberg comparator for two non-null values of one primitive type (Java
 * `Comparators.forType`), returning <0, 0 or >0:
 *
 * - numbers and bigints by value (int, long, date, time, timestamps, decimal unscaled at the type's scale);
 * - float/double as Java `Float.compare`/`Double.compare`: -0.0 < 0.0, NaN equals NaN and sorts after +Infinity;
 * - boolean: false < true;
 * - string by Unicode code point, which equals UTF-8 byte order (Java `Comparators.charSequences`:
 *   a high surrogate sorts after every BMP char);
 * - fixed/binary unsigned lexicographic, a prefix first (`Comparators.unsignedBytes`);
 * - uuid as Java's `UUID.compareTo`: signed most-significant then signed least-significant 64 bits
 *   (not RFC byte order; see `compareUuidsRfc` for that).
 */
export function compareValues(type: IcebergType, a: unknown, b: unknown): number {
  switch (type.kind) {
    case 'int':
    case 'date':
    case 'long':
    case 'time':
    case 'timestamp':
    case 'timestamptz':
    case 'timestamp_ns':
    case 'timestamptz_ns':
    case 'decimal':
      return compareIntegers(a as number | bigint, b as number | bigint);
    case 'float':
    case 'double':
      return compareFloats(a as number, b as number);
    case 'boolean':
      return a === b ? 0 : a ? 1 : -1;
    case 'string':
      return compareStrings(a as string, b as string);
    case 'fixed':
    case 'binary':
      return compareBytes(a as Uint8Array, b as Uint8Array);
    case 'uuid':
      return compareUuidsJava(a as string, b as string);
    default:
      throw invalidValue(type, 'values of this type are not ordered');
  }
}

function compareIntegers(a: number | bigint, b: number | bigint): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Java `Double.compare`: numeric order, then -0.0 before 0.0; every NaN equal and greatest. */
export function compareFloats(a: number, b: number): number {
  if (a < b) return -1;
  if (a > b) return 1;
  const aNaN = Number.isNaN(a);
  const bNaN = Number.isNaN(b);
  if (aNaN || bNaN) return aNaN === bNaN ? 0 : aNaN ? 1 : -1;
  if (a === 0 && b === 0) {
    const an = Object.is(a, -0);
    const bn = Object.is(b, -0);
    return an === bn ? 0 : an ? -1 : 1;
  }
  return 0;
}

/** Code point order (= UTF-8 byte order) over UTF-16 strings. */
export function compareStrings(a: string, b: string): number {
  const len = Math.min(a.length, b.length);
  for (let i = 0; i < len; i += 1) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    const xHigh = x >= 0xd800 && x <= 0xdbff;
    const yHigh = y >= 0xd800 && y <= 0xdbff;
    if (xHigh !== yHigh) return xHigh ? 1 : -1;
    return x < y ? -1 : 1;
  }
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
}

/** Unsigned lexicographic byte order; a prefix sorts first. */
export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const len = Math.min(a.length, b.length);
  for (let i = 0; i < len; i += 1) {
    if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
  }
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
}
