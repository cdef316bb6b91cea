/**
 * Turns decoded `manifest_entry` records into ManifestEntry values (spec "Manifests"; fields by
 * id per wire-format §14.2) with inheritance applied (§12.6, §12.7). Compiled once per writer
 * schema and partition spec, then called per record.
 */
import type {
  ContentFile,
  EntryStatus,
  FileContent,
  ManifestEntry,
  ManifestFile,
  PartitionSpec,
  StructType,
} from '../../iceberg/index.js';
import { MalformedInput } from './avro-binary.js';
import { asRecord } from './avro-schema.js';
import type { RecordDecoder } from './avro-types.js';
import { ENTRY_FIELDS, FILE_FIELDS, field, type EntrySchema, type FieldRef } from './entry-schema.js';
import { inheritNumbers, type RowIdAssigner } from './inheritance.js';
import { LazyMetricMap } from './lazy-metric-map.js';
import { EMPTY, mapReader, rawMetricReader, type MetricValue } from './metric-maps.js';
import { partitionReader } from './partition-values.js';
import {
  getter,
  optArray,
  optBytes,
  optInt,
  optLong,
  optRecord,
  optString,
  required,
  type AvroRecord,
  type Getter,
} from './record-access.js';

export type EntryReader = (record: AvroRecord, ordinal: number, rowIds: RowIdAssigner) => ManifestEntry;

export interface EntryReaderOptions {
  readonly manifest: ManifestFile;
  readonly spec: PartitionSpec;
  readonly partitionType: StructType;
  /** Keep metrics only for these column ids; all when undefined. */
  readonly statsFieldIds?: ReadonlySet<number>;
  /**
   * Set when the record decoder hands the six metric fields over as raw bytes
   * (`rawFieldsDecoder`): avsc decoders of those fields, by schema object. Each map is then
   * decoded on first read; otherwise the maps come decoded and are converted here.
   */
  readonly rawMetrics?: ReadonlyMap<unknown, RecordDecoder>;
  /** The six maps are kept apart from the entries (pooled-metrics.ts): the entries carry none. */
  readonly metricsPooled?: boolean;
}

function listReader<V>(get: Getter, what: string, element: (v: unknown, what: string) => V | undefined): (r: AvroRecord) => V[] | undefined {
  const whatElement = `${what} element`;
  return (r) => {
    const arr = optArray(get(r), what);
    return arr?.map((x) => required(element(x ?? null, whatElement), whatElement));
  };
}

