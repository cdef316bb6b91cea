/**
 * The manifest (`manifest_entry`) and manifest-list (`manifest_file`) schemas per format
 * version, with Java's field order, names, docs and optionality
 * (Java `V1Metadata`, `V2Metadata`, `V3Metadata`; wire-format.md §14).
 */
import type { IcebergType, NestedField, StructType } from '../../src/iceberg/index.js';
import type { FormatVersion } from './model.js';

const p = (kind: 'int' | 'long' | 'string' | 'binary' | 'boolean'): IcebergType => ({ kind });
const req = (id: number, name: string, type: IcebergType, doc?: string): NestedField => ({ id, name, required: true, type, doc });
const opt = (id: number, name: string, type: IcebergType, doc?: string): NestedField => ({ id, name, required: false, type, doc });
const intLongMap = (keyId: number, valueId: number): IcebergType => ({
  kind: 'map', keyId, key: p('int'), valueId, value: p('long'), valueRequired: true,
});
const intBinaryMap = (keyId: number, valueId: number): IcebergType => ({
  kind: 'map', keyId, key: p('int'), valueId, value: p('binary'), valueRequired: true,
});
const listOf = (elementId: number, element: IcebergType): IcebergType => ({
  kind: 'list', elementId, element, elementRequired: true,
});

// spec "Manifest Lists": field_summary
const FIELD_SUMMARY: StructType = {
  kind: 'struct',
  fields: [
    req(509, 'contains_null', p('boolean'), 'True if any file has a null partition value'),
    opt(518, 'contains_nan', p('boolean'), 'True if any file has a nan partition value'),
    opt(510, 'lower_bound', p('binary'), 'Partition lower bound for all files'),
    opt(511, 'upper_bound', p('binary'), 'Partition upper bound for all files'),
  ],
};

/** The manifest-list schema for a format version. */
export function manifestListSchema(version: FormatVersion): StructType {
  const path = req(500, 'manifest_path', p('string'), 'Location URI with FS scheme');
  const length = req(501, 'manifest_length', p('long'), 'Total file size in bytes');
  const specId = req(502, 'partition_spec_id', p('int'), 'Spec ID used to write');
  const snapshot = req(503, 'added_snapshot_id', p('long'), 'Snapshot ID that added the manifest');
  // v1 made the counts optional; v2 made them required
  const count = version === 1 ? opt : req;
  const counts = [
    count(504, 'added_files_count', p('int'), 'Added entry count'),
    count(505, 'existing_files_count', p('int'), 'Existing entry count'),
    count(506, 'deleted_files_count', p('int'), 'Deleted entry count'),
  ];
  const rows = [
    count(512, 'added_rows_count', p('long'), 'Added rows count'),
    count(513, 'existing_rows_count', p('long'), 'Existing rows count'),
    count(514, 'deleted_rows_count', p('long'), 'Deleted rows count'),
  ];
  const partitions = opt(507, 'partitions', listOf(508, FIELD_SUMMARY), 'Summary for each partition');
  const keyMetadata = opt(519, 'key_metadata', p('binary'), 'Encryption key metadata blob');
  if (version === 1) {
    return { kind: 'struct', fields: [path, length, specId, snapshot, ...counts, partitions, ...rows, keyMetadata] };
  }
  const fields = [
    path, length, specId,
    req(517, 'content', p('int'), 'Contents of the manifest: 0=data, 1=deletes'),
    req(515, 'sequence_number', p('long'), 'Sequence number when the manifest was added'),
    req(516, 'min_sequence_number', p('long'), 'Lowest sequence number in the manifest'),
    snapshot, ...counts, ...rows, partitions, keyMetadata,
  ];
  if (version === 3) {
    fields.push(opt(520, 'first_row_id', p('long'), 'Starting row ID to assign to new rows in ADDED data files'));
  }
  return { kind: 'struct', fields };
}

/** The `data_file` struct (field 2) for a format version and partition type. */
export function dataFileType(version: FormatVersion, partitionType: StructType): StructType {
  const head: NestedField[] = [
    req(100, 'file_path', p('string'), 'Location URI with FS scheme'),
    req(101, 'file_format', p('string'), 'File format name: avro, orc, or parquet'),
    version === 1
      ? req(102, 'partition', partitionType)
      : req(102, 'partition', partitionType, 'Partition data tuple, schema based on the partition spec'),
    req(103, 'record_count', p('long'), 'Number of records in the file'),
    req(104, 'file_size_in_bytes', p('long'), 'Total file size in bytes'),
  ];
  if (version === 1) head.push(req(105, 'block_size_in_bytes', p('long')));
  const metrics: NestedField[] = [
    opt(108, 'column_sizes', intLongMap(117, 118), 'Map of column id to total size on disk'),
    opt(109, 'value_counts', intLongMap(119, 120), 'Map of column id to total count, including null and NaN'),
    opt(110, 'null_value_counts', intLongMap(121, 122), 'Map of column id to null value count'),
    opt(137, 'nan_value_counts', intLongMap(138, 139), 'Map of column id to number of NaN values in the column'),
    opt(125, 'lower_bounds', intBinaryMap(126, 127), 'Map of column id to lower bound'),
    opt(128, 'upper_bounds', intBinaryMap(129, 130), 'Map of column id to upper bound'),
    opt(131, 'key_metadata', p('binary'), 'Encryption key metadata blob'),
    opt(132, 'split_offsets', listOf(133, p('long')), 'Splittable offsets'),
  ];
  const sortOrder = opt(140, 'sort_order_id', p('int'), 'Sort order ID');
  if (version === 1) return { kind: 'struct', fields: [...head, ...metrics, sortOrder] };

  const content = req(134, 'content', p('int'), 'Contents of the file: 0=data, 1=position deletes, 2=equality deletes');
  const equalityIds = opt(135, 'equality_ids', listOf(136, p('int')), 'Equality comparison field IDs');
  const referenced = opt(
    143, 'referenced_data_file', p('string'),
    'Fully qualified location (URI with FS scheme) of a data file that all deletes reference',
  );
  if (version === 2) return { kind: 'struct', fields: [content, ...head, ...metrics, equalityIds, sortOrder, referenced] };
  return {
    kind: 'struct',
    fields: [
      content, ...head, ...metrics, equalityIds, sortOrder,
      opt(142, 'first_row_id', p('long'), 'The first row ID assigned to the first row in the data file'),
      referenced,
      opt(144, 'content_offset', p('long'), 'The offset in the file where the content starts'),
      opt(145, 'content_size_in_bytes', p('long'), 'The length of referenced content stored in the file'),
    ],
  };
}

/** The `manifest_entry` schema for a format version and partition type. */
export function manifestEntrySchema(version: FormatVersion, partitionType: StructType): StructType {
  const status = req(0, 'status', p('int'));
  const snapshotId = opt(1, 'snapshot_id', p('long'));
  const dataFile = req(2, 'data_file', dataFileType(version, partitionType));
  if (version === 1) return { kind: 'struct', fields: [status, snapshotId, dataFile] };
  return {
    kind: 'struct',
    fields: [status, snapshotId, opt(3, 'sequence_number', p('long')), opt(4, 'file_sequence_number', p('long')), dataFile],
  };
}
