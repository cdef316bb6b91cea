/**
 * The live manifest entries of a table's current snapshot, walked with the planner's manifest
 * readers but none of its pruning or delete matching: every manifest of the manifest list (or a
 * v1 snapshot's inline list), every entry whose status is not DELETED (spec "Scan Planning"),
 * all column stats kept.
 */
import {
  currentSchema,
  currentSnapshot,
  isLiveEntry,
  type ManifestEntry,
  type ManifestFile,
  type Snapshot,
} from '../../../src/iceberg/index.js';
import { readInlineManifests, readManifest, readManifestList } from '../../../src/planner/manifests/index.js';
import type { ReadableTable } from './table-rows.js';

export interface LiveEntries {
  readonly snapshot: Snapshot | undefined;
  /** The snapshot's manifests, in manifest-list order (repeats included). */
  readonly manifests: readonly ManifestFile[];
  readonly data: ManifestEntry[];
  readonly deletes: ManifestEntry[];
}

export async function liveEntries(table: ReadableTable): Promise<LiveEntries> {
  const { metadata, io } = table;
  const snapshot = currentSnapshot(metadata);
  if (!snapshot) return { snapshot, manifests: [], data: [], deletes: [] };
  const manifests =
    snapshot.manifestList !== undefined
      ? await readManifestList(io, snapshot.manifestList, { formatVersion: metadata.formatVersion, snapshotId: snapshot.snapshotId })
      : await readInlineManifests(io, snapshot.manifests ?? [], { snapshotId: snapshot.snapshotId });
  const specsById = new Map(metadata.partitionSpecs.map((s) => [s.specId, s] as const));
  const schema = currentSchema(metadata);
  const data: ManifestEntry[] = [];
  const deletes: ManifestEntry[] = [];
  // a manifest list may name one manifest many times (meta_perf/manifest_files): its entries are
  // live once, so each manifest path is read at its first listing only
  const read = new Set<string>();
  for (const manifest of manifests) {
    if (read.has(manifest.path)) continue;
    read.add(manifest.path);
    for (const entry of (await readManifest(io, manifest, { specsById, schema })).entries) {
      if (!isLiveEntry(entry)) continue;
      (entry.file.content === 0 ? data : deletes).push(entry);
    }
  }
  return { snapshot, manifests, data, deletes };
}
