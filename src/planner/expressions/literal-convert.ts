/**
 * Converting a filter literal to a column type at bind time (Java `Literals.*Literal.to(Type)`;
 * wire-format.md §8.4). An untyped JSON literal starts as Java would hold it after parsing
 * without a schema: an integral number is a Long, any other number a Double, text a String.
 * A typed literal (new form, `data-type`) starts as a literal of that type.
 */
import { fail, isIcefrontError } from '../../errors/index.js';
import { floatJson, floorDiv, fromHex, fromJsonSingleValue, isoDateToDays, isoTimeToMicros, isoTimestampToMicros, isoTimestampToNanos, isoTimestamptzToMicros, isoTimestamptzToNanos, MICROS_PER_DAY, NANOS_PER_DAY, NANOS_PER_MICRO, normalizeUuid, parseDecimalText, type IcebergType, type PrimitiveValue, type UnboundLiteral } from '../../iceberg/index.js';
import { JsonFloat } from '../../json/index.js';
import { rescaleExact, rescaleHalfUp, type Rescaled } from './decimal-scale.js';

/** A literal before conversion, tagged with its Java literal class. */
export type SourceLiteral =
  | { readonly kind: 'boolean'; readonly value: boolean }
  | { readonly kind: 'int' | 'date'; readonly value: number }
  | { readonly kind: 'long' | 'time' | 'timestamp' | 'timestamp_ns'; readonly value: bigint }
  | { readonly kind: 'float' | 'double'; readonly value: number }
  | { readonly kind: 'decimal'; readonly unscaled: bigint; readonly scale: number }
  | { readonly kind: 'string' | 'uuid'; readonly value: string }
  | { readonly kind: 'fixed' | 'binary'; readonly value: Uint8Array };

/**
 * The outcome of a conversion: a value of the target type, a value beyond the type's range
 * (Java `aboveMax`/`belowMin`), or a decimal strictly between two values of the column's scale
 * (`floor < literal < floor + 1` in unscaled units), which no column value can equal.
 */
export type Converted =
  | { readonly kind: 'value'; readonly value: PrimitiveValue }
  | { readonly kind: 'above-max' }
  | { readonly kind: 'below-min' }
  | { readonly kind: 'between'; readonly floor: bigint };

const INT_MIN = -2147483648n;
const INT_MAX = 2147483647n;
const LONG_MIN = -(2n ** 63n);
const LONG_MAX = 2n ** 63n - 1n;
const FLOAT_MAX = 3.4028234663852886e38;
/** Plain or scientific decimal text, as BigDecimal.toString and Python's Decimal write it. */
const DECIMAL_TEXT = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const ABOVE_MAX: Converted = { kind: 'above-max' };
const BELOW_MIN: Converted = { kind: 'below-min' };

export function sourceLiteral(lit: UnboundLiteral): SourceLiteral {
  if (lit.dataType !== undefined) {
    const type = lit.dataType;
    const v = fromJsonSingleValue(type, lit.value) as PrimitiveValue;
    switch (type.kind) {
      case 'decimal':
        return { kind: 'decimal', unscaled: v as bigint, scale: type.scale };
      case 'timestamptz':
        return { kind: 'timestamp', value: v as bigint };
      case 'timestamptz_ns':
        return { kind: 'timestamp_ns', value: v as bigint };
      default:
        return { kind: type.kind, value: v } as SourceLiteral;
    }
  }
  const v = lit.value;
  if (typeof v === 'boolean') return { kind: 'boolean', value: v };
  if (typeof v === 'string') return { kind: 'string', value: v };
  if (typeof v === 'bigint') return { kind: 'long', value: v };
  if (v instanceof JsonFloat) return { kind: 'double', value: v.valueOf() };
  // a plain (non-parseJson) number: integral if exactly representable, else a Double
  return Number.isSafeInteger(v) ? { kind: 'long', value: BigInt(v) } : { kind: 'double', value: v };
}

function value(v: PrimitiveValue): Converted {
  return { kind: 'value', value: v };
}

function fromRescaled(r: Rescaled): Converted {
  return r.kind === 'exact' ? value(r.unscaled) : r.kind === 'between' ? { kind: 'between', floor: r.floor } : { kind: r.kind };
}

/** Java `Math.multiplyExact(micros, 1000)` as in `DateTimeUtil.microsToNanos`. */
function microsToNanos(micros: bigint): bigint {
  const nanos = micros * NANOS_PER_MICRO;
  if (nanos < LONG_MIN || nanos > LONG_MAX) throw fail('INVALID_FILTER', `Timestamp ${micros} µs overflows nanoseconds`);
  return nanos;
}

/** Java `long.floatValue()`: one round-to-nearest-even step straight to binary32. */
export function longToFloat(v: bigint): number {
  const abs = v < 0n ? -v : v;
  if (abs <= 2n ** 53n) return Math.fround(Number(v));
  const shift = abs.toString(2).length - 24;
  let q = abs >> BigInt(shift);
  const rest = abs - (q << BigInt(shift));
  const half = 1n << BigInt(shift - 1);
  if (rest > half || (rest === half && (q & 1n) === 1n)) q += 1n;
  const f = Number(q) * 2 ** shift;
  return v < 0n ? -f : f;
}

/** Java `BigDecimal.valueOf(double)`: the digits of `Double.toString`. */
function doubleDecimal(d: number): { unscaled: bigint; scale: number } | undefined {
  const text = floatJson(d);
  return text instanceof JsonFloat ? parseDecimalText(text.text) : undefined;
}

