import { JsonFloat } from '../../json/index.js';
import type { IcebergType, MapType, StructType } from '../types.js';
import {
  daysToIsoDate,
  isoDateToDays,
  isoTimeToMicros,
  isoTimestampToMicros,
  isoTimestampToNanos,
  isoTimestamptzToMicros,
  isoTimestamptzToNanos,
  isUtcTimestamptz,
  microsToIsoTime,
  microsToIsoTimestamp,
  microsToIsoTimestamptz,
  nanosToIsoTimestamp,
  nanosToIsoTimestamptz,
} from './datetime.js';
import { decimalFromString, formatDecimal } from './decimal.js';
import { javaFloatText } from './float-text.js';
import { fromHex, hexUpper } from './hex.js';
import { normalizeUuid } from './uuid.js';
import {
  asBigInt,
  asBoolean,
  asBytes,
  asInt,
  asLong,
  asNumber,
  asString,
  describe,
  INT_MAX,
  INT_MIN,
  invalidValue,
  type LiteralValue,
} from './value.js';

/**
 * A float or double as JSON: a `JsonFloat` with Java's text (always a decimal point, since
 * Jackson rejects `1` as a float). NaN and ±Infinity have no JSON number, so they are written
 * as the strings Jackson writes by default: `"NaN"`, `"Infinity"`, `"-Infinity"`.
 */
export function floatJson(n: number, single = false): JsonFloat | string {
  if (Number.isNaN(n)) return 'NaN';
  if (n === Infinity) return 'Infinity';
  if (n === -Infinity) return '-Infinity';
  return new JsonFloat(javaFloatText(n, single));
}

/**
 * JSON single-value serialization (spec Appendix D; Java `SingleValueParser.toJson`). The result
 * is for `stringifyJson`: longs stay bigint, floats are `JsonFloat`. Timestamps have no fraction
 * when it is zero and a trimmed one otherwise, tz forms end in `+00:00`, binary and fixed are
 * upper-case hex, decimals are written with the type's scale.
 */
export function toJsonSingleValue(type: IcebergType, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  switch (type.kind) {
    case 'boolean':
      return asBoolean(type, value);
    case 'int':
      return asInt(type, value);
    case 'long':
      return asLong(type, value);
    case 'float':
      return floatJson(asNumber(type, value), true);
    case 'double':
      return floatJson(asNumber(type, value));
    case 'decimal':
      return formatDecimal(asBigInt(type, value), type.scale);
    case 'date':
      return daysToIsoDate(asInt(type, value));
    case 'time':
      return microsToIsoTime(asLong(type, value));
    case 'timestamp':
      return microsToIsoTimestamp(asLong(type, value));
    case 'timestamptz':
      return microsToIsoTimestamptz(asLong(type, value));
    case 'timestamp_ns':
      return nanosToIsoTimestamp(asLong(type, value));
    case 'timestamptz_ns':
      return nanosToIsoTimestamptz(asLong(type, value));
    case 'string':
    case 'geometry':
    case 'geography':
      return asString(type, value);
    case 'uuid':
      return normalizeUuid(asString(type, value));
    case 'fixed': {
      const bytes = asBytes(type, value);
      if (bytes.length !== type.length) throw invalidValue(type, `expected ${type.length} bytes, got ${bytes.length}`);
      return hexUpper(bytes);
    }
    case 'binary':
      return hexUpper(asBytes(type, value));
    case 'list':
      if (!Array.isArray(value)) throw invalidValue(type, `expected an array, got ${describe(value)}`);
      return value.map((e: unknown) => toJsonSingleValue(type.element, e));
    case 'map':
      return mapToJson(type, value);
    case 'struct':
      return structToJson(type, value);
    default:
      throw invalidValue(type, 'only null has a JSON single value');
  }
}

function structToJson(type: StructType, value: unknown): Record<string, unknown> {
  if (!Array.isArray(value) || value.length !== type.fields.length) {
    throw invalidValue(type, `expected an array of ${type.fields.length} field values, got ${describe(value)}`);
  }
  const out: Record<string, unknown> = {};
  type.fields.forEach((field, i) => {
    const v: unknown = value[i];
    if (v !== null && v !== undefined) out[String(field.id)] = toJsonSingleValue(field.type, v);
  });
  return out;
}

function mapToJson(type: MapType, value: unknown): { keys: unknown[]; values: unknown[] } {
  if (!(value instanceof Map)) throw invalidValue(type, `expected a Map, got ${describe(value)}`);
  const keys: unknown[] = [];
  const values: unknown[] = [];
  for (const [k, v] of value) {
    keys.push(toJsonSingleValue(type.key, k));
    values.push(toJsonSingleValue(type.value, v));
  }
  return { keys, values };
}

