/**
 * JSON form of Iceberg types (spec Appendix C "JSON serialization": Schemas; REST spec `Type`),
 * read the way Java's SchemaParser/Types.fromTypeName do and written the way they write.
 */
import type { IcebergType, NestedField, PrimitiveKind, PrimitiveType, StructType } from './types.js';
import {
  asObject,
  asArray,
  at,
  invalid,
  reqBool,
  reqInt,
  reqString,
  optString,
  type JsonObject,
} from './json-fields.js';

const SIMPLE: ReadonlySet<string> = new Set<PrimitiveKind>([
  'boolean',
  'int',
  'long',
  'float',
  'double',
  'date',
  'time',
  'timestamp',
  'timestamptz',
  'timestamp_ns',
  'timestamptz_ns',
  'string',
  'uuid',
  'binary',
  'variant',
  'unknown',
  'geometry',
  'geography',
]);

// Java Types: FIXED / DECIMAL / GEOMETRY_PARAMETERS / GEOGRAPHY_PARAMETERS (case-insensitive)
const FIXED = /^fixed\[\s*(\d+)\s*\]$/i;
const DECIMAL = /^decimal\(\s*(\d+)\s*,\s*(\d+)\s*\)$/i;
const GEOMETRY = /^geometry\s*\(\s*([^)]*?)\s*\)$/i;
const GEOGRAPHY = /^geography\s*\(\s*([^,]*?)\s*(?:,\s*(\w*)\s*)?\)$/i;

/** A primitive from its string form ("long", "decimal(9, 2)", "fixed[16]", "geometry(srid:4326)"). */
export function parsePrimitive(text: string, path = ''): PrimitiveType {
  const trimmed = text.trim();
  const lower = trimmed.toLowerCase();
  if (SIMPLE.has(lower)) return { kind: lower as PrimitiveKind };
  const fixed = FIXED.exec(trimmed);
  if (fixed) return { kind: 'fixed', length: Number(fixed[1]) };
  const decimal = DECIMAL.exec(trimmed);
  if (decimal) {
    const precision = Number(decimal[1]);
    const scale = Number(decimal[2]);
    // spec "Primitive Types": decimal precision must be 38 or less, scale at most the precision
    if (precision > 38 || scale > precision) throw invalid(path, `is not a valid decimal type: ${text}`);
    return { kind: 'decimal', precision, scale };
  }
  if (GEOMETRY.test(trimmed)) return { kind: 'geometry', raw: trimmed };
  if (GEOGRAPHY.test(trimmed)) return { kind: 'geography', raw: trimmed };
  throw invalid(path, `is not a known Iceberg type: ${JSON.stringify(text)}`);
}

/** The string Java writes for a primitive (Java's DecimalType writes "decimal(P, S)"). */
export function primitiveTypeName(t: PrimitiveType): string {
  if (t.kind === 'decimal') return `decimal(${t.precision}, ${t.scale})`;
  if (t.kind === 'fixed') return `fixed[${t.length}]`;
  return t.raw ?? t.kind;
}

/** An IcebergType from its JSON form: a string for primitives, an object for struct/list/map. */
export function parseType(json: unknown, path = ''): IcebergType {
  if (typeof json === 'string') return parsePrimitive(json, path);
  const obj = asObject(json, path);
  const type = reqString(obj, 'type', path);
  switch (type) {
    case 'struct':
      return parseStruct(obj, path);
    case 'list':
      return {
        kind: 'list',
        elementId: reqInt(obj, 'element-id', path),
        element: parseType(obj['element'] ?? missing(at(path, 'element')), at(path, 'element')),
        elementRequired: reqBool(obj, 'element-required', path),
      };
    case 'map':
      return {
        kind: 'map',
        keyId: reqInt(obj, 'key-id', path),
        key: parseType(obj['key'] ?? missing(at(path, 'key')), at(path, 'key')),
        valueId: reqInt(obj, 'value-id', path),
        value: parseType(obj['value'] ?? missing(at(path, 'value')), at(path, 'value')),
        valueRequired: reqBool(obj, 'value-required', path),
      };
    default:
      throw invalid(at(path, 'type'), `is not a nested type (struct, list or map): ${JSON.stringify(type)}`);
  }
}

