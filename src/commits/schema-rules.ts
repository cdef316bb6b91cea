/**
 * What Java checks of a schema when a commit or create brings one: Schema's constructor
 * (identifier fields, unique full names), Schema.sameSchema and Schema.checkCompatibility against
 * the table's format version, and the struct-parent index (TypeUtil.indexParents).
 */
import { fail } from '../errors/index.js';
import { schemaToJson, type IcebergType, type NestedField, type Schema } from '../iceberg/index.js';
import { stringifyJson } from '../json/index.js';

/** Java Type.isPrimitiveType(): variant is not primitive there, though the model lists it with them. */
export function isJavaPrimitive(type: IcebergType): boolean {
  return type.kind !== 'struct' && type.kind !== 'list' && type.kind !== 'map' && type.kind !== 'variant';
}

/** Java TypeUtil.indexParents: field id → id of the field (struct field, list element, map key/value) it sits in. */
export function indexParents(schema: Schema): Map<number, number> {
  const parents = new Map<number, number>();
  const walk = (type: IcebergType, parent: number | undefined): void => {
    if (type.kind === 'struct') {
      for (const f of type.fields) {
        if (parent !== undefined) parents.set(f.id, parent);
        walk(f.type, f.id);
      }
    } else if (type.kind === 'list') {
      if (parent !== undefined) parents.set(type.elementId, parent);
      walk(type.element, type.elementId);
    } else if (type.kind === 'map') {
      if (parent !== undefined) {
        parents.set(type.keyId, parent);
        parents.set(type.valueId, parent);
      }
      walk(type.key, type.keyId);
      walk(type.value, type.valueId);
    }
  };
  walk(schema.asStruct(), undefined);
  return parents;
}

/**
 * Java's Schema constructor checks, which run when the client's schema JSON is read: full names
 * must be unique (IndexByName, ValidationException) and identifier fields must be required
 * primitives other than float/double, reachable through required structs only
 * (Schema.validateIdentifierField, IllegalArgumentException).
 */
export function validateSchema(schema: Schema): void {
  const seen = new Map<string, number>();
  const visitType = (type: IcebergType, prefix: string): void => {
    if (type.kind === 'struct') {
      for (const f of type.fields) addName(`${prefix}${f.name}`, f.id, f.type);
    } else if (type.kind === 'list') {
      addName(`${prefix}element`, type.elementId, type.element);
    } else if (type.kind === 'map') {
      addName(`${prefix}key`, type.keyId, type.key);
      addName(`${prefix}value`, type.valueId, type.value);
    }
  };
  const addName = (name: string, id: number, type: IcebergType): void => {
    const existing = seen.get(name);
    if (existing !== undefined) {
      throw fail('VALIDATION_FAILED', `Invalid schema: multiple fields for name ${name}: ${existing} and ${id}`);
    }
    seen.set(name, id);
    visitType(type, `${name}.`);
  };
  visitType(schema.asStruct(), '');

  const parents = indexParents(schema);
  for (const id of schema.identifierFieldIds) {
    const field = schema.findField(id);
    if (field === undefined) illegal(`Cannot add fieldId ${id} as an identifier field: field does not exist`);
    const name = field.name;
    if (!isJavaPrimitive(field.type)) illegal(`Cannot add field ${name} as an identifier field: not a primitive type field`);
    if (!field.required) illegal(`Cannot add field ${name} as an identifier field: not a required field`);
    if (field.type.kind === 'float' || field.type.kind === 'double') {
      illegal(`Cannot add field ${name} as an identifier field: must not be float or double field`);
    }
    const chain: NestedField[] = [];
    for (let p = parents.get(id); p !== undefined; p = parents.get(p)) chain.unshift(schema.findField(p)!);
    for (const parent of chain) {
      if (parent.type.kind !== 'struct') illegal(`Cannot add field ${name} as an identifier field: must not be nested in ${parent.name}`);
      if (!parent.required) {
        illegal(`Cannot add field ${name} as an identifier field: must not be nested in an optional field ${parent.name}`);
      }
    }
  }
}

function illegal(message: string): never {
  throw fail('ILLEGAL_ARGUMENT', message);
}

/** Java Schema.sameSchema: equal structs (ids, names, optionality, types, docs, defaults) and identifier-field sets. */
export function sameSchema(a: Schema, b: Schema): boolean {
  if (fieldsText(a) !== fieldsText(b)) return false;
  const ids = new Set(a.identifierFieldIds);
  const other = new Set(b.identifierFieldIds);
  return ids.size === other.size && [...ids].every((id) => other.has(id));
}

function fieldsText(schema: Schema): string {
  return stringifyJson((schemaToJson(schema) as { fields: unknown }).fields);
}

// Java Schema.MIN_FORMAT_VERSIONS and DEFAULT_VALUES_MIN_FORMAT_VERSION
const V3_TYPES: ReadonlySet<string> = new Set(['timestamp_ns', 'timestamptz_ns', 'variant', 'unknown', 'geometry', 'geography']);

/**
 * Java Schema.checkCompatibility(schema, formatVersion): v3 types and initial defaults need v3.
 * Java throws IllegalStateException (a 500 from its REST adapter); the request is at fault, so
 * this is ILLEGAL_ARGUMENT (400).
 */
export function checkSchemaCompatibility(schema: Schema, formatVersion: number): void {
  const problems = new Map<number, string>();
  const visit = (field: NestedField): void => {
    const name = schema.columnName(field.id) ?? field.name;
    if (V3_TYPES.has(field.type.kind) && formatVersion < 3) {
      problems.set(field.id, `Invalid type for ${name}: ${typeName(field.type)} is not supported until v3`);
    }
    if (field.initialDefault !== undefined && formatVersion < 3) {
      problems.set(field.id, `Invalid initial default for ${name}: non-null default is not supported until v3`);
    }
  };
  const walk = (type: IcebergType): void => {
    if (type.kind === 'struct') {
      for (const f of type.fields) {
        visit(f);
        walk(f.type);
      }
    } else if (type.kind === 'list') {
      visit({ id: type.elementId, name: 'element', required: type.elementRequired, type: type.element });
      walk(type.element);
    } else if (type.kind === 'map') {
      visit({ id: type.keyId, name: 'key', required: true, type: type.key });
      visit({ id: type.valueId, name: 'value', required: type.valueRequired, type: type.value });
      walk(type.key);
      walk(type.value);
    }
  };
  walk(schema.asStruct());
  if (problems.size > 0) {
    const sorted = [...problems.entries()].sort((x, y) => x[0] - y[0]).map(([, p]) => p);
    throw fail('ILLEGAL_ARGUMENT', `Invalid schema for v${formatVersion}:\n- ${sorted.join('\n- ')}`);
  }
}

function typeName(type: IcebergType): string {
  if ('raw' in type && type.raw !== undefined) return type.raw;
  return type.kind;
}
