/**
 * The shape of a manifest's writer schema (wire-format §14.2): the `manifest_entry` root, its
 * `data_file` struct (2) and the field ids inside it, plus reader schemas that drop fields so
 * avsc skips them instead of building values.
 */
import { MalformedInput } from './avro-binary.js';
import { asRecord, fieldsFor, nonNull, withoutFields, type AvroField, type AvroRecordSchema } from './avro-schema.js';

/** [field id, Java name] of manifest_entry and data_file fields. */
export const ENTRY_FIELDS = {
  status: [0, 'status'],
  snapshotId: [1, 'snapshot_id'],
  sequenceNumber: [3, 'sequence_number'],
  fileSequenceNumber: [4, 'file_sequence_number'],
  dataFile: [2, 'data_file'],
} as const;

export const FILE_FIELDS = {
  content: [134, 'content'],
  filePath: [100, 'file_path'],
  fileFormat: [101, 'file_format'],
  partition: [102, 'partition'],
  recordCount: [103, 'record_count'],
  fileSizeInBytes: [104, 'file_size_in_bytes'],
  columnSizes: [108, 'column_sizes'],
  valueCounts: [109, 'value_counts'],
  nullValueCounts: [110, 'null_value_counts'],
  nanValueCounts: [137, 'nan_value_counts'],
  lowerBounds: [125, 'lower_bounds'],
  upperBounds: [128, 'upper_bounds'],
  keyMetadata: [131, 'key_metadata'],
  splitOffsets: [132, 'split_offsets'],
  equalityIds: [135, 'equality_ids'],
  sortOrderId: [140, 'sort_order_id'],
  firstRowId: [142, 'first_row_id'],
  referencedDataFile: [143, 'referenced_data_file'],
  contentOffset: [144, 'content_offset'],
  contentSizeInBytes: [145, 'content_size_in_bytes'],
} as const;

export type FieldRef = readonly [id: number, name: string];

/** The six per-column metric maps (column sizes, value/null/NaN counts, lower/upper bounds). */
const METRIC_MAPS: readonly FieldRef[] = [
  FILE_FIELDS.columnSizes,
  FILE_FIELDS.valueCounts,
  FILE_FIELDS.nullValueCounts,
  FILE_FIELDS.nanValueCounts,
  FILE_FIELDS.lowerBounds,
  FILE_FIELDS.upperBounds,
];

export function field(record: AvroRecordSchema, [id, name]: FieldRef): AvroField | undefined {
  return fieldsFor(record, id, [name])[0];
}

export interface EntrySchema {
  readonly root: AvroRecordSchema;
  readonly dataFileField: AvroField;
  readonly dataFile: AvroRecordSchema;
}

export function entrySchema(writerSchema: unknown): EntrySchema {
  const root = asRecord(writerSchema, 'the manifest schema');
  const dataFileField = field(root, ENTRY_FIELDS.dataFile);
  if (dataFileField === undefined) throw new MalformedInput('the manifest schema has no data_file (2) field');
  return { root, dataFileField, dataFile: asRecord(dataFileField.type, 'data_file') };
}

/** `schema` with `data_file` replaced by `dataFile` (inside its nullable union when there is one). */
function replaceDataFile(schema: EntrySchema, root: AvroRecordSchema, dataFile: AvroRecordSchema): AvroRecordSchema {
  const original = schema.dataFileField;
  const type = Array.isArray(original.type) ? original.type.map((b: unknown) => (b === nonNull(original.type) ? dataFile : b)) : dataFile;
  return { ...root, fields: root.fields.map((f) => (f === original ? { ...f, type } : f)) };
}

function refs(record: AvroRecordSchema, wanted: readonly FieldRef[]): Set<AvroField> {
  const out = new Set<AvroField>();
  for (const ref of wanted) {
    const f = field(record, ref);
    if (f) out.add(f);
  }
  return out;
}

/**
 * The schema objects of the metric map fields the writer wrote, in a fixed order (for
 * `rawFieldsDecoder`, which matches them by identity); undefined when one is a type name, which identity cannot single out.
 */
export function metricTypes(schema: EntrySchema): unknown[] | undefined {
  const types = [...refs(schema.dataFile, METRIC_MAPS)].map((f) => f.type);
  return types.every((t) => t !== null && typeof t === 'object') ? types : undefined;
}

/** Reader schema without the six metric maps. */
export function withoutMetricsSchema(schema: EntrySchema): AvroRecordSchema {
  const drop = refs(schema.dataFile, METRIC_MAPS);
  return replaceDataFile(schema, schema.root, withoutFields(schema.dataFile, (f) => drop.has(f)));
}

/** Reader schema with only what first-row-id inheritance needs: status, record_count, first_row_id. */
export function rowIdSchema(schema: EntrySchema): AvroRecordSchema {
  const keepRoot = refs(schema.root, [ENTRY_FIELDS.status]);
  keepRoot.add(schema.dataFileField);
  const keepFile = refs(schema.dataFile, [FILE_FIELDS.recordCount, FILE_FIELDS.firstRowId]);
  const root = withoutFields(schema.root, (f) => !keepRoot.has(f));
  return replaceDataFile(schema, root, withoutFields(schema.dataFile, (f) => !keepFile.has(f)));
}
