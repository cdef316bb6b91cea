/**
 * Data files, position-delete files and equality-delete files as Parquet, each returned with the
 * ContentFile record its manifest entry needs (spec "Manifests", "Delete Formats").
 */
import { isPrimitive, Schema, schemaToJson, type NestedField, type PrimitiveType } from '../../src/iceberg/index.js';
import { stringifyJson } from '../../src/json/index.js';
import { DATA, EQUALITY_DELETES, POSITION_DELETES, type ContentFile, type Row } from './model.js';
import type { MetricsColumn } from './metrics.js';
import { writeParquet, type ParquetResult } from './parquet.js';

// spec "Position Delete Files": reserved field ids of file_path and pos (Java MetadataColumns)
export const DELETE_FILE_PATH: NestedField = {
  id: 2147483546, name: 'file_path', required: true, type: { kind: 'string' },
  doc: 'Path of a file in which a deleted row is stored',
};
export const DELETE_FILE_POS: NestedField = {
  id: 2147483545, name: 'pos', required: true, type: { kind: 'long' },
  doc: 'Ordinal position of a deleted row in the data file',
};

export interface Placement {
  /** Full location recorded in the manifest. */
  readonly filePath: string;
  readonly specId: number;
  readonly partition: readonly unknown[];
}

export interface WrittenFile {
  readonly bytes: Uint8Array;
  readonly file: ContentFile;
}

/** A Parquet data file holding `rows` (objects keyed by column name) of a flat schema. */
export function writeDataFile(
  schema: Schema,
  rows: readonly Row[],
  at: Placement,
  opts: { readonly sortOrderId?: number; readonly rowGroupSize?: number } = {},
): WrittenFile {
  const result = writeParquet(metricsColumns(schema.fields), rows, {
    icebergSchemaJson: stringifyJson(schemaToJson(schema)),
    rowGroupSize: opts.rowGroupSize,
  });
  return { bytes: result.bytes, file: { ...fileRecord(DATA, at, result), sortOrderId: opts.sortOrderId ?? 0 } };
}

export interface PositionDelete {
  readonly filePath: string;
  readonly pos: bigint;
}

/** A position-delete file; rows are sorted by (file_path, pos) as the spec requires. */
export function writePositionDeleteFile(deletes: readonly PositionDelete[], at: Placement): WrittenFile {
  const sorted = [...deletes].sort((a, b) =>
    a.filePath === b.filePath ? (a.pos < b.pos ? -1 : a.pos > b.pos ? 1 : 0) : a.filePath < b.filePath ? -1 : 1,
  );
  const deleteSchema = new Schema([DELETE_FILE_PATH, DELETE_FILE_POS]);
  const result = writeParquet(
    // Java MetricsConfig.forPositionDelete: both columns use the `full` mode
    metricsColumns(deleteSchema.fields).map((c) => ({ ...c, full: true })),
    sorted.map((d) => ({ file_path: d.filePath, pos: d.pos })),
    { icebergSchemaJson: stringifyJson(schemaToJson(deleteSchema)) },
  );
  const targets = new Set(sorted.map((d) => d.filePath));
  const file = fileRecord(POSITION_DELETES, at, result);
  // Java sets referenced_data_file when every delete in the file points at one data file
  return { bytes: result.bytes, file: targets.size === 1 ? { ...file, referencedDataFile: sorted[0]!.filePath } : file };
}

/** An equality-delete file over the columns `equalityIds`; each row holds those columns. */
export function writeEqualityDeleteFile(
  schema: Schema,
  equalityIds: readonly number[],
  rows: readonly Row[],
  at: Placement,
): WrittenFile {
  const fields = equalityIds.map((id) => {
    const f = schema.fields.find((x) => x.id === id);
    if (!f) throw new Error(`equality field ${id} is not a top-level column`);
    return f;
  });
  const deleteSchema = new Schema(fields, schema.schemaId);
  const result = writeParquet(metricsColumns(fields), rows, { icebergSchemaJson: stringifyJson(schemaToJson(deleteSchema)) });
  return { bytes: result.bytes, file: { ...fileRecord(EQUALITY_DELETES, at, result), equalityIds: [...equalityIds] } };
}

function metricsColumns(fields: readonly NestedField[]): MetricsColumn[] {
  return fields.map((field) => {
    if (!isPrimitive(field.type)) throw new Error(`column ${field.name}: the writer supports top-level primitive columns only`);
    return { field: field as NestedField & { type: PrimitiveType } };
  });
}

function fileRecord(content: ContentFile['content'], at: Placement, r: ParquetResult): ContentFile {
  return {
    content,
    filePath: at.filePath,
    fileFormat: 'PARQUET',
    specId: at.specId,
    partition: at.partition as ContentFile['partition'],
    recordCount: r.recordCount,
    fileSizeInBytes: BigInt(r.bytes.length),
    columnSizes: r.columnSizes,
    valueCounts: r.valueCounts,
    nullValueCounts: r.nullValueCounts,
    nanValueCounts: r.nanValueCounts,
    lowerBounds: r.lowerBounds,
    upperBounds: r.upperBounds,
    splitOffsets: r.splitOffsets,
  };
}
