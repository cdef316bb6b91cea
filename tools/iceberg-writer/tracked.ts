/**
 * What the table builder remembers about every file it committed: the manifest record plus the
 * snapshot and sequence numbers it was added with, and (for files written from rows) the rows
 * themselves, so expected results can be computed without reading anything back.
 */
import type { ContentFile, ManifestEntry, ManifestFile, Row } from './model.js';

export interface TrackedFile {
  readonly file: ContentFile;
  readonly snapshotId: bigint;
  readonly dataSequenceNumber: bigint;
  readonly fileSequenceNumber: bigint;
  /** Data files written from rows: the rows in file order. */
  readonly rows?: readonly Row[];
  /** Position deletes (Parquet or DV): data file path → deleted positions. */
  readonly positions?: ReadonlyMap<string, readonly bigint[]>;
  /** Equality deletes: the column names compared and the delete rows. */
  readonly equality?: { readonly columns: readonly string[]; readonly rows: readonly Row[] };
  /** v3 data files: the first row id, explicit or inherited from the manifest. */
  firstRowId?: bigint;
}

/** A manifest of the current snapshot with the files it lists, in entry order. */
export interface TrackedManifest {
  readonly manifest: ManifestFile;
  /** Entry status and file key (`fileKey`) of each entry. */
  readonly entries: ReadonlyArray<{ readonly status: ManifestEntry['status']; readonly key: string }>;
}
