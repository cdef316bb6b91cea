/**
 * Comparing predicate literals with lower/upper bounds stored as Appendix D bytes (spec
 * Appendix D; Java `Conversions.fromByteBuffer` + `Comparators.forType`), cheaply enough to run
 * for every file of a large scan. Each type gets a comparison domain: numbers and bigints are
 * decoded without intermediate objects; strings, uuids, fixed and binary are compared as their
 * bytes (UTF-8 byte order is code point order, which is Iceberg's string order), so bounds of
 * those types are never decoded at all.
 */
import {
  compareBytes,
  compareFloats,
  decimalFromBytes,
  fromBinary,
  uuidToBytes,
  type IcebergType,
  type PrimitiveValue,
} from '../../iceberg/index.js';

export type Comparable = number | bigint | boolean | Uint8Array;

export interface BoundCodec {
  /** A literal of the type in the comparison domain. */
  prepare(value: PrimitiveValue): Comparable;
  /** Appendix D bytes in the comparison domain; undefined when the bytes are malformed. */
  decode(bytes: Uint8Array): Comparable | undefined;
  /**
   * Iceberg's order. UUIDs compare by unsigned bytes (RFC 4122, what current writers use) or,
   * with `signedUuid`, by Java's signed `UUID.compareTo` (what older Java writers used).
   */
  compare(a: Comparable, b: Comparable, signedUuid: boolean): number;
  /** float and double: NaN needs separate handling. */
  readonly floating: boolean;
}

const utf8 = new TextEncoder();
const scratch = new Uint8Array(8);
const scratchView = new DataView(scratch.buffer);

function int32(bytes: Uint8Array): number {
  return bytes[0]! | (bytes[1]! << 8) | (bytes[2]! << 16) | (bytes[3]! << 24);
}

function compareNumbers(a: Comparable, b: Comparable): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function codec(decode: BoundCodec['decode'], compare: BoundCodec['compare'], floating = false): BoundCodec {
  return { prepare: (v) => v as Comparable, decode, compare, floating };
}

const INT = codec((b) => (b.length === 4 ? int32(b) : undefined), compareNumbers);

// a 4-byte bound on a long or time column was written before an int → long promotion
const LONG = codec((b) => {
  if (b.length === 4) return BigInt(int32(b));
  if (b.length !== 8) return undefined;
  scratch.set(b);
  return scratchView.getBigInt64(0, true);
}, compareNumbers);

function timestampCodec(type: IcebergType): BoundCodec {
  return codec((b) => {
    if (b.length === 8) {
      scratch.set(b);
      return scratchView.getBigInt64(0, true);
    }
    // a 4-byte bound is a date written before a date → timestamp promotion (fromBinary's rule)
    return b.length === 4 ? (fromBinary(type, b) as bigint) : undefined;
  }, compareNumbers);
}

const FLOAT = codec(
  (b) => {
    if (b.length !== 4) return undefined;
    scratch.set(b);
    return scratchView.getFloat32(0, true);
  },
  (a, b) => compareFloats(a as number, b as number),
  true,
);

// a 4-byte bound on a double column was written before a float → double promotion
const DOUBLE = codec(
  (b) => {
    if (b.length !== 8 && b.length !== 4) return undefined;
    scratch.set(b);
    return b.length === 8 ? scratchView.getFloat64(0, true) : scratchView.getFloat32(0, true);
  },
  (a, b) => compareFloats(a as number, b as number),
  true,
);

const DECIMAL = codec((b) => (b.length === 0 ? undefined : decimalFromBytes(b)), compareNumbers);

const BOOLEAN = codec(
  (b) => (b.length === 1 ? b[0] !== 0 : undefined),
  (a, b) => (a === b ? 0 : a ? 1 : -1),
);

const BYTES: BoundCodec = {
  prepare: (v) => v as Uint8Array,
  decode: (b) => b,
  compare: (a, b) => compareBytes(a as Uint8Array, b as Uint8Array),
  floating: false,
};

const STRING: BoundCodec = { ...BYTES, prepare: (v) => utf8.encode(v as string) };

/** Java `UUID.compareTo`: the two big-endian halves as signed longs. */
function compareUuidSigned(a: Uint8Array, b: Uint8Array): number {
  for (let i = 0; i < 16; i += 1) {
    let x = a[i]!;
    let y = b[i]!;
    if (i === 0 || i === 8) {
      x ^= 0x80;
      y ^= 0x80;
    }
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

const UUID: BoundCodec = {
  prepare: (v) => uuidToBytes(v as string),
  decode: (b) => (b.length === 16 ? b : undefined),
  compare: (a, b, signed) =>
    signed ? compareUuidSigned(a as Uint8Array, b as Uint8Array) : compareBytes(a as Uint8Array, b as Uint8Array),
  floating: false,
};

/** The codec for a primitive type, or undefined for types without ordered bounds. */
export function boundCodec(type: IcebergType): BoundCodec | undefined {
  switch (type.kind) {
    case 'int':
    case 'date':
      return INT;
    case 'long':
    case 'time':
      return LONG;
    case 'timestamp':
    case 'timestamptz':
    case 'timestamp_ns':
    case 'timestamptz_ns':
      return timestampCodec(type);
    case 'float':
      return FLOAT;
    case 'double':
      return DOUBLE;
    case 'decimal':
      return DECIMAL;
    case 'boolean':
      return BOOLEAN;
    case 'string':
      return STRING;
    case 'uuid':
      return UUID;
    case 'fixed':
    case 'binary':
      return BYTES;
    default:
      return undefined;
  }
}

/** A key equal exactly when two comparables are equal (Java `equals` on the decoded values). */
export function comparableKey(c: Comparable): string {
  if (c instanceof Uint8Array) {
    let s = 'x';
    for (const b of c) s += String.fromCharCode(b);
    return s;
  }
  if (typeof c === 'number') return Object.is(c, -0) ? 'n-0' : `n${c}`;
  return typeof c === 'bigint' ? `b${c}` : c ? 'T' : 'F';
}

/**
 * Compares the first min(|bound|, |prefix|) bytes of a bound with a prefix (Java
 * `BinaryUtil.truncateBinary` then `Comparators.unsignedBytes`): a bound shorter than the prefix
 * that matches it so far sorts before it.
 */
export function compareTruncated(bound: Uint8Array, prefix: Uint8Array): number {
  const n = Math.min(bound.length, prefix.length);
  for (let i = 0; i < n; i += 1) {
    if (bound[i] !== prefix[i]) return bound[i]! < prefix[i]! ? -1 : 1;
  }
  return n < prefix.length ? -1 : 0;
}
