import type { IcebergType } from '../types.js';
import { decimalFromBytes, decimalToBytes } from './decimal.js';
import { MICROS_PER_DAY, NANOS_PER_DAY } from './datetime.js';
import { uuidFromBytes, uuidToBytes } from './uuid.js';
import {
  asBigInt,
  asBoolean,
  asBytes,
  asInt,
  asLong,
  asNumber,
  asString,
  invalidValue,
  type PrimitiveValue,
} from './value.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

function view(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function littleEndian(size: 4 | 8, write: (dv: DataView) => void): Uint8Array {
  const out = new Uint8Array(size);
  write(new DataView(out.buffer));
  return out;
}

/**
 * Binary single-value serialization (spec Appendix D; Java `Conversions.toByteBuffer`), used for
 * lower/upper bounds and manifest-list partition summaries. Nested, variant, geometry,
 * geography and unknown types have no binary single value and are rejected.
 */
export function toBinary(type: IcebergType, value: unknown): Uint8Array {
  switch (type.kind) {
    case 'boolean':
      return Uint8Array.of(asBoolean(type, value) ? 1 : 0);
    case 'int':
    case 'date': {
      const v = asInt(type, value);
      return littleEndian(4, (dv) => dv.setInt32(0, v, true));
    }
    case 'long':
    case 'time':
    case 'timestamp':
    case 'timestamptz':
    case 'timestamp_ns':
    case 'timestamptz_ns': {
      const v = asLong(type, value);
      return littleEndian(8, (dv) => dv.setBigInt64(0, v, true));
    }
    case 'float': {
      const v = asNumber(type, value);
      return littleEndian(4, (dv) => dv.setFloat32(0, v, true));
    }
    case 'double': {
      const v = asNumber(type, value);
      return littleEndian(8, (dv) => dv.setFloat64(0, v, true));
    }
    case 'string':
      return encoder.encode(asString(type, value));
    case 'uuid':
      return uuidToBytes(asString(type, value));
    case 'fixed':
    case 'binary':
      return asBytes(type, value);
    case 'decimal':
      return decimalToBytes(asBigInt(type, value));
    default:
      throw invalidValue(type, 'the type has no binary single-value serialization');
  }
}

/**
 * Decodes a binary single value (spec Appendix D; Java `Conversions.fromByteBuffer`). Bounds
 * written before a type promotion keep their old width (spec "Schema Evolution" table): 4 bytes
 * for long/time is an int, 4 bytes for double is a float, and 4 bytes for a timestamp column is
 * a date, converted to the start of that day in the column's unit.
 */
export function fromBinary(type: IcebergType, bytes: Uint8Array): PrimitiveValue {
  const dv = view(bytes);
  const need = (...sizes: number[]): void => {
    if (!sizes.includes(bytes.length)) {
      throw invalidValue(type, `expected ${sizes.join(' or ')} bytes, got ${bytes.length}`);
    }
  };
  switch (type.kind) {
    case 'boolean':
      need(1);
      return bytes[0] !== 0;
    case 'int':
    case 'date':
      need(4);
      return dv.getInt32(0, true);
    case 'long':
    case 'time':
      need(4, 8);
      return bytes.length === 4 ? BigInt(dv.getInt32(0, true)) : dv.getBigInt64(0, true);
    case 'timestamp':
    case 'timestamptz':
      need(4, 8);
      return bytes.length === 4 ? BigInt(dv.getInt32(0, true)) * MICROS_PER_DAY : dv.getBigInt64(0, true);
    case 'timestamp_ns':
    case 'timestamptz_ns':
      need(4, 8);
      return bytes.length === 4 ? BigInt(dv.getInt32(0, true)) * NANOS_PER_DAY : dv.getBigInt64(0, true);
    case 'float':
      need(4);
      return dv.getFloat32(0, true);
    case 'double':
      need(4, 8);
      return bytes.length === 4 ? dv.getFloat32(0, true) : dv.getFloat64(0, true);
    case 'string':
      try {
        return decoder.decode(bytes);
      } catch (err) {
        throw invalidValue(type, 'bytes are not valid UTF-8', err);
      }
    case 'uuid':
      need(16);
      return uuidFromBytes(bytes);
    case 'fixed':
    case 'binary':
      return Uint8Array.from(bytes);
    case 'decimal':
      if (bytes.length === 0) throw invalidValue(type, 'zero bytes');
      return decimalFromBytes(bytes);
    default:
      throw invalidValue(type, 'the type has no binary single-value serialization');
  }
}
