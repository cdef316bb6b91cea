/**
 * Ordering and truncation of column bounds over internal values (the representation of
 * src/iceberg/literals/value.ts).
 */
import { compareUuidsRfc, compareValues, type PrimitiveType } from '../../src/iceberg/index.js';

/**
 * Order used for a data file's column bounds. Java takes them from Parquet statistics, which
 * order uuids as unsigned bytes (RFC order) rather than by Java's signed `UUID.compareTo`.
 */
export function compareForBounds(type: PrimitiveType, a: unknown, b: unknown): number {
  return type.kind === 'uuid' ? compareUuidsRfc(a as string, b as string) : compareValues(type, a, b);
}

export function isNaNValue(v: unknown): boolean {
  return typeof v === 'number' && Number.isNaN(v);
}

/** Java `MetricsModes.Truncate(16)`: the default metrics mode for every column. */
export const TRUNCATE_LENGTH = 16;

/** Lower bound of a string, truncated to `n` code points (Java `UnicodeUtil.truncateStringMin`). */
export function truncateStringMin(s: string, n = TRUNCATE_LENGTH): string {
  const cps = [...s];
  return cps.length <= n ? s : cps.slice(0, n).join('');
}

/**
 * Upper bound of a string, truncated to `n` code points, with the last code point incremented
 * so the result still sorts above every string with that prefix (Java
 * `UnicodeUtil.truncateStringMax`); null when no such bound exists.
 */
export function truncateStringMax(s: string, n = TRUNCATE_LENGTH): string | null {
  const cps = [...s];
  if (cps.length <= n) return s;
  const kept = cps.slice(0, n).map((c) => c.codePointAt(0)!);
  for (let i = kept.length - 1; i >= 0; i--) {
    let next = kept[i]! + 1;
    if (next >= 0xd800 && next <= 0xdfff) next = 0xe000; // skip surrogates
    if (next <= 0x10ffff) {
      return String.fromCodePoint(...kept.slice(0, i), next);
    }
  }
  return null;
}

/** Lower bound of a byte string truncated to `n` bytes (Java `BinaryUtil.truncateBinaryMin`). */
export function truncateBinaryMin(b: Uint8Array, n = TRUNCATE_LENGTH): Uint8Array {
  return b.length <= n ? b : b.subarray(0, n);
}

/** Upper bound of a byte string truncated to `n` bytes, last byte incremented (Java `BinaryUtil.truncateBinaryMax`). */
export function truncateBinaryMax(b: Uint8Array, n = TRUNCATE_LENGTH): Uint8Array | null {
  if (b.length <= n) return b;
  const out = Uint8Array.from(b.subarray(0, n));
  for (let i = out.length - 1; i >= 0; i--) {
    if (out[i]! < 0xff) {
      out[i]! += 1;
      return out.subarray(0, i + 1);
    }
  }
  return null;
}
