/**
 * How a scan gets manifest lists and manifest entries. The default reads them through the
 * table's FileIO; a caching, coalescing source (a later layer) can stand in for it.
 */
import type { FileIO } from '../../storage/index.js';
import type { ManifestEntry, ManifestFile, PartitionSpec, Schema, Snapshot, TableMetadata } from '../../iceberg/index.js';
import { readInlineManifests, readManifest, readManifestList } from '../manifests/index.js';

export interface EntriesRequest {
  readonly specsById: ReadonlyMap<number, PartitionSpec>;
  readonly schema: Schema;
  /** Keep column stats only for these field ids; all when absent. */
  readonly statsFieldIds?: ReadonlySet<number>;
}

export interface ManifestSource {
  /** The manifests of a snapshot: its manifest list, or a v1 snapshot's inline `manifests`. */
  manifests(snapshot: Snapshot): Promise<readonly ManifestFile[]>;
  /** Every entry of a manifest (DELETED ones included), inheritance applied, in file order. */
  entries(manifest: ManifestFile, request: EntriesRequest): Promise<readonly ManifestEntry[]>;
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
    async entries(manifest, request) {
      const result = await readManifest(io, manifest, request);
      return result.entries;
    },
  };
}
