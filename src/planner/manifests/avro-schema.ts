/**
 * Reading a raw Avro writer schema (the JSON in the file header, which keeps Iceberg's
 * `field-id` attributes) to find fields by Iceberg field id, as pyiceberg's resolver and Java's
 * `AvroSchemaUtil` do. Writers disagree on names and nullability: DuckDB re-serialises every
 * field as a nullable union and drops ids inside maps, some manifest lists carry no ids at all.
 */
import { MalformedInput } from './avro-binary.js';

export interface AvroField {
  readonly name: string;
  readonly type: unknown;
  readonly 'field-id'?: number;
}

export interface AvroRecordSchema {
  readonly type: 'record';
  readonly name: string;
  readonly fields: readonly AvroField[];
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** The non-null branch of `["null", T]` / `[T, "null"]`; other schemas unchanged. */
export function nonNull(schema: unknown): unknown {
  if (!Array.isArray(schema)) return schema;
  const branches = schema.filter((s) => s !== 'null' && !(isObject(s) && s['type'] === 'null'));
  return branches.length === 1 ? branches[0] : schema;
}

function isRecordSchema(schema: unknown): schema is AvroRecordSchema {
  return isObject(schema) && schema['type'] === 'record' && Array.isArray(schema['fields']);
}

/** The record schema of a (possibly nullable) record-typed value. */
export function asRecord(schema: unknown, what: string): AvroRecordSchema {
  const s = nonNull(schema);
  if (!isRecordSchema(s)) throw new MalformedInput(`${what} is not an Avro record`);
  return s;
}

export function fieldId(field: AvroField): number | undefined {
  const id = field['field-id'];
  return typeof id === 'number' && Number.isInteger(id) ? id : typeof id === 'string' && /^\d+$/.test(id) ? Number(id) : undefined;
}

/**
 * The fields of `record` that carry Iceberg field `id`: the one with that `field-id`, or, when
 * none has it, those without any id whose name is one of `names` (in `names` order; several
 * when a writer emitted both an old and a new name, e.g. `added_data_files_count` and
 * `added_files_count`).
 */
export function fieldsFor(record: AvroRecordSchema, id: number, names: readonly string[]): AvroField[] {
  const byId = record.fields.find((f) => fieldId(f) === id);
  if (byId) return [byId];
  const out: AvroField[] = [];
  for (const name of names) {
    const f = record.fields.find((x) => x.name === name && fieldId(x) === undefined);
    if (f) out.push(f);
  }
  return out;
}

/** The element schema of a (possibly nullable) array, or undefined when it is not an array. */
export function arrayItems(schema: unknown): unknown {
  const s = nonNull(schema);
  return isObject(s) && s['type'] === 'array' ? s['items'] : undefined;
}

/** True for an Avro `map` (string keys; decoded by avsc into a plain object). */
export function isAvroMap(schema: unknown): boolean {
  const s = nonNull(schema);
  return isObject(s) && s['type'] === 'map';
}

/** The primitive Avro type name and logical type of a (possibly nullable) leaf schema. */
export function leafType(schema: unknown): { type: string; logicalType?: string } {
  const s = nonNull(schema);
  if (typeof s === 'string') return { type: s };
  if (isObject(s)) {
    const type = s['type'];
    const logical = typeof s['logicalType'] === 'string' ? s['logicalType'] : undefined;
    if (typeof type === 'string') return logical === undefined ? { type } : { type, logicalType: logical };
    if (isObject(type) || Array.isArray(type)) return leafType(type);
  }
  return { type: 'unknown' };
}

/** A copy of `record` without the fields `drop` selects (used for skipping projections). */
export function withoutFields(record: AvroRecordSchema, drop: (field: AvroField) => boolean): AvroRecordSchema {
  return { ...record, fields: record.fields.filter((f) => !drop(f)) };
}
