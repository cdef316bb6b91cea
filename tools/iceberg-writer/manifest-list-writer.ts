/**
 * Manifest lists (spec "Manifest Lists"; Java `ManifestListWriter`): one `manifest_file` record
 * per manifest, the header keys Java writes, and in v3 the first_row_id assignment of row
 * lineage (spec "Row Lineage": data manifests without one get the next free range).
 */
import { Schema, schemaToJson } from '../../src/iceberg/index.js';
import { stringifyJson } from '../../src/json/index.js';
import { structToAvro } from './avro-schema.js';
import { writeAvroFile } from './avro-file.js';
import { syncMarkerFor } from './ids.js';
import { manifestListSchema } from './manifest-schemas.js';
import type { AvroCodec, FormatVersion, ManifestFile } from './model.js';

export interface ManifestListInput {
  readonly version: FormatVersion;
  readonly path: string;
  readonly snapshotId: bigint;
  readonly parentSnapshotId: bigint | null;
  readonly sequenceNumber: bigint;
  /** v3: the table's next-row-id before this commit. */
  readonly firstRowId?: bigint;
  readonly manifests: readonly ManifestFile[];
  readonly codec: AvroCodec;
}

export interface ManifestListResult {
  readonly bytes: Buffer;
  /** The manifests as written (v3: with first_row_id assigned). */
  readonly manifests: ManifestFile[];
  /** v3: the table's next-row-id after this commit. */
  readonly nextRowId?: bigint;
}

export function writeManifestList(input: ManifestListInput): ManifestListResult {
  const { version } = input;
  let nextRowId = input.firstRowId;
  const manifests = input.manifests.map((m): ManifestFile => {
    if (version === 1 && m.content !== 0) throw new Error('format v1 has no delete manifests');
    if (version < 3 || m.content !== 0 || (m.firstRowId !== undefined && m.firstRowId !== null)) return m;
    if (nextRowId === undefined) throw new Error('a v3 manifest list needs firstRowId');
    // spec "Row Lineage": the range covers the manifest's added and existing rows
    const assigned = { ...m, firstRowId: nextRowId };
    nextRowId += m.addedRowsCount + m.existingRowsCount;
    return assigned;
  });
  const meta: Array<[string, string]> = [
    ['snapshot-id', String(input.snapshotId)],
    // Java writes String.valueOf(null) for a snapshot without parent
    ['parent-snapshot-id', String(input.parentSnapshotId)],
  ];
  if (version >= 2) meta.push(['sequence-number', String(input.sequenceNumber)]);
  if (version >= 3) meta.push(['first-row-id', String(input.firstRowId)]);
  meta.push(['format-version', String(version)]);
  const struct = manifestListSchema(version);
  meta.push(['iceberg.schema', stringifyJson(schemaToJson(new Schema(struct.fields)))]);
  const bytes = writeAvroFile(structToAvro(struct, 'manifest_file'), manifests.map(record), {
    codec: input.codec,
    metadata: meta,
    syncMarker: syncMarkerFor(input.path),
  });
  return { bytes, manifests, nextRowId: version >= 3 ? nextRowId : undefined };
}

// one record with every version's fields; the Avro schema of the version picks its own
function record(m: ManifestFile): Record<string, unknown> {
  return {
    manifest_path: m.path,
    manifest_length: m.length,
    partition_spec_id: m.specId,
    content: m.content,
    sequence_number: m.sequenceNumber,
    min_sequence_number: m.minSequenceNumber,
    added_snapshot_id: m.addedSnapshotId,
    added_files_count: m.addedFilesCount,
    existing_files_count: m.existingFilesCount,
    deleted_files_count: m.deletedFilesCount,
    added_rows_count: m.addedRowsCount,
    existing_rows_count: m.existingRowsCount,
    deleted_rows_count: m.deletedRowsCount,
    partitions: m.partitions.map((s) => ({
      contains_null: s.containsNull,
      contains_nan: s.containsNan,
      lower_bound: s.lowerBound ? Buffer.from(s.lowerBound) : null,
      upper_bound: s.upperBound ? Buffer.from(s.upperBound) : null,
    })),
    key_metadata: m.keyMetadata ? Buffer.from(m.keyMetadata) : null,
    first_row_id: m.firstRowId ?? null,
  };
}
