/**
 * Converts one raw Parquet value (as hyparquet yields it with logical types stripped: INT32 →
 * number, INT64/INT96 → bigint, BYTE_ARRAY/FIXED_LEN_BYTE_ARRAY → Uint8Array) to Icefront's
 * internal literal representation of the column's Iceberg type (src/iceberg/literals/value.ts).
 * Parquet logical types are honoured where they change the unit (time/timestamp millis, nanos,
 * INT96); type promotions (int→long, float→double, date→timestamp) are applied.
 */
import type { SchemaElement } from 'hyparquet';
import { decimalFromBytes, uuidFromBytes, type IcebergType, type PrimitiveValue } from '../../../src/iceberg/index.js';

const utf8 = new TextDecoder('utf-8', { fatal: true });
const MICROS_PER_DAY = 86_400_000_000n;

/** The unit of an INT64/INT32 time or timestamp column, from its Parquet annotations. */
function timeUnit(el: SchemaElement): 'MILLIS' | 'MICROS' | 'NANOS' | undefined {
  const lt = el.logical_type;
  if (lt && (lt.type === 'TIMESTAMP' || lt.type === 'TIME')) return lt.unit;
  switch (el.converted_type) {
    case 'TIMESTAMP_MILLIS':
    case 'TIME_MILLIS':
      return 'MILLIS';
    case 'TIMESTAMP_MICROS':
    case 'TIME_MICROS':
      return 'MICROS';
    default:
      return undefined;
  }
}

/** INT96 (Impala/Spark legacy timestamps): 8 bytes LE nanos of day, then 4 bytes LE Julian day. */
function int96Nanos(raw: bigint): bigint {
  const days = (raw >> 64n) - 2440588n;
  const nanos = raw & 0xffffffffffffffffn;
  return days * 86_400_000_000_000n + nanos;
}

function asBigInt(raw: unknown): bigint {
  if (typeof raw === 'bigint') return raw;
  if (typeof raw === 'number' && Number.isInteger(raw)) return BigInt(raw);
  throw new Error(`expected an integer, got ${typeof raw}`);
}

/** Time-like values in the unit of the Iceberg type (µs, or ns for the _ns types). */
function timeValue(el: SchemaElement, raw: unknown, nanosType: boolean): bigint {
  if (el.type === 'INT96') {
    const ns = int96Nanos(raw as bigint);
    return nanosType ? ns : floorDiv(ns, 1000n);
  }
  // a date promoted to a timestamp
  if (el.type === 'INT32' && timeUnit(el) === undefined) return BigInt(raw as number) * (nanosType ? MICROS_PER_DAY * 1000n : MICROS_PER_DAY);
  const v = asBigInt(raw);
  const unit = timeUnit(el) ?? (nanosType ? 'NANOS' : 'MICROS');
  const perUnit = unit === 'MILLIS' ? 1_000_000n : unit === 'MICROS' ? 1000n : 1n;
  const ns = v * perUnit;
  return nanosType ? ns : floorDiv(ns, 1000n);
}

function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q;
}

function bytes(raw: unknown): Uint8Array {
  if (raw instanceof Uint8Array) return raw;
  if (typeof raw === 'string') return new TextEncoder().encode(raw);
  throw new Error(`expected bytes, got ${typeof raw}`);
}

/** The internal value of `raw` for an Iceberg primitive `type`; null stays null. */
export function parquetToIceberg(type: IcebergType, el: SchemaElement, raw: unknown): PrimitiveValue | null {
  if (raw === null || raw === undefined) return null;
  switch (type.kind) {
    case 'boolean':
      return Boolean(raw);
    case 'int':
    case 'date':
      return Number(raw);
    case 'long':
      return asBigInt(raw);
    case 'float':
    case 'double':
      return Number(raw);
    case 'time': {
      const v = asBigInt(raw);
      return timeUnit(el) === 'MILLIS' ? v * 1000n : timeUnit(el) === 'NANOS' ? floorDiv(v, 1000n) : v;
    }
    case 'timestamp':
    case 'timestamptz':
      return timeValue(el, raw, false);
    case 'timestamp_ns':
    case 'timestamptz_ns':
      return timeValue(el, raw, true);
    case 'decimal':
      // unscaled value: INT32/INT64 as is, byte arrays as big-endian two's complement
      return typeof raw === 'number' || typeof raw === 'bigint' ? asBigInt(raw) : decimalFromBytes(bytes(raw));
    case 'string':
      return typeof raw === 'string' ? raw : utf8.decode(bytes(raw));
    case 'uuid':
      return typeof raw === 'string' ? raw.toLowerCase() : uuidFromBytes(bytes(raw));
    case 'fixed':
    case 'binary':
      return bytes(raw);
    default:
      throw new Error(`cannot convert a Parquet value to Iceberg type ${type.kind}`);
  }
}
