/**
 * Iceberg table schemas (spec "Schemas and Data Types"; REST spec `Schema`): a struct with a
 * schema id and identifier field ids, plus lookups by field id and by dotted name.
 */
import type { IcebergType, NestedField, StructType } from './types.js';
import { asObject, at, intList, invalid, optInt, type JsonObject } from './json-fields.js';
import { fieldsToJson, parseStruct } from './type-json.js';

interface SchemaIndex {
  readonly byId: ReadonlyMap<number, NestedField>;
  readonly idToName: ReadonlyMap<number, string>;
  readonly byName: ReadonlyMap<string, number>;
  lowerByName?: ReadonlyMap<string, number>;
}

export class Schema {
  readonly schemaId: number;
  readonly identifierFieldIds: readonly number[];
  readonly fields: readonly NestedField[];
  #index: SchemaIndex | undefined;

  constructor(fields: readonly NestedField[], schemaId = 0, identifierFieldIds: readonly number[] = []) {
    this.schemaId = schemaId;
    this.identifierFieldIds = identifierFieldIds;
    this.fields = fields;
  }

  asStruct(): StructType {
    return { kind: 'struct', fields: this.fields };
  }

  /** The field with this id at any depth, including list elements and map keys/values. */
  findField(id: number): NestedField | undefined {
    return this.#idx().byId.get(id);
  }

  /**
   * The field with this full dotted name (`a.b`, `tags.element`, `props.key`, `props.value.x`),
   * also accepting Java's short names that skip `element`/`value` above a struct
   * (`locations.lat` for `locations.element.lat`), as Java's Schema.findField(String).
   */
  findFieldByName(name: string, caseSensitive = true): NestedField | undefined {
    const idx = this.#idx();
    let id: number | undefined;
    if (caseSensitive) {
      id = idx.byName.get(name);
    } else {
      idx.lowerByName ??= lowerCaseNames(idx.byName);
      id = idx.lowerByName.get(name.toLowerCase());
    }
    return id === undefined ? undefined : idx.byId.get(id);
  }

  /** The full dotted name of a field id (canonical form, with `element`/`key`/`value`). */
  columnName(id: number): string | undefined {
    return this.#idx().idToName.get(id);
  }

  highestFieldId(): number {
    let max = 0;
    for (const id of this.#idx().byId.keys()) if (id > max) max = id;
    return max;
  }

  #idx(): SchemaIndex {
    this.#index ??= buildIndex(this.fields);
    return this.#index;
  }
}

// Java TypeUtil.indexByName / IndexByName: canonical names win over short names
function buildIndex(fields: readonly NestedField[]): SchemaIndex {
  const byId = new Map<number, NestedField>();
  const canonical = new Map<string, number>();
  const short = new Map<string, number>();

  const add = (field: NestedField, full: string, shortName: string): void => {
    byId.set(field.id, field);
    canonical.set(full, field.id);
    short.set(shortName, field.id);
  };
  const visitType = (type: IcebergType, full: string, shortName: string): void => {
    if (type.kind === 'struct') {
      for (const f of type.fields) visitField(f, full, shortName);
    } else if (type.kind === 'list') {
      const element: NestedField = { id: type.elementId, name: 'element', required: type.elementRequired, type: type.element };
      add(element, `${full}.element`, `${shortName}.element`);
      visitType(type.element, `${full}.element`, type.element.kind === 'struct' ? shortName : `${shortName}.element`);
    } else if (type.kind === 'map') {
      const key: NestedField = { id: type.keyId, name: 'key', required: true, type: type.key };
      const value: NestedField = { id: type.valueId, name: 'value', required: type.valueRequired, type: type.value };
      add(key, `${full}.key`, `${shortName}.key`);
      visitType(type.key, `${full}.key`, `${shortName}.key`);
      add(value, `${full}.value`, `${shortName}.value`);
      visitType(type.value, `${full}.value`, type.value.kind === 'struct' ? shortName : `${shortName}.value`);
    }
  };
  const visitField = (field: NestedField, parent: string | undefined, parentShort: string | undefined): void => {
    const full = parent === undefined ? field.name : `${parent}.${field.name}`;
    const shortName = parentShort === undefined ? field.name : `${parentShort}.${field.name}`;
    add(field, full, shortName);
    visitType(field.type, full, shortName);
  };
  for (const f of fields) visitField(f, undefined, undefined);

  const byName = new Map(canonical);
  for (const [name, id] of short) if (!byName.has(name)) byName.set(name, id);
  const idToName = new Map<number, string>();
  for (const [name, id] of canonical) idToName.set(id, name);
  return { byId, idToName, byName };
}

function lowerCaseNames(byName: ReadonlyMap<string, number>): Map<string, number> {
  const lower = new Map<string, number>();
  for (const [name, id] of byName) {
    const key = name.toLowerCase();
    if (!lower.has(key)) lower.set(key, id);
  }
  return lower;
}

/** A Schema from its JSON form; `schema-id` defaults to 0 (v1 writers omit it). */
export function parseSchema(json: unknown, path = ''): Schema {
  const obj = asObject(json, path);
  if (obj['type'] !== undefined && obj['type'] !== 'struct') {
    throw invalid(at(path, 'type'), `must be "struct" for a schema, got ${JSON.stringify(obj['type'])}`);
  }
  const struct = parseStruct(obj, path);
  const ids = obj['identifier-field-ids'];
  return new Schema(
    struct.fields,
    optInt(obj, 'schema-id', path) ?? 0,
    ids === undefined || ids === null ? [] : intList(ids, at(path, 'identifier-field-ids')),
  );
}

/** Java SchemaParser.toJson: type, schema-id, identifier-field-ids (when any), fields. */
export function schemaToJson(schema: Schema): unknown {
  const out: JsonObject = { type: 'struct', 'schema-id': schema.schemaId };
  if (schema.identifierFieldIds.length > 0) out['identifier-field-ids'] = [...schema.identifierFieldIds];
  out['fields'] = fieldsToJson(schema.fields);
  return out;
}
