/**
 * Manifest lists (spec "Manifest Lists"; wire-format §14.1) decoded by field id, and the v1
 * alternative: snapshots that name their manifests inline (Java `BaseSnapshot.cacheManifests`).
 */
import type { ManifestContent, ManifestFile, PartitionFieldSummary } from '../../iceberg/index.js';
import type { FileIO } from '../../storage/index.js';
import { MalformedInput } from './avro-binary.js';
import { AvroContainer, containerError, nextBlockOffset } from './avro-container.js';
import { arrayItems, asRecord, fieldsFor, type AvroRecordSchema } from './avro-schema.js';
import { writerDecoder } from './avro-types.js';
import {
  getter,
  optArray,
  optBoolean,
  optBytes,
  optInt,
  optLong,
  optRecord,
  optString,
  required,
  type AvroRecord,
} from './record-access.js';

export interface ReadManifestListOptions {
  /** The table's format version: `first_row_id` (520) is read only from v3 on (row lineage). */
  readonly formatVersion: number;
  /** The snapshot's id, used when a v1 list leaves `added_snapshot_id` null. */
  readonly snapshotId?: bigint;
}

type ListEntryReader = (record: AvroRecord) => ManifestFile;

// wire-format §14.1: field ids with Java's names (and the pre-0.12 `*_data_files_count` names)
function compileListReader(schema: AvroRecordSchema, options: ReadManifestListOptions, headerSnapshotId: bigint | undefined): ListEntryReader {
  const g = (id: number, ...names: string[]) => getter(schema, id, names);
  const path = g(500, 'manifest_path');
  const length = g(501, 'manifest_length');
  const specId = g(502, 'partition_spec_id');
  const content = g(517, 'content');
  const seq = g(515, 'sequence_number');
  const minSeq = g(516, 'min_sequence_number');
  const snapshot = g(503, 'added_snapshot_id');
  const addedFiles = g(504, 'added_files_count', 'added_data_files_count');
  const existingFiles = g(505, 'existing_files_count', 'existing_data_files_count');
  const deletedFiles = g(506, 'deleted_files_count', 'deleted_data_files_count');
  const addedRows = g(512, 'added_rows_count');
  const existingRows = g(513, 'existing_rows_count');
  const deletedRows = g(514, 'deleted_rows_count');
  const partitions = g(507, 'partitions');
  const keyMetadata = g(519, 'key_metadata');
  const firstRowId = options.formatVersion >= 3 ? g(520, 'first_row_id') : () => null;
  const summary = summaryReader(schema);
  const fallbackSnapshot = headerSnapshotId ?? options.snapshotId;

  return (r) => {
    const contentValue = optInt(content(r), 'content') ?? 0;
    if (contentValue !== 0 && contentValue !== 1) throw new MalformedInput(`content ${contentValue} is not 0 (data) or 1 (deletes)`);
    const addedSnapshotId = optLong(snapshot(r), 'added_snapshot_id') ?? fallbackSnapshot;
    // every property is always set (undefined when absent), as for manifest entries
    const entry: ManifestFile = {
      path: required(optString(path(r), 'manifest_path'), 'manifest_path'),
      length: required(optLong(length(r), 'manifest_length'), 'manifest_length'),
      specId: required(optInt(specId(r), 'partition_spec_id'), 'partition_spec_id'),
      content: contentValue as ManifestContent,
      // Java GenericManifestFile: absent (v1) or null sequence numbers read as 0
      sequenceNumber: optLong(seq(r), 'sequence_number') ?? 0n,
      minSequenceNumber: optLong(minSeq(r), 'min_sequence_number') ?? 0n,
      addedSnapshotId: required(addedSnapshotId, 'added_snapshot_id'),
      addedFilesCount: optInt(addedFiles(r), 'added_files_count'),
      existingFilesCount: optInt(existingFiles(r), 'existing_files_count'),
      deletedFilesCount: optInt(deletedFiles(r), 'deleted_files_count'),
      addedRowsCount: optLong(addedRows(r), 'added_rows_count'),
      existingRowsCount: optLong(existingRows(r), 'existing_rows_count'),
      deletedRowsCount: optLong(deletedRows(r), 'deleted_rows_count'),
      partitions: summary(partitions(r)),
      keyMetadata: optBytes(keyMetadata(r), 'key_metadata'),
      firstRowId: optLong(firstRowId(r), 'first_row_id'),
    };
    return entry;
  };
}

