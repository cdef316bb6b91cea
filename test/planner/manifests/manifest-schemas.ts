/**
 * Java-shaped Avro schemas for manifests and manifest lists (wire-format §14; Java
 * `V2Metadata`/`V3Metadata`), and record builders, for writing test files.
 */
import type { ManifestFile } from '../../../src/iceberg/index.js';

const opt = (type: unknown) => ['null', type];

export function field(name: string, id: number, type: unknown, optional = false): Record<string, unknown> {
  return optional ? { name, type: opt(type), default: null, 'field-id': id } : { name, type, 'field-id': id };
}

function intMap(id: number, keyId: number, valueId: number, name: string, valueType: string) {
  return field(
    name,
    id,
    {
      type: 'array',
      logicalType: 'map',
      items: {
        type: 'record',
        name: `k${keyId}_v${valueId}`,
        fields: [field('key', keyId, 'int'), field('value', valueId, valueType)],
      },
    },
    true,
  );
}

/** `manifest_entry` for format v2 (or v3 with row lineage and DV fields). */
export function manifestEntrySchema(partitionFields: unknown[], version: 2 | 3 = 2): Record<string, unknown> {
  const dataFile = [
    field('content', 134, 'int'),
    field('file_path', 100, 'string'),
    field('file_format', 101, 'string'),
    field('partition', 102, { type: 'record', name: 'r102', fields: partitionFields }),
    field('record_count', 103, 'long'),
    field('file_size_in_bytes', 104, 'long'),
    intMap(108, 117, 118, 'column_sizes', 'long'),
    intMap(109, 119, 120, 'value_counts', 'long'),
    intMap(110, 121, 122, 'null_value_counts', 'long'),
    intMap(137, 138, 139, 'nan_value_counts', 'long'),
    intMap(125, 126, 127, 'lower_bounds', 'bytes'),
    intMap(128, 129, 130, 'upper_bounds', 'bytes'),
    field('key_metadata', 131, 'bytes', true),
    field('split_offsets', 132, { type: 'array', items: 'long', 'element-id': 133 }, true),
    field('equality_ids', 135, { type: 'array', items: 'int', 'element-id': 136 }, true),
    field('sort_order_id', 140, 'int', true),
    ...(version === 3 ? [field('first_row_id', 142, 'long', true)] : []),
    field('referenced_data_file', 143, 'string', true),
    ...(version === 3 ? [field('content_offset', 144, 'long', true), field('content_size_in_bytes', 145, 'long', true)] : []),
  ];
  return {
    type: 'record',
    name: 'manifest_entry',
    fields: [
      field('status', 0, 'int'),
      field('snapshot_id', 1, 'long', true),
      field('sequence_number', 3, 'long', true),
      field('file_sequence_number', 4, 'long', true),
      field('data_file', 2, { type: 'record', name: 'r2', fields: dataFile }),
    ],
  };
}

/** `manifest_file` for format v2 (or v3 with first_row_id). */
export function manifestListSchema(version: 2 | 3 = 2): Record<string, unknown> {
  const summary = {
    type: 'record',
    name: 'r508',
    fields: [
      field('contains_null', 509, 'boolean'),
      field('contains_nan', 518, 'boolean', true),
      field('lower_bound', 510, 'bytes', true),
      field('upper_bound', 511, 'bytes', true),
    ],
  };
  return {
    type: 'record',
    name: 'manifest_file',
    fields: [
      field('manifest_path', 500, 'string'),
      field('manifest_length', 501, 'long'),
      field('partition_spec_id', 502, 'int'),
      field('content', 517, 'int'),
      field('sequence_number', 515, 'long'),
      field('min_sequence_number', 516, 'long'),
      field('added_snapshot_id', 503, 'long'),
      field('added_files_count', 504, 'int'),
      field('existing_files_count', 505, 'int'),
      field('deleted_files_count', 506, 'int'),
      field('added_rows_count', 512, 'long'),
      field('existing_rows_count', 513, 'long'),
      field('deleted_rows_count', 514, 'long'),
      field('partitions', 507, { type: 'array', items: summary, 'element-id': 508 }, true),
      field('key_metadata', 519, 'bytes', true),
      ...(version === 3 ? [field('first_row_id', 520, 'long', true)] : []),
    ],
  };
}

export interface EntryInput {
  status?: number;
  snapshotId?: bigint | null;
  sequenceNumber?: bigint | null;
  fileSequenceNumber?: bigint | null;
  content?: number;
  path?: string;
  partition?: Record<string, unknown>;
  recordCount?: bigint;
  firstRowId?: bigint | null;
  lowerBounds?: Array<[number, Buffer]> | null;
  valueCounts?: Array<[number, bigint]> | null;
}

/** A manifest_entry record for `manifestEntrySchema` (v3 fields only when `version` is 3). */
export function entryRecord(e: EntryInput, i: number, version: 2 | 3 = 2): Record<string, unknown> {
  const pairs = (xs: Array<[number, unknown]> | null | undefined) => (xs ? xs.map(([key, value]) => ({ key, value })) : null);
  const dataFile: Record<string, unknown> = {
    content: e.content ?? 0,
    file_path: e.path ?? `s3://bucket/t/data/f-${i}.parquet`,
    file_format: 'PARQUET',
    partition: e.partition ?? {},
    record_count: e.recordCount ?? BigInt(10 + i),
    file_size_in_bytes: 1000n + BigInt(i),
    column_sizes: pairs([[1, 100n]]),
    value_counts: pairs(e.valueCounts === undefined ? [[1, 10n], [2, 10n]] : e.valueCounts),
    null_value_counts: pairs([[1, 0n]]),
    nan_value_counts: null,
    lower_bounds: pairs(e.lowerBounds === undefined ? [[1, Buffer.from([1, 0, 0, 0])]] : e.lowerBounds),
    upper_bounds: pairs([[1, Buffer.from([9, 0, 0, 0])]]),
    key_metadata: null,
    split_offsets: [4n],
    equality_ids: null,
    sort_order_id: 0,
    referenced_data_file: null,
  };
  if (version === 3) Object.assign(dataFile, { first_row_id: e.firstRowId ?? null, content_offset: null, content_size_in_bytes: null });
  return {
    status: e.status ?? 1,
    snapshot_id: e.snapshotId === undefined ? null : e.snapshotId,
    sequence_number: e.sequenceNumber === undefined ? null : e.sequenceNumber,
    file_sequence_number: e.fileSequenceNumber === undefined ? null : e.fileSequenceNumber,
    data_file: dataFile,
  };
}

/** A ManifestFile (manifest-list entry) for a manifest written by a test. */
export function manifestFile(path: string, overrides: Partial<ManifestFile> = {}): ManifestFile {
  return {
    path,
    length: 0n,
    specId: 0,
    content: 0,
    sequenceNumber: 7n,
    minSequenceNumber: 7n,
    addedSnapshotId: 700n,
    addedFilesCount: undefined,
    existingFilesCount: undefined,
    deletedFilesCount: undefined,
    addedRowsCount: undefined,
    existingRowsCount: undefined,
    deletedRowsCount: undefined,
    partitions: undefined,
    keyMetadata: undefined,
    firstRowId: undefined,
    ...overrides,
  };
}
