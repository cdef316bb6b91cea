/**
 * The records the writer produces and consumes: content files (data and delete files),
 * manifest entries and manifest-list entries, shaped after the spec's "Manifests" and
 * "Manifest Lists" sections. 64-bit quantities are bigint throughout.
 */
import {
  ENTRY_STATUS_ADDED,
  ENTRY_STATUS_DELETED,
  ENTRY_STATUS_EXISTING,
  FILE_CONTENT_DATA,
  FILE_CONTENT_EQUALITY_DELETES,
  FILE_CONTENT_POSITION_DELETES,
  type ContentFile as IcebergContentFile,
  type EntryStatus,
  type FileContent,
} from '../../src/iceberg/index.js';

export type FormatVersion = 1 | 2 | 3;
export type AvroCodec = 'null' | 'deflate' | 'snappy';
export type FileFormat = 'PARQUET' | 'AVRO' | 'ORC' | 'PUFFIN';

// spec "Manifests": data_file.content 0 data, 1 position deletes, 2 equality deletes
export const DATA = FILE_CONTENT_DATA;
export const POSITION_DELETES = FILE_CONTENT_POSITION_DELETES;
export const EQUALITY_DELETES = FILE_CONTENT_EQUALITY_DELETES;

// spec "Manifests": manifest_entry.status 0 EXISTING, 1 ADDED, 2 DELETED
export const EXISTING = ENTRY_STATUS_EXISTING;
export const ADDED = ENTRY_STATUS_ADDED;
export const DELETED = ENTRY_STATUS_DELETED;
export type { EntryStatus, FileContent };

/** A table row: top-level column name → internal value (src/iceberg/literals/value.ts). */
export type Row = Readonly<Record<string, unknown>>;

/** A data file or delete file as a manifest entry records it: the project's own model. */
export type ContentFile = IcebergContentFile;

/** One row of a manifest. Null sequence numbers are inherited (allowed for ADDED entries only). */
export interface ManifestEntry {
  readonly status: EntryStatus;
  readonly snapshotId: bigint | null;
  readonly sequenceNumber: bigint | null;
  readonly fileSequenceNumber: bigint | null;
  readonly file: ContentFile;
}

/** spec "Manifest Lists": field_summary (508). */
export interface FieldSummary {
  readonly containsNull: boolean;
  readonly containsNan: boolean | null;
  readonly lowerBound: Uint8Array | null;
  readonly upperBound: Uint8Array | null;
}

/** One row of a manifest list. */
export interface ManifestFile {
  readonly path: string;
  readonly length: bigint;
  readonly specId: number;
  /** 0 data, 1 deletes. */
  readonly content: 0 | 1;
  readonly sequenceNumber: bigint;
  readonly minSequenceNumber: bigint;
  readonly addedSnapshotId: bigint;
  readonly addedFilesCount: number;
  readonly existingFilesCount: number;
  readonly deletedFilesCount: number;
  readonly addedRowsCount: bigint;
  readonly existingRowsCount: bigint;
  readonly deletedRowsCount: bigint;
  readonly partitions: readonly FieldSummary[];
  readonly keyMetadata?: Uint8Array;
  /** v3 data manifests: first row id assigned to the manifest's ADDED/EXISTING rows. */
  readonly firstRowId?: bigint | null;
}

/** Where the writer puts bytes: a path relative to the table root. */
export interface TableSink {
  write(relativePath: string, bytes: Uint8Array): void;
}