export function compileEntryReader(schema: EntrySchema, options: EntryReaderOptions): EntryReader {
  const { manifest, spec, partitionType, statsFieldIds: keep } = options;
  const e = (ref: FieldRef) => getter(schema.root, ref[0], [ref[1]]);
  const status = e(ENTRY_FIELDS.status);
  const snapshotId = e(ENTRY_FIELDS.snapshotId);
  const sequenceNumber = e(ENTRY_FIELDS.sequenceNumber);
  const fileSequenceNumber = e(ENTRY_FIELDS.fileSequenceNumber);
  const dataFile = e(ENTRY_FIELDS.dataFile);

  const df = schema.dataFile;
  const g = (ref: FieldRef) => getter(df, ref[0], [ref[1]]);
  const m = <V>(ref: FieldRef, value: MetricValue<V>): ((r: AvroRecord) => ReadonlyMap<number, V> | undefined) => {
    if (options.metricsPooled) return () => undefined;
    const f = field(df, ref);
    const get = g(ref);
    const avsc = f && options.rawMetrics?.get(f.type);
    if (f === undefined || avsc === undefined) {
      const reader = mapReader(f, ref[1], value, keep);
      return (r) => reader(get(r));
    }
    // data_file 108–110, 125, 128, 137 as raw bytes: a map is decoded only when something reads it
    const raw = rawMetricReader(f, ref[1], value, keep, avsc, manifest.path);
    // no column's stats kept: nothing to decode later, so nothing to hold (as mapReader answers)
    if (keep !== undefined && keep.size === 0) return (r) => {
      const bytes = get(r) as Buffer | null;
      return bytes === null || !raw.present(bytes) ? undefined : EMPTY;
    };
    return (r) => {
      const bytes = get(r) as Buffer | null;
      // a copy: the span is a view of the decompressed block, which a cached slice must not keep alive
      return bytes === null || !raw.present(bytes) ? undefined : new LazyMetricMap(Buffer.from(bytes), raw);
    };
  };
  const content = g(FILE_FIELDS.content);
  const filePath = g(FILE_FIELDS.filePath);
  const fileFormat = g(FILE_FIELDS.fileFormat);
  const partition = g(FILE_FIELDS.partition);
  const recordCount = g(FILE_FIELDS.recordCount);
  const fileSize = g(FILE_FIELDS.fileSizeInBytes);
  const columnSizes = m(FILE_FIELDS.columnSizes, optLong);
  const valueCounts = m(FILE_FIELDS.valueCounts, optLong);
  const nullValueCounts = m(FILE_FIELDS.nullValueCounts, optLong);
  const nanValueCounts = m(FILE_FIELDS.nanValueCounts, optLong);
  const lowerBounds = m(FILE_FIELDS.lowerBounds, optBytes);
  const upperBounds = m(FILE_FIELDS.upperBounds, optBytes);
  const keyMetadata = g(FILE_FIELDS.keyMetadata);
  const splitOffsets = listReader(g(FILE_FIELDS.splitOffsets), 'split_offsets', optLong);
  const equalityIds = listReader(g(FILE_FIELDS.equalityIds), 'equality_ids', optInt);
  const sortOrderId = g(FILE_FIELDS.sortOrderId);
  const firstRowId = g(FILE_FIELDS.firstRowId);
  const referencedDataFile = g(FILE_FIELDS.referencedDataFile);
  const contentOffset = g(FILE_FIELDS.contentOffset);
  const contentSize = g(FILE_FIELDS.contentSizeInBytes);
  const partitionField = field(df, FILE_FIELDS.partition);
  const readPartition = partitionReader(partitionField && asRecord(partitionField.type, 'partition'), spec, partitionType);

  return (record, ordinal, rowIds) => {
    const statusValue = required(optInt(status(record), 'status'), 'status');
    if (statusValue < 0 || statusValue > 2) throw new MalformedInput(`entry ${ordinal} has status ${statusValue}`);
    const entryStatus = statusValue as EntryStatus;
    const d = required(optRecord(dataFile(record), 'data_file'), 'data_file');
    const contentValue = optInt(content(d), 'content') ?? 0;
    if (contentValue < 0 || contentValue > 2) throw new MalformedInput(`entry ${ordinal} has content ${contentValue}`);
    const records = required(optLong(recordCount(d), 'record_count'), 'record_count');
    // every property is always set (undefined when absent) so all entries share one object shape
    const file: ContentFile = {
      content: contentValue as FileContent,
      filePath: required(optString(filePath(d), 'file_path'), 'file_path'),
      fileFormat: required(optString(fileFormat(d), 'file_format'), 'file_format').toUpperCase(),
      // spec "Sequence Number Inheritance": the manifest's partition_spec_id sets the file's spec id
      specId: manifest.specId,
      partition: readPartition(optRecord(partition(d), 'partition')),
      recordCount: records,
      fileSizeInBytes: required(optLong(fileSize(d), 'file_size_in_bytes'), 'file_size_in_bytes'),
      columnSizes: columnSizes(d),
      valueCounts: valueCounts(d),
      nullValueCounts: nullValueCounts(d),
      nanValueCounts: nanValueCounts(d),
      lowerBounds: lowerBounds(d),
      upperBounds: upperBounds(d),
      keyMetadata: optBytes(keyMetadata(d), 'key_metadata'),
      splitOffsets: splitOffsets(d),
      equalityIds: equalityIds(d),
      sortOrderId: optInt(sortOrderId(d), 'sort_order_id'),
      firstRowId: rowIds.assign(entryStatus, records, optLong(firstRowId(d), 'first_row_id')),
      referencedDataFile: optString(referencedDataFile(d), 'referenced_data_file'),
      contentOffset: optLong(contentOffset(d), 'content_offset'),
      contentSizeInBytes: optLong(contentSize(d), 'content_size_in_bytes'),
    };
    const numbers = inheritNumbers(
      manifest,
      entryStatus,
      optLong(snapshotId(record), 'snapshot_id'),
      optLong(sequenceNumber(record), 'sequence_number'),
      optLong(fileSequenceNumber(record), 'file_sequence_number'),
    );
    return {
      status: entryStatus,
      snapshotId: numbers.snapshotId,
      dataSequenceNumber: numbers.dataSequenceNumber,
      fileSequenceNumber: numbers.fileSequenceNumber,
      file,
      position: ordinal,
      manifestPath: manifest.path,
    };
  };
}

/** Reads only what row-id inheritance needs from a record of the `rowIdSchema` projection. */
export function compileRowIdAdvance(schema: EntrySchema): (record: AvroRecord, rowIds: RowIdAssigner) => void {
  const status = getter(schema.root, ENTRY_FIELDS.status[0], [ENTRY_FIELDS.status[1]]);
  const dataFile = getter(schema.root, ENTRY_FIELDS.dataFile[0], [ENTRY_FIELDS.dataFile[1]]);
  const recordCount = getter(schema.dataFile, FILE_FIELDS.recordCount[0], [FILE_FIELDS.recordCount[1]]);
  const firstRowId = getter(schema.dataFile, FILE_FIELDS.firstRowId[0], [FILE_FIELDS.firstRowId[1]]);
  return (record, rowIds) => {
    const d = required(optRecord(dataFile(record), 'data_file'), 'data_file');
    const s = required(optInt(status(record), 'status'), 'status') as EntryStatus;
    rowIds.assign(s, required(optLong(recordCount(d), 'record_count'), 'record_count'), optLong(firstRowId(d), 'first_row_id'));
  };
}