/**
 * Reads a JSON single value as produced by `parseJson` (numbers, bigint, `JsonFloat`) into the
 * internal representation (spec Appendix D; Java `SingleValueParser.fromJson` rules: integral
 * numbers for int/long, decimal scale equal to the type's, uuid exactly 36 chars, fixed hex of
 * 2·L chars, timestamptz offset must be UTC, timestamp without offset).
 */
export function fromJsonSingleValue(type: IcebergType, json: unknown): LiteralValue | null {
  if (json === null || json === undefined) return null;
  switch (type.kind) {
    case 'boolean':
      if (typeof json !== 'boolean') throw invalidValue(type, `expected a JSON boolean, got ${describe(json)}`);
      return json;
    case 'int': {
      const v = integral(type, json);
      if (v < BigInt(INT_MIN) || v > BigInt(INT_MAX)) throw invalidValue(type, `${v} is outside the 32-bit range`);
      return Number(v);
    }
    case 'long':
      return asLong(type, integral(type, json));
    case 'float':
      return Math.fround(floating(type, json));
    case 'double':
      return floating(type, json);
    case 'decimal':
      return decimalFromString(text(type, json), type.scale);
    case 'date':
      return isoDateToDays(text(type, json));
    case 'time':
      return isoTimeToMicros(text(type, json));
    case 'timestamp':
      return isoTimestampToMicros(text(type, json));
    case 'timestamp_ns':
      return isoTimestampToNanos(text(type, json));
    case 'timestamptz':
      return isoTimestamptzToMicros(utcText(type, json));
    case 'timestamptz_ns':
      return isoTimestamptzToNanos(utcText(type, json));
    case 'string':
    case 'geometry':
    case 'geography':
      return text(type, json);
    case 'uuid': {
      const s = text(type, json);
      if (s.length !== 36) throw invalidValue(type, `expected 36 characters, got ${s.length}`);
      return normalizeUuid(s);
    }
    case 'fixed': {
      const s = text(type, json);
      if (s.length !== type.length * 2) throw invalidValue(type, `expected ${type.length * 2} hex characters, got ${s.length}`);
      return fromHex(s);
    }
    case 'binary':
      return fromHex(text(type, json));
    case 'list':
      if (!Array.isArray(json)) throw invalidValue(type, `expected a JSON array, got ${describe(json)}`);
      return json.map((e: unknown) => fromJsonSingleValue(type.element, e));
    case 'map':
      return mapFromJson(type, json);
    case 'struct':
      if (!isPlainObject(json)) throw invalidValue(type, `expected a JSON object, got ${describe(json)}`);
      return type.fields.map((f) => fromJsonSingleValue(f.type, json[String(f.id)]));
    default:
      throw invalidValue(type, `only null is allowed, got ${describe(json)}`);
  }
}

function mapFromJson(type: MapType, json: unknown): Map<LiteralValue, LiteralValue | null> {
  const keys = isPlainObject(json) ? json['keys'] : undefined;
  const values = isPlainObject(json) ? json['values'] : undefined;
  if (!Array.isArray(keys) || !Array.isArray(values) || keys.length !== values.length) {
    throw invalidValue(type, 'expected {"keys": [...], "values": [...]} of equal lengths');
  }
  const out = new Map<LiteralValue, LiteralValue | null>();
  keys.forEach((k: unknown, i) => {
    const key = fromJsonSingleValue(type.key, k);
    if (key === null) throw invalidValue(type, 'map keys cannot be null');
    out.set(key, fromJsonSingleValue(type.value, values[i]));
  });
  return out;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof JsonFloat);
}

function text(type: IcebergType, json: unknown): string {
  if (typeof json !== 'string') throw invalidValue(type, `expected a JSON string, got ${describe(json)}`);
  return json;
}

function utcText(type: IcebergType, json: unknown): string {
  const s = text(type, json);
  if (!isUtcTimestamptz(s)) throw invalidValue(type, `offset must be +00:00: ${JSON.stringify(s)}`);
  return s;
}

/** An integral JSON number: a safe number or a bigint; `1.0` (a JsonFloat) is rejected like Jackson's `isIntegralNumber`. */
function integral(type: IcebergType, json: unknown): bigint {
  if (typeof json === 'bigint') return json;
  if (typeof json === 'number' && Number.isSafeInteger(json)) return BigInt(json);
  throw invalidValue(type, `expected an integral JSON number, got ${describe(json)}`);
}

function floating(type: IcebergType, json: unknown): number {
  if (json instanceof JsonFloat) return json.valueOf();
  if (typeof json === 'number') return json;
  if (typeof json === 'bigint') return Number(json);
  if (json === 'NaN') return NaN;
  if (json === 'Infinity') return Infinity;
  if (json === '-Infinity') return -Infinity;
  throw invalidValue(type, `expected a JSON number, got ${describe(json)}`);
}