/**
 * `literal.to(type)`: the converted value, or undefined where Java returns null (no conversion;
 * binding then fails with "Invalid value for conversion"). Malformed text (a bad date, bad
 * hex) throws INVALID_FILTER. Strings convert to fixed/binary by hex decoding, as Java's
 * writer emits byte literals as hex (Java's own reader has no such conversion).
 */
export function convertLiteral(src: SourceLiteral, type: IcebergType): Converted | undefined {
  try {
    return convert(src, type);
  } catch (err) {
    if (isIcefrontError(err, 'INVALID_VALUE')) throw fail('INVALID_FILTER', err.message, err);
    throw err;
  }
}

function convert(src: SourceLiteral, type: IcebergType): Converted | undefined {
  const t = type.kind;
  switch (src.kind) {
    case 'boolean':
      return t === 'boolean' ? value(src.value) : undefined;
    case 'int':
      return fromLong(BigInt(src.value), type, true);
    case 'long':
      return fromLong(src.value, type, false);
    case 'float':
    case 'double':
      return fromDouble(src.value, src.kind, type);
    case 'date':
      return t === 'date' ? value(src.value) : undefined;
    case 'time':
      return t === 'time' ? value(src.value) : undefined;
    case 'timestamp':
      if (t === 'timestamp' || t === 'timestamptz') return value(src.value);
      if (t === 'date') return value(Number(floorDiv(src.value, MICROS_PER_DAY)));
      if (t === 'timestamp_ns' || t === 'timestamptz_ns') return value(microsToNanos(src.value));
      return undefined;
    case 'timestamp_ns':
      if (t === 'timestamp_ns' || t === 'timestamptz_ns') return value(src.value);
      if (t === 'date') return value(Number(floorDiv(src.value, NANOS_PER_DAY)));
      if (t === 'timestamp' || t === 'timestamptz') return value(floorDiv(src.value, NANOS_PER_MICRO));
      return undefined;
    case 'decimal':
      // Java keeps the literal's scale and compares numerically; here it is aligned to the column's
      return type.kind === 'decimal' ? fromRescaled(rescaleExact(src.unscaled, src.scale, type.scale)) : undefined;
    case 'string':
      return fromString(src.value, type);
    case 'uuid':
      return t === 'uuid' ? value(src.value) : undefined;
    case 'fixed':
    case 'binary':
      if (t === 'binary') return value(src.value);
      if (type.kind === 'fixed') return src.value.length === type.length ? value(src.value) : undefined;
      return undefined;
  }
}

// IntegerLiteral.to / LongLiteral.to
function fromLong(v: bigint, type: IcebergType, isInt: boolean): Converted | undefined {
  switch (type.kind) {
    case 'int':
    case 'date':
      if (v > INT_MAX) return ABOVE_MAX;
      if (v < INT_MIN) return BELOW_MIN;
      return value(Number(v));
    case 'long':
      return value(v);
    case 'float':
      return value(longToFloat(v));
    case 'double':
      return value(Number(v));
    case 'decimal':
      return fromRescaled(rescaleHalfUp(v, 0, type.scale));
    case 'time':
    case 'timestamp':
    case 'timestamptz':
      return isInt ? undefined : value(v);
    case 'timestamp_ns':
    case 'timestamptz_ns':
      // LongLiteral: "assume micros and convert to nanos"
      return isInt ? undefined : value(microsToNanos(v));
    default:
      return undefined;
  }
}

// FloatLiteral.to / DoubleLiteral.to
function fromDouble(v: number, kind: 'float' | 'double', type: IcebergType): Converted | undefined {
  switch (type.kind) {
    case 'float':
      if (kind === 'double' && v > FLOAT_MAX) return ABOVE_MAX;
      if (kind === 'double' && v < -FLOAT_MAX) return BELOW_MIN;
      return value(Math.fround(v));
    case 'double':
      return value(v);
    case 'decimal': {
      const d = doubleDecimal(v);
      return d === undefined ? undefined : fromRescaled(rescaleHalfUp(d.unscaled, d.scale, type.scale));
    }
    default:
      return undefined;
  }
}

// StringLiteral.to: ISO text for dates and times (a tz type needs an offset, others refuse one)
function fromString(s: string, type: IcebergType): Converted | undefined {
  switch (type.kind) {
    case 'string':
      return value(s);
    case 'date':
      return value(isoDateToDays(s));
    case 'time':
      return value(isoTimeToMicros(s));
    case 'timestamp':
      return value(isoTimestampToMicros(s));
    case 'timestamptz':
      return value(isoTimestamptzToMicros(s));
    case 'timestamp_ns':
      return value(isoTimestampToNanos(s));
    case 'timestamptz_ns':
      return value(isoTimestamptzToNanos(s));
    case 'uuid':
      return value(normalizeUuid(s));
    case 'decimal': {
      // new BigDecimal(s): the scale as written
      const d = parseDecimalText(s);
      return fromRescaled(rescaleExact(d.unscaled, d.scale, type.scale));
    }
    case 'float':
    case 'double':
      // Java's StringLiteral has no conversion to float or double. But a decimal literal reaches
      // the wire as text: Java's writer emits BigDecimal as a string (wire-format §8.2) and
      // pyiceberg sends `amount > 30.0` as "30.0", which Java binds in process
      // (DecimalLiteral.to(DoubleType)). Decimal text has one meaning, so it converts as that
      // decimal would; anything else stays unconvertible.
      if (!DECIMAL_TEXT.test(s)) return undefined;
      return value(type.kind === 'float' ? Math.fround(Number(s)) : Number(s));
    case 'fixed': {
      const bytes = fromHex(s);
      return bytes.length === type.length ? value(bytes) : undefined;
    }
    case 'binary':
      return value(fromHex(s));
    default:
      return undefined;
  }
}
