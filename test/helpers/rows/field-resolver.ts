/**
 * Which Iceberg field each Parquet column holds (spec "Column Projection"): the Parquet
 * `field_id`; without one, the table's name mapping (`schema.name-mapping.default`); without
 * that, the column name in the current schema. Only primitives and structs of primitives are
 * resolved (lists and maps have no single value per row).
 */
import type { SchemaElement, SchemaTree } from 'hyparquet';
import { isPrimitive, type IcebergType, type NestedField, type Schema, type TableMetadata } from '../../../src/iceberg/index.js';

/** One Iceberg column found in a Parquet file. */
export interface ColumnBinding {
  readonly fieldId: number;
  readonly type: IcebergType;
  /** Names from the top-level Parquet column down to this one. */
  readonly path: readonly string[];
  /** The leaf's schema element as written (logical types intact). */
  readonly element: SchemaElement;
}

/** A name-mapping entry (spec "Column Projection", name mapping JSON). */
interface MappedField {
  readonly 'field-id'?: number;
  readonly names: readonly string[];
  readonly fields?: readonly MappedField[];
}

/** Field types by id across every schema of the table, the current schema winning. */
export function fieldsById(metadata: TableMetadata): Map<number, NestedField> {
  const out = new Map<number, NestedField>();
  const current = metadata.schemas.find((s) => s.schemaId === metadata.currentSchemaId);
  const ordered = current ? [current, ...metadata.schemas.filter((s) => s !== current)] : metadata.schemas;
  const visit = (fields: readonly NestedField[]): void => {
    for (const f of fields) {
      if (!out.has(f.id)) out.set(f.id, f);
      if (f.type.kind === 'struct') visit(f.type.fields);
    }
  };
  for (const s of ordered) visit(s.fields);
  return out;
}

export function nameMapping(metadata: TableMetadata): readonly MappedField[] | undefined {
  const text = metadata.properties['schema.name-mapping.default'];
  return text === undefined ? undefined : (JSON.parse(text) as MappedField[]);
}

export interface ResolveContext {
  readonly fields: ReadonlyMap<number, NestedField>;
  readonly mapping: readonly MappedField[] | undefined;
  readonly schema: Schema;
}

/** The primitive Iceberg columns of a Parquet schema tree (root node). */
export function resolveColumns(root: SchemaTree, ctx: ResolveContext): ColumnBinding[] {
  const out: ColumnBinding[] = [];
  const walk = (nodes: readonly SchemaTree[], mapping: readonly MappedField[] | undefined, byName: readonly NestedField[], path: string[]): void => {
    for (const node of nodes) {
      const name = node.element.name;
      const mapped = mapping?.find((m) => m.names.includes(name));
      const id = node.element.field_id ?? mapped?.['field-id'] ?? byName.find((f) => f.name === name)?.id;
      const field = id === undefined ? undefined : ctx.fields.get(id);
      if (id === undefined || field === undefined) continue;
      const childPath = [...path, name];
      if (isPrimitive(field.type) && node.children.length === 0) {
        out.push({ fieldId: id, type: field.type, path: childPath, element: node.element });
      } else if (field.type.kind === 'struct' && node.children.length > 0) {
        walk(node.children, mapped?.fields, field.type.fields, childPath);
      }
    }
  };
  walk(root.children, ctx.mapping, ctx.schema.fields, []);
  return out;
}
