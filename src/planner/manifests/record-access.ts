/**
 * Typed access to decoded Avro records by Iceberg field id. A getter is compiled once per writer
 * schema (field lookup by id, name fallback) and then reads values with the widening real
 * writers need: an `int` written where Iceberg has a `long` (and the reverse, e.g. DuckDB's
 * `long` equality ids), nulls from writers that make every field a nullable union.
 */
import { MalformedInput } from './avro-binary.js';
import { fieldsFor, type AvroRecordSchema } from './avro-schema.js';

export type AvroRecord = Record<string, unknown>;

export type Getter = (record: AvroRecord) => unknown;

const ABSENT: Getter = () => null;

/** Reads field `id` (or the first non-null of its fallback `names`); null when the writer has no such field. */
export function getter(schema: AvroRecordSchema, id: number, names: readonly string[]): Getter {
  const fields = fieldsFor(schema, id, names);
  if (fields.length === 0) return ABSENT;
  if (fields.length === 1) {
    const name = fields[0]!.name;
    return (r) => r[name] ?? null;
  }
  const all = fields.map((f) => f.name);
  return (r) => {
    for (const name of all) {
      const v = r[name];
      if (v !== null && v !== undefined) return v;
    }
    return null;
  };
}

function describe(v: unknown): string {
  if (v instanceof Uint8Array) return `${v.length} bytes`;
  if (typeof v === 'bigint') return `${v}n`;
  return typeof v === 'object' ? (Array.isArray(v) ? 'an array' : 'a record') : `${typeof v} ${String(v)}`;
}

function wrong(what: string, expected: string, v: unknown): MalformedInput {
  return new MalformedInput(`${what}: expected ${expected}, got ${describe(v)}`);
}

export function required<T>(v: T | undefined, what: string): T {
  if (v === undefined) throw new MalformedInput(`${what} is missing`);
  return v;
}

export function optLong(v: unknown, what: string): bigint | undefined {
  if (v === null) return undefined;
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number' && Number.isSafeInteger(v)) return BigInt(v);
  throw wrong(what, 'a long', v);
}

export function optInt(v: unknown, what: string): number | undefined {
  if (v === null) return undefined;
  if (typeof v === 'number' && Number.isInteger(v)) return v;
  if (typeof v === 'bigint' && v >= -(2n ** 31n) && v < 2n ** 31n) return Number(v);
  throw wrong(what, 'an int', v);
}

export function optString(v: unknown, what: string): string | undefined {
  if (v === null) return undefined;
  if (typeof v === 'string') return v;
  throw wrong(what, 'a string', v);
}

export function optBytes(v: unknown, what: string): Uint8Array | undefined {
  if (v === null) return undefined;
  if (v instanceof Uint8Array) return v;
  throw wrong(what, 'bytes', v);
}

export function optBoolean(v: unknown, what: string): boolean | undefined {
  if (v === null) return undefined;
  if (typeof v === 'boolean') return v;
  throw wrong(what, 'a boolean', v);
}

export function optRecord(v: unknown, what: string): AvroRecord | undefined {
  if (v === null) return undefined;
  if (typeof v === 'object' && !Array.isArray(v) && !(v instanceof Uint8Array)) return v as AvroRecord;
  throw wrong(what, 'a record', v);
}

export function optArray(v: unknown, what: string): readonly unknown[] | undefined {
  if (v === null) return undefined;
  if (Array.isArray(v)) return v;
  throw wrong(what, 'an array', v);
}

export { wrong as unexpectedValue };
