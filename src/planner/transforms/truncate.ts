import { fail } from '../../errors/index.js';
import type { IcebergType, LiteralValue } from '../../iceberg/index.js';

/**
 * `truncate[W]` (spec "Truncate Transform Details"; Java `Truncate`). Integers and decimals
 * round down to a multiple of W with a non-negative remainder, `v - (((v % W) + W) % W)`, in the
 * column's own width (Java int/long arithmetic wraps at the extremes, and so does this); a
 * decimal truncates its unscaled value; strings keep at most W code points; binary keeps W bytes.
 */
export function truncateValue(width: number, type: IcebergType, value: unknown): LiteralValue {
  if (!Number.isInteger(width) || width <= 0) throw fail('INVALID_VALUE', `Invalid truncate width: ${width}`);
  switch (type.kind) {
    case 'int': {
      if (typeof value !== 'number') break;
      const v = value;
      const rem = ((((v % width) | 0) + width) | 0) % width;
      return (v - rem) | 0;
    }
    case 'long': {
      if (typeof value !== 'bigint') break;
      const w = BigInt(width);
      const rem = BigInt.asIntN(64, BigInt.asIntN(64, (value % w) + w) % w);
      return BigInt.asIntN(64, value - rem);
    }
    case 'decimal': {
      if (typeof value !== 'bigint') break;
      const w = BigInt(width);
      return value - (((value % w) + w) % w);
    }
    case 'string':
      if (typeof value !== 'string') break;
      return truncateCodePoints(value, width);
    case 'binary':
      if (!(value instanceof Uint8Array)) break;
      return value.length <= width ? value : value.slice(0, width);
    default:
      throw fail('INVALID_VALUE', `Cannot truncate ${type.kind}`);
  }
  throw fail('INVALID_VALUE', `Cannot truncate a ${typeof value} as ${type.kind}`);
}

/** The first `n` code points of `s`; surrogate pairs are never split (Java `UnicodeUtil.truncateString`). */
export function truncateCodePoints(s: string, n: number): string {
  if (s.length <= n) return s;
  let units = 0;
  for (let points = 0; points < n && units < s.length; points += 1) {
    const c = s.charCodeAt(units);
    const isPair = c >= 0xd800 && c <= 0xdbff && units + 1 < s.length;
    units += isPair ? 2 : 1;
  }
  return s.slice(0, units);
}
