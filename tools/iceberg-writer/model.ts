/**
 * The records the writer produces and consumes: content files (data and delete files),
 * manifest entries and manifest-list entries, shaped after the spec's "Manifests" and
 * "Manifest Lists" sections. 64-bit quantities are bigint throughout.
 */
export type FormatVersion = 1 | 2 | 3;
export type AvroCodec = 'null' | 'deflate' | 'snappy';
export type FileFormat = 'PARQUET' | 'AVRO' | 'ORC' | 'PUFFIN';

// spec "Manifests": data_file.content 0 data, 1 position deletes, 2 equality deletes
export const DATA = 0;
export const POSITION_DELETES = 1;
export const EQUALITY_DELETES = 2;
export type FileContent = typeof DATA | typeof POSITION_DELETES | typeof EQUALITY_DELETES;

// spec "Manifests": manifest_entry.status 0 EXISTING, 1 ADDED, 2 DELETED
export const EXISTING = 0;
export const ADDED = 1;
export const DELETED = 2;
export type EntryStatus = typeof EXISTING | typeof ADDED | typeof DELETED;

/** A table row: top-level column name → internal value (src/iceberg/literals/value.ts). */
export type Row = Readonly<Record<string, unknown>>;

/** A data file or delete file as a manifest entry records it. */
export interface ContentFile {
  readonly content: FileContent;
  readonly filePath: string;
  readonly fileFormat: FileFormat;
  readonly specId: number;
  /** One internal value (or null) per partition field, in spec order. */
  readonly partition: readonly unknown[];
  readonly recordCount: bigint;
  readonly fileSizeInBytes: bigint;
  readonly columnSizes?: ReadonlyMap<number, bigint>;
  readonly valueCounts?: ReadonlyMap<number, bigint>;
  readonly nullValueCounts?: ReadonlyMap<number, bigint>;
  readonly nanValueCounts?: ReadonlyMap<number, bigint>;
  /** Appendix D single-value bytes. */
  readonly lowerBounds?: ReadonlyMap<number, Uint8Array>;
  readonly upperBounds?: ReadonlyMap<number, Uint8Array>;
  readonly keyMetadata?: Uint8Array;
  readonly splitOffsets?: readonly bigint[];
  readonly equalityIds?: readonly number[];
  readonly sortOrderId?: number;
  /** v3: explicit first row id (ADDED data files leave it unset and inherit it). */
  readonly firstRowId?: bigint;
  readonly referencedDataFile?: string;
  /** v3 deletion vectors: where the blob sits inside the Puffin file. */
  readonly contentOffset?: bigint;
  readonly contentSizeInBytes?: bigint;
}

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
