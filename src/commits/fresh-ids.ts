/**
 * Java TypeUtil.assignFreshIds(schemaId, schema, nextId): every field id renumbered from the
 * counter, a struct's own fields before their children (AssignFreshIds visits breadth-first per
 * struct), a map's key and value ids before their types; identifier fields follow their names
 * (TypeUtil.refreshIdentifierFields).
 */
import { fail } from '../errors/index.js';
import { Schema, type IcebergType, type NestedField } from '../iceberg/index.js';

export function assignFreshIds(schemaId: number, schema: Schema, nextId: () => number): Schema {
  const fresh = new Schema(freshFields(schema.fields, nextId), schemaId, []);
  const ids = new Set<number>();
  for (const id of schema.identifierFieldIds) {
    const name = schema.columnName(id);
    const field = name === undefined ? undefined : fresh.findFieldByName(name);
    if (field === undefined) throw fail('ILLEGAL_ARGUMENT', `Cannot find ID for identifier field ${name ?? id} in schema`);
    ids.add(field.id);
  }
  // Java collects them in a HashSet of small ints: ascending
  return new Schema(fresh.fields, schemaId, [...ids].sort((a, b) => a - b));
}

function freshFields(fields: readonly NestedField[], nextId: () => number): NestedField[] {
  const ids = fields.map(() => nextId());
  return fields.map((f, i) => ({ ...f, id: ids[i]!, type: freshType(f.type, nextId) }));
}

function freshType(type: IcebergType, nextId: () => number): IcebergType {
  switch (type.kind) {
    case 'struct':
      return { kind: 'struct', fields: freshFields(type.fields, nextId) };
    case 'list': {
      const elementId = nextId();
      return { ...type, elementId, element: freshType(type.element, nextId) };
    }
    case 'map': {
      const keyId = nextId();
      const valueId = nextId();
      return { ...type, keyId, valueId, key: freshType(type.key, nextId), value: freshType(type.value, nextId) };
    }
    default:
      return type;
  }
}
