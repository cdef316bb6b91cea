/**
 * The manifest-list entry, manifest entry and content file model (spec "Manifests", "Manifest
 * Lists"; Java `ManifestFile`, `ManifestEntry`, `ContentFile`). Pure data: planner/manifests
 * decodes Avro into these shapes with inheritance already applied. 64-bit values are bigints.
 */
import type { LiteralValue } from './literals/index.js';

/** Manifest content (field 517): 0 data, 1 deletes. v1 lists have none, so everything is data. */
export type ManifestContent = 0 | 1;
export const MANIFEST_CONTENT_DATA = 0;
export const MANIFEST_CONTENT_DELETES = 1;

/** Field summary of one partition field (508): bounds are Appendix D bytes of the partition result type. */
export interface PartitionFieldSummary {
  readonly containsNull: boolean;
  readonly containsNan?: boolean;
  readonly lowerBound?: Uint8Array;
  readonly upperBound?: Uint8Array;
}

/** One manifest-list entry (`manifest_file`). Counts are undefined when written as null (v1). */
export interface ManifestFile {
  readonly path: string;
  readonly length: bigint;
  readonly specId: number;
  readonly content: ManifestContent;
  /** 0 in v1 lists. */
  readonly sequenceNumber: bigint;
  readonly minSequenceNumber: bigint;
  readonly addedSnapshotId: bigint;
  readonly addedFilesCount?: number;
  readonly existingFilesCount?: number;
  readonly deletedFilesCount?: number;
  readonly addedRowsCount?: bigint;
  readonly existingRowsCount?: bigint;
  readonly deletedRowsCount?: bigint;
  readonly partitions?: readonly PartitionFieldSummary[];
  readonly keyMetadata?: Uint8Array;
  /** v3 row lineage: first row id assigned to the manifest's added data files. */
  readonly firstRowId?: bigint;
}

/** Content file kind (field 134): 0 data, 1 position deletes, 2 equality deletes. */
export type FileContent = 0 | 1 | 2;
export const FILE_CONTENT_DATA = 0;
export const FILE_CONTENT_POSITION_DELETES = 1;
export const FILE_CONTENT_EQUALITY_DELETES = 2;

/** A data or delete file (`data_file`, struct 2). */
export interface ContentFile {
  readonly content: FileContent;
  readonly filePath: string;
  /** Upper-case as stored: PARQUET, AVRO, ORC, PUFFIN. */
  readonly fileFormat: string;
  /** The partition spec id of the manifest the file was read from. */
  readonly specId: number;
  /**
   * Partition tuple in partition-spec field order, each value in the literal representation
   * (literals/value.ts) of the partition field's result type; null when unset or absent.
   */
  readonly partition: ReadonlyArray<LiteralValue | null>;
  readonly recordCount: bigint;
  readonly fileSizeInBytes: bigint;
  readonly columnSizes?: ReadonlyMap<number, bigint>;
  readonly valueCounts?: ReadonlyMap<number, bigint>;
  readonly nullValueCounts?: ReadonlyMap<number, bigint>;
  readonly nanValueCounts?: ReadonlyMap<number, bigint>;
  /** Appendix D bytes of the column type, keyed by field id. */
  readonly lowerBounds?: ReadonlyMap<number, Uint8Array>;
  readonly upperBounds?: ReadonlyMap<number, Uint8Array>;
  readonly keyMetadata?: Uint8Array;
  readonly splitOffsets?: readonly bigint[];
  readonly equalityIds?: readonly number[];
  readonly sortOrderId?: number;
  /** v3 row lineage, inherited from the manifest when null (spec "First Row ID Inheritance"). */
  readonly firstRowId?: bigint;
  /** Position deletes / deletion vectors: the one data file they apply to. */
  readonly referencedDataFile?: string;
  /** Deletion vectors: blob offset and length inside the Puffin file. */
  readonly contentOffset?: bigint;
  readonly contentSizeInBytes?: bigint;
}

/** Manifest entry status (field 0). */
export type EntryStatus = 0 | 1 | 2;
export const ENTRY_STATUS_EXISTING = 0;
export const ENTRY_STATUS_ADDED = 1;
export const ENTRY_STATUS_DELETED = 2;

/** One manifest entry (`manifest_entry`) after inheritance (spec "Sequence Number Inheritance"). */
export interface ManifestEntry {
  readonly status: EntryStatus;
  readonly snapshotId: bigint;
  readonly dataSequenceNumber: bigint;
  readonly fileSequenceNumber: bigint | undefined;
  readonly file: ContentFile;
  /** The entry's ordinal in its manifest (0-based, file order, DELETED entries included). */
  readonly position: number;
  readonly manifestPath: string;
}

/** Entries a scan may use: status is not DELETED (spec "Scan Planning"). */
export function isLiveEntry(entry: ManifestEntry): boolean {
  return entry.status !== ENTRY_STATUS_DELETED;
}

/** Manifest-list pruning (Java `ManifestGroup`): a manifest may hold live files unless both counts are 0. */
export function mayHaveLiveFiles(manifest: ManifestFile): boolean {
  return manifest.addedFilesCount !== 0 || manifest.existingFilesCount !== 0;
}