function missing(path: string): never {
  throw invalid(path, 'is missing');
}

export function parseStruct(obj: JsonObject, path: string): StructType {
  const fieldsPath = at(path, 'fields');
  const fields = asArray(obj['fields'] ?? missing(fieldsPath), fieldsPath);
  return { kind: 'struct', fields: fields.map((f, i) => parseField(f, at(fieldsPath, i))) };
}

function parseField(json: unknown, path: string): NestedField {
  const obj = asObject(json, path);
  const typeJson = obj['type'] ?? missing(at(path, 'type'));
  const doc = optString(obj, 'doc', path);
  // Java SchemaParser: a JSON null default means "no default"
  const type = parseType(typeJson, at(path, 'type'));
  const initialDefault = defaultJson(type, obj['initial-default'] ?? undefined);
  const writeDefault = defaultJson(type, obj['write-default'] ?? undefined);
  return {
    id: reqInt(obj, 'id', path),
    name: reqString(obj, 'name', path),
    required: reqBool(obj, 'required', path),
    type,
    ...(doc !== undefined && { doc }),
    ...(initialDefault !== undefined && { initialDefault }),
    ...(writeDefault !== undefined && { writeDefault }),
  };
}

/** The JSON form of a type, in Java SchemaParser's key order. */
export function typeToJson(t: IcebergType): unknown {
  switch (t.kind) {
    case 'struct':
      return { type: 'struct', fields: fieldsToJson(t.fields) };
    case 'list':
      return {
        type: 'list',
        'element-id': t.elementId,
        element: typeToJson(t.element),
        'element-required': t.elementRequired,
      };
    case 'map':
      return {
        type: 'map',
        'key-id': t.keyId,
        key: typeToJson(t.key),
        'value-id': t.valueId,
        value: typeToJson(t.value),
        'value-required': t.valueRequired,
      };
    default:
      return primitiveTypeName(t);
  }
}

export function fieldsToJson(fields: readonly NestedField[]): unknown[] {
  return fields.map((f) => {
    const out: JsonObject = { id: f.id, name: f.name, required: f.required, type: typeToJson(f.type) };
    if (f.doc !== undefined) out['doc'] = f.doc;
    if (f.initialDefault !== undefined) out['initial-default'] = defaultJson(f.type, f.initialDefault);
    if (f.writeDefault !== undefined) out['write-default'] = defaultJson(f.type, f.writeDefault);
    return out;
  });
}

/**
 * A default value (`initial-default`, `write-default`) in the form Java's SingleValueParser
 * writes it: binary and fixed as upper-case hex (Guava's base16; Java reads either case), also
 * inside list, map and struct defaults. Anything else is kept as given; a value of the wrong
 * shape is left alone for whoever validates it.
 */
function defaultJson(type: IcebergType, value: unknown): unknown {
  if (value === undefined || value === null) return value;
  switch (type.kind) {
    case 'binary':
    case 'fixed':
      return typeof value === 'string' ? value.toUpperCase() : value;
    case 'list':
      return Array.isArray(value) ? value.map((e: unknown) => defaultJson(type.element, e)) : value;
    case 'map': {
      if (!isObject(value) || !Array.isArray(value['keys']) || !Array.isArray(value['values'])) return value;
      return {
        ...value,
        keys: value['keys'].map((k: unknown) => defaultJson(type.key, k)),
        values: value['values'].map((v: unknown) => defaultJson(type.value, v)),
      };
    }
    case 'struct': {
      if (!isObject(value)) return value;
      const out: JsonObject = { ...value };
      for (const f of type.fields) {
        const key = String(f.id);
        if (Object.hasOwn(out, key)) out[key] = defaultJson(f.type, out[key]);
      }
      return out;
    }
    default:
      return value;
  }
}

/** A JSON object (parseJson's have a null prototype), not an array or a JsonFloat. */
function isObject(v: unknown): v is JsonObject {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === null || proto === Object.prototype;
}