// spec "Manifest Lists": field_summary (508) = contains_null 509, contains_nan 518, lower_bound 510, upper_bound 511
function summaryReader(schema: AvroRecordSchema): (v: unknown) => PartitionFieldSummary[] | undefined {
  const [field] = fieldsFor(schema, 507, ['partitions']);
  const items = field === undefined ? undefined : arrayItems(field.type);
  if (items === undefined) return () => undefined;
  const rec = asRecord(items, 'partitions element');
  const containsNull = getter(rec, 509, ['contains_null']);
  const containsNan = getter(rec, 518, ['contains_nan']);
  const lower = getter(rec, 510, ['lower_bound']);
  const upper = getter(rec, 511, ['upper_bound']);
  return (v) =>
    optArray(v, 'partitions')?.map((item) => {
      const s = required(optRecord(item, 'partitions element'), 'partitions element');
      const summary: PartitionFieldSummary = {
        containsNull: required(optBoolean(containsNull(s), 'contains_null'), 'contains_null'),
        containsNan: optBoolean(containsNan(s), 'contains_nan'),
        lowerBound: optBytes(lower(s), 'lower_bound'),
        upperBound: optBytes(upper(s), 'upper_bound'),
      };
      return summary;
    });
}

/** Every entry of the manifest list at `location`, in file order. */
export async function readManifestList(io: FileIO, location: string, options: ReadManifestListOptions): Promise<ManifestFile[]> {
  const container = await AvroContainer.open(io, location, false);
  const { header } = container;
  let read: ListEntryReader;
  try {
    const headerSnapshot = header.meta.get('snapshot-id');
    const snapshotId = headerSnapshot !== undefined && /^-?\d+$/.test(headerSnapshot) ? BigInt(headerSnapshot) : undefined;
    read = compileListReader(asRecord(header.writerSchema, 'the manifest list schema'), options, snapshotId);
  } catch (err) {
    throw containerError(location, err);
  }
  const decoder = writerDecoder(header.schemaText, header.writerSchema);
  const out: ManifestFile[] = [];
  let offset = header.length;
  let first = 0;
  for (;;) {
    const block = await container.blockAt(offset, first);
    if (block === undefined) return out;
    await container.decodeBlock(block, decoder, (value) => out.push(read(value as AvroRecord)));
    offset = nextBlockOffset(block);
    first += block.recordCount;
  }
}

export interface InlineManifestOptions {
  /** The id of the snapshot that lists the manifests. */
  readonly snapshotId: bigint;
}

/**
 * ManifestFile records for a v1 snapshot's inline `manifests` (Java `BaseSnapshot.cacheManifests`
 * → `new GenericManifestFile(file, 0, snapshotId)`): data content, sequence numbers 0, unknown
 * counts and summaries, the snapshot's id. The spec id comes from the manifest's
 * `partition-spec-id` header key (Java hard-codes 0, which is that key in every v1 manifest).
 */
export async function readInlineManifests(io: FileIO, locations: readonly string[], options: InlineManifestOptions): Promise<ManifestFile[]> {
  return Promise.all(
    locations.map(async (location) => {
      const [container, stat] = await Promise.all([AvroContainer.open(io, location, true), io.stat(location)]);
      const specText = container.header.meta.get('partition-spec-id');
      if (specText !== undefined && !/^\d+$/.test(specText)) {
        throw containerError(location, new MalformedInput(`partition-spec-id ${JSON.stringify(specText)} is not a number`));
      }
      const content = container.header.meta.get('content') === 'deletes' ? 1 : 0;
      const manifest: ManifestFile = {
        path: location,
        length: BigInt(stat.size),
        specId: specText === undefined ? 0 : Number(specText),
        content,
        sequenceNumber: 0n,
        minSequenceNumber: 0n,
        addedSnapshotId: options.snapshotId,
        addedFilesCount: undefined,
        existingFilesCount: undefined,
        deletedFilesCount: undefined,
        addedRowsCount: undefined,
        existingRowsCount: undefined,
        deletedRowsCount: undefined,
        partitions: undefined,
        keyMetadata: undefined,
        firstRowId: undefined,
      };
      return manifest;
    }),
  );
}
