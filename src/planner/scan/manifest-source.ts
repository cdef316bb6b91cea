/**
 * How a scan gets manifest lists and manifest entries. The default reads them through the
 * table's FileIO; a caching, coalescing source (service layer) can stand in for it.
 */
import type { FileIO } from '../../storage/index.js';
import type { ManifestEntry, ManifestFile, PartitionSpec, Schema, Snapshot, TableMetadata } from '../../iceberg/index.js';
import { readInlineManifests, readManifest, readManifestList, type EntryRange, type ManifestIndex, type PooledMetrics } from '../manifests/index.js';

export interface EntriesRequest {
  readonly specsById: ReadonlyMap<number, PartitionSpec>;
  readonly schema: Schema;
  /** Keep column stats only for these field ids; all when absent. */
  readonly statsFieldIds?: ReadonlySet<number>;
  /**
   * Keep every column's stats whatever `statsFieldIds` says: a slice any scan of the manifest can
   * use, whatever its filter (pooled in `metrics` where the manifest's layout allows).
   */
  readonly allMetrics?: boolean;
  /** Only these entries (by ordinal); the whole manifest when absent. */
  readonly range?: EntryRange;
  /** Known blocks of the manifest, so a range read starts at the right block. */
  readonly index?: ManifestIndex;
}

export interface ManifestSlice {
  /** Entries in file order, DELETED ones included, inheritance applied. */
  readonly entries: readonly ManifestEntry[];
  /** The blocks the read walked: offsets, entry ordinals and row ids, for later range reads. */
  readonly index: ManifestIndex;
  /** Every column's stats of `entries`, by entry ordinal in the slice, when pooled (the entries then carry none). */
  readonly metrics?: PooledMetrics;
}

export interface ManifestSource {
  /** The manifests of a snapshot: its manifest list, or a v1 snapshot's inline `manifests`. */
  manifests(snapshot: Snapshot): Promise<readonly ManifestFile[]>;
  /** Entries of a manifest (or of a range of it). */
  read(manifest: ManifestFile, request: EntriesRequest): Promise<ManifestSlice>;
}

export function fileManifestSource(io: FileIO, metadata: TableMetadata): ManifestSource {
  return {
    async manifests(snapshot) {
      if (snapshot.manifestList !== undefined) {
        return readManifestList(io, snapshot.manifestList, {
          formatVersion: metadata.formatVersion,
          snapshotId: snapshot.snapshotId,
        });
      }
      // spec "Snapshots": v1 snapshots may list manifests inline instead of a manifest list
      return readInlineManifests(io, snapshot.manifests ?? [], { snapshotId: snapshot.snapshotId });
    },
    async read(manifest, request) {
      const { entries, index, metrics } = await readManifest(io, manifest, request);
      return metrics ? { entries, index, metrics } : { entries, index };
    },
  };
}
