/**
 * Field lookup for binding: names through the Schema name index (dotted names, Java's short
 * names, case-insensitive option; Java `struct.asSchema().findField/caseInsensitiveFindField`),
 * and per field id the accessor position path and whether every ancestor is required
 * (Java `Schema.accessorForField`, `TypeUtil.ancestorFields`).
 */
import { Schema, type IcebergType, type NestedField, type StructType } from '../../iceberg/index.js';

export interface ResolvedField {
  readonly field: NestedField;
  readonly accessor: readonly number[] | null;
  /** True when every field above this one (not the field itself) is required. */
  readonly ancestorsRequired: boolean;
}

interface StructIndex {
  readonly schema: Schema;
  readonly byId: ReadonlyMap<number, ResolvedField>;
}

// keyed on the fields array: Schema.asStruct() makes a new struct object on every call
const cache = new WeakMap<readonly NestedField[], StructIndex>();

export function resolveField(struct: StructType, name: string, caseSensitive: boolean): ResolvedField | undefined {
  const index = structIndex(struct);
  const field = index.schema.findFieldByName(name, caseSensitive);
  return field === undefined ? undefined : index.byId.get(field.id);
}

function structIndex(struct: StructType): StructIndex {
  let index = cache.get(struct.fields);
  if (index === undefined) {
    const byId = new Map<number, ResolvedField>();
    visitStruct(struct, [], true, byId);
    index = { schema: new Schema(struct.fields), byId };
    cache.set(struct.fields, index);
  }
  return index;
}

function visitStruct(
  struct: StructType,
  path: readonly number[] | null,
  ancestorsRequired: boolean,
  out: Map<number, ResolvedField>,
): void {
  struct.fields.forEach((field, i) => {
    const accessor = path === null ? null : [...path, i];
    out.set(field.id, { field, accessor, ancestorsRequired });
    visitType(field.type, accessor, ancestorsRequired && field.required, out);
  });
}

function visitType(
  type: IcebergType,
  path: readonly number[] | null,
  ancestorsRequired: boolean,
  out: Map<number, ResolvedField>,
): void {
  if (type.kind === 'struct') {
    visitStruct(type, path, ancestorsRequired, out);
  } else if (type.kind === 'list') {
    const element: NestedField = { id: type.elementId, name: 'element', required: type.elementRequired, type: type.element };
    out.set(element.id, { field: element, accessor: null, ancestorsRequired });
    visitType(type.element, null, ancestorsRequired && element.required, out);
  } else if (type.kind === 'map') {
    const key: NestedField = { id: type.keyId, name: 'key', required: true, type: type.key };
    const value: NestedField = { id: type.valueId, name: 'value', required: type.valueRequired, type: type.value };
    out.set(key.id, { field: key, accessor: null, ancestorsRequired });
    visitType(type.key, null, ancestorsRequired, out);
    out.set(value.id, { field: value, accessor: null, ancestorsRequired });
    visitType(type.value, null, ancestorsRequired && value.required, out);
  }
}
