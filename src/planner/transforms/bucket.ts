import { fail } from '../../errors/index.js';
import {
  decimalToBytes,
  floorDiv,
  NANOS_PER_MICRO,
  uuidToBytes,
  type IcebergType,
} from '../../iceberg/index.js';
import { murmur3_32 } from './murmur3.js';

const utf8 = new TextEncoder();

function longBytes(v: bigint): Uint8Array {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigInt64(0, BigInt.asIntN(64, v), true);
  return out;
}

function integer(type: IcebergType, v: unknown): bigint {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number' && Number.isSafeInteger(v)) return BigInt(v);
  if (typeof v === 'boolean' && type.kind === 'boolean') return v ? 1n : 0n;
  throw fail('INVALID_VALUE', `Cannot hash ${typeof v} as ${type.kind}`);
}

function expect<T>(type: IcebergType, v: unknown, ok: (x: unknown) => x is T): T {
  if (!ok(v)) throw fail('INVALID_VALUE', `Cannot hash ${typeof v} as ${type.kind}`);
  return v;
}
const isString = (x: unknown): x is string => typeof x === 'string';
const isBytes = (x: unknown): x is Uint8Array => x instanceof Uint8Array;
const isNumber = (x: unknown): x is number => typeof x === 'number';

/**
 * The bytes the bucket hash runs over (spec Appendix B; Java `BucketUtil`): integers of every
 * width (int, long, date, time, timestamp, and boolean as 0/1) widened to a little-endian long,
 * so int→long promotion keeps buckets; timestamp_ns first floor-divided to µs; decimals as the
 * minimal two's-complement big-endian unscaled value; strings as UTF-8; uuids as 16 big-endian
 * bytes; fixed/binary raw; float/double as the little-endian bits of the double, with -0.0 as 0.0
 * and NaN canonical (those two are defined though not bucketable).
 */
export function bucketHashInput(type: IcebergType, value: unknown): Uint8Array {
  switch (type.kind) {
    case 'boolean':
    case 'int':
    case 'date':
    case 'long':
    case 'time':
    case 'timestamp':
    case 'timestamptz':
      return longBytes(integer(type, value));
    case 'timestamp_ns':
    case 'timestamptz_ns':
      return longBytes(floorDiv(integer(type, value), NANOS_PER_MICRO));
    case 'float':
    case 'double': {
      const d = expect(type, value, isNumber);
      const out = new Uint8Array(8);
      const dv = new DataView(out.buffer);
      if (Number.isNaN(d)) dv.setBigUint64(0, 0x7ff8000000000000n, true);
      else dv.setFloat64(0, d === 0 ? 0 : d, true);
      return out;
    }
    case 'decimal':
      return decimalToBytes(integer(type, value));
    case 'string':
      return utf8.encode(expect(type, value, isString));
    case 'uuid':
      return uuidToBytes(expect(type, value, isString));
    case 'fixed':
    case 'binary':
      return expect(type, value, isBytes);
    default:
      throw fail('INVALID_VALUE', `No 32-bit hash is defined for ${type.kind}`);
  }
}

/** Murmur3 (seed 0) of `bucketHashInput`, as a signed 32-bit integer. */
export function bucketHash(type: IcebergType, value: unknown): number {
  return murmur3_32(bucketHashInput(type, value));
}

/** `bucket[N]`: `(hash & Integer.MAX_VALUE) % N` (spec "Bucket Transform Details"). */
export function bucketOf(numBuckets: number, type: IcebergType, value: unknown): number {
  return (bucketHash(type, value) & 0x7fffffff) % numBuckets;
}
