/**
 * Manifest files (spec "Manifests"; Java `ManifestWriter`): Avro `manifest_entry` records with the
 * version's schema, the header keys Java writes, and the ManifestFile record the manifest list
 * needs (entry counts, row counts, sequence numbers, partition field summaries).
 */
import { partitionFieldsToJson, Schema, schemaToJson } from '../../src/iceberg/index.js';
import { stringifyJson } from '../../src/json/index.js';
import { structToAvro } from './avro-schema.js';
import { writeAvroFile } from './avro-file.js';
import { syncMarkerFor } from './ids.js';
import { manifestEntrySchema } from './manifest-schemas.js';
import { ADDED, DELETED, EXISTING, type AvroCodec, type ContentFile, type FormatVersion, type ManifestEntry, type ManifestFile } from './model.js';
import { partitionRecord, PartitionSummary, type BoundSpec } from './partition.js';

// Java writes a constant block size into v1 manifests (the field is required in v1 only)
const V1_BLOCK_SIZE = 64n * 1024n * 1024n;

export interface ManifestInput {
  readonly version: FormatVersion;
  readonly schema: Schema;
  readonly bound: BoundSpec;
  /** 0 data files, 1 delete files. */
  readonly content: 0 | 1;
  readonly entries: Iterable<ManifestEntry>;
  /** Full location of the manifest, recorded in the manifest list. */
  readonly path: string;
  /** The committing snapshot: the manifest's added_snapshot_id. */
  readonly snapshotId: bigint;
  /** The commit's sequence number, assigned to this new manifest. */
  readonly sequenceNumber: bigint;
  readonly codec: AvroCodec;
}

export interface ManifestResult {
  readonly bytes: Buffer;
  readonly manifest: ManifestFile;
}

export function writeManifest(input: ManifestInput): ManifestResult {
  const { version, bound } = input;
  if (version === 1 && input.content !== 0) throw new Error('format v1 has no delete manifests');
  const summary = new PartitionSummary(bound);
  const counts = { files: [0, 0, 0], rows: [0n, 0n, 0n] };
  let minSeq: bigint | null = null;
  const records = (function* () {
    for (const e of input.entries) {
      counts.files[e.status]! += 1;
      counts.rows[e.status]! += e.file.recordCount;
      summary.update(e.file.partition);
      if (e.sequenceNumber !== null && (minSeq === null || e.sequenceNumber < minSeq)) minSeq = e.sequenceNumber;
      yield entryRecord(e, bound);
    }
  })();
  const entrySchema = manifestEntrySchema(version, bound.partitionType);
  const meta: Array<[string, string]> = [
    ['schema', stringifyJson(schemaToJson(input.schema))],
    ['partition-spec', stringifyJson(partitionFieldsToJson(bound.spec))],
    ['partition-spec-id', String(bound.spec.specId)],
    ['format-version', String(version)],
  ];
  if (version >= 2) meta.push(['content', input.content === 0 ? 'data' : 'deletes']);
  meta.push(['iceberg.schema', stringifyJson(schemaToJson(new Schema(entrySchema.fields)))]);
  const bytes = writeAvroFile(structToAvro(entrySchema, 'manifest_entry'), records, { codec: input.codec, metadata: meta, syncMarker: syncMarkerFor(input.path) });
  return {
    bytes,
    manifest: {
      path: input.path,
      length: BigInt(bytes.length),
      specId: bound.spec.specId,
      content: input.content,
      sequenceNumber: input.sequenceNumber,
      // Java ManifestWriter.toManifestFile: the lowest explicit data sequence number, else the commit's
      minSequenceNumber: minSeq ?? input.sequenceNumber,
      addedSnapshotId: input.snapshotId,
      addedFilesCount: counts.files[ADDED]!,
      existingFilesCount: counts.files[EXISTING]!,
      deletedFilesCount: counts.files[DELETED]!,
      addedRowsCount: counts.rows[ADDED]!,
      existingRowsCount: counts.rows[EXISTING]!,
      deletedRowsCount: counts.rows[DELETED]!,
      partitions: summary.summaries(),
    },
  };
}

function entryRecord(e: ManifestEntry, bound: BoundSpec): Record<string, unknown> {
  return {
    status: e.status,
    snapshot_id: e.snapshotId,
    sequence_number: e.sequenceNumber,
    file_sequence_number: e.fileSequenceNumber,
    data_file: dataFileRecord(e.file, bound),
  };
}

// one record with every version's fields; the Avro schema of the version picks its own
function dataFileRecord(f: ContentFile, bound: BoundSpec): Record<string, unknown> {
  return {
    content: f.content,
    file_path: f.filePath,
    file_format: f.fileFormat,
    partition: partitionRecord(bound, f.partition),
    record_count: f.recordCount,
    file_size_in_bytes: f.fileSizeInBytes,
    block_size_in_bytes: V1_BLOCK_SIZE,
    column_sizes: kv(f.columnSizes),
    value_counts: kv(f.valueCounts),
    null_value_counts: kv(f.nullValueCounts),
    nan_value_counts: kv(f.nanValueCounts),
    lower_bounds: kv(f.lowerBounds),
    upper_bounds: kv(f.upperBounds),
    key_metadata: f.keyMetadata ? asBuffer(f.keyMetadata) : null,
    split_offsets: f.splitOffsets ?? null,
    equality_ids: f.equalityIds ?? null,
    sort_order_id: f.sortOrderId ?? null,
    first_row_id: f.firstRowId ?? null,
    referenced_data_file: f.referencedDataFile ?? null,
    content_offset: f.contentOffset ?? null,
    content_size_in_bytes: f.contentSizeInBytes ?? null,
  };
}

// Avro key/value arrays. A map seen a second time is shared between files (metadata-only
// writers do that), so its conversion is kept; unique maps are converted and let go.
const seenOnce = new WeakSet<ReadonlyMap<number, unknown>>();
const kvCache = new WeakMap<ReadonlyMap<number, unknown>, Array<{ key: number; value: unknown }>>();

function kv(m: ReadonlyMap<number, bigint | Uint8Array> | undefined): Array<{ key: number; value: unknown }> | null {
  if (m === undefined) return null;
  const cached = kvCache.get(m);
  if (cached) return cached;
  const out: Array<{ key: number; value: unknown }> = [];
  for (const [key, value] of m) out.push({ key, value: value instanceof Uint8Array ? asBuffer(value) : value });
  if (seenOnce.has(m)) kvCache.set(m, out);
  else seenOnce.add(m);
  return out;
}

/** avsc writes bytes with Buffer methods; wrap a Uint8Array without copying. */
function asBuffer(b: Uint8Array): Buffer {
  return Buffer.isBuffer(b) ? b : Buffer.from(b.buffer, b.byteOffset, b.byteLength);
}
