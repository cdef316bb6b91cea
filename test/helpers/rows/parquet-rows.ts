/**
 * Reads the rows of a Parquet data or delete file as `Map<fieldId, value>` in Icefront's
 * internal value representation, independent of the planner. Logical types are stripped before
 * decoding so hyparquet hands back raw physical values (no lossy decimal → number or
 * timestamp → Date conversion); parquet-values.ts converts them by Iceberg type.
 */
import { parquetMetadata, parquetReadObjects, parquetSchema, type FileMetaData } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';
import { fromJsonSingleValue, isPrimitive, type NestedField, type PrimitiveValue } from '../../../src/iceberg/index.js';
import { resolveColumns, type ColumnBinding, type ResolveContext } from './field-resolver.js';
import { parquetToIceberg } from './parquet-values.js';

/** One row: field id → value (null when the column is null or absent from the file). */
export type Row = ReadonlyMap<number, PrimitiveValue | null>;

export interface ParquetRows {
  readonly rows: Row[];
  /** The Iceberg columns the file holds. */
  readonly columns: readonly ColumnBinding[];
}

function toArrayBuffer(bytes: Uint8Array): ArrayBuffer {
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
}

/** The file's metadata with leaf logical/converted types removed, so values arrive raw. */
function rawMetadata(meta: FileMetaData): FileMetaData {
  return {
    ...meta,
    schema: meta.schema.map((el) => {
      if (el.type === undefined) return el;
      const { converted_type: _c, logical_type: _l, ...rest } = el;
      return rest;
    }),
  };
}

/** Primitive fields of the current schema reachable through structs, with their defaults. */
function defaultedFields(fields: readonly NestedField[], out: NestedField[] = []): NestedField[] {
  for (const f of fields) {
    if (f.type.kind === 'struct') defaultedFields(f.type.fields, out);
    else if (isPrimitive(f.type) && f.initialDefault !== undefined) out.push(f);
  }
  return out;
}

/**
 * Rows of the Parquet file `bytes`. `only` limits decoding to these field ids (whole top-level
 * columns are read). Columns the file lacks read as the field's initial default (v3), else null.
 */
export async function readParquetRows(bytes: Uint8Array, ctx: ResolveContext, only?: ReadonlySet<number>): Promise<ParquetRows> {
  const file = toArrayBuffer(bytes);
  const meta = parquetMetadata(file, { geoparquet: false });
  const all = resolveColumns(parquetSchema(meta), ctx);
  const columns = only ? all.filter((c) => only.has(c.fieldId)) : all;
  const present = new Set(all.map((c) => c.fieldId));
  const defaults = defaultedFields(ctx.schema.fields).filter((f) => !present.has(f.id) && (!only || only.has(f.id)));
  const topLevel = [...new Set(columns.map((c) => c.path[0]!))];
  const objects =
    topLevel.length === 0
      ? []
      : await parquetReadObjects({ file, metadata: rawMetadata(meta), columns: topLevel, compressors, utf8: false, geoparquet: false });
  const count = Number(meta.num_rows);
  const rows: Row[] = [];
  for (let i = 0; i < count; i++) {
    const obj = objects[i] as Record<string, unknown> | undefined;
    const row = new Map<number, PrimitiveValue | null>();
    for (const c of columns) {
      let v: unknown = obj;
      for (const name of c.path) v = v === null || v === undefined ? null : (v as Record<string, unknown>)[name];
      row.set(c.fieldId, parquetToIceberg(c.type, c.element, v));
    }
    for (const f of defaults) row.set(f.id, fromJsonSingleValue(f.type, f.initialDefault) as PrimitiveValue | null);
    rows.push(row);
  }
  return { rows, columns };
}
