/**
 * A ManifestSource that decodes each manifest slice once: concurrent requests for the same slice
 * share one read (coalescing), finished slices live in a byte-bounded LRU. Keys name every input
 * a slice depends on; nothing here depends on a caller's credentials.
 */
import type { ComputeCache } from '../../cache/index.js';
import type { ManifestFile } from '../../iceberg/index.js';
import { metricMapBytes, type ManifestSlice, type ManifestSource } from '../../planner/index.js';
import type { Metrics } from '../../observability/index.js';

export interface ManifestCaches {
  readonly slices: ComputeCache<ManifestSlice>;
  readonly lists: ComputeCache<readonly ManifestFile[]>;
}

export function cachingManifestSource(base: ManifestSource, caches: ManifestCaches, tableKey: string, metrics?: Pick<Metrics, 'manifestReads'>): ManifestSource {
  const cache = caches.slices;
  return {
    manifests: (snapshot) =>
      caches.lists.get(JSON.stringify([tableKey, String(snapshot.snapshotId), snapshot.manifestList ?? snapshot.manifests ?? []]), () =>
        base.manifests(snapshot),
      ),
    read(manifest, request) {
      const key = JSON.stringify([
        tableKey,
        ...manifestIdentity(manifest),
        request.schema.schemaId,
        [...request.specsById.keys()],
        request.statsFieldIds ? [...request.statsFieldIds].sort((a, b) => a - b) : 'all',
        request.range ? [request.range.start, request.range.end] : 'whole',
        // A block hint comes from a plan-task string: a different (or forged) hint never shares an entry.
        request.index ? request.index.blocks.map((b) => [b.offset, b.byteLength, b.firstEntry, String(b.nextRowId ?? '')]) : 'no-hint',
      ]);
      return cache.get(key, () => {
        metrics?.manifestReads.inc();
        return base.read(manifest, request);
      });
    },
  };
}

/** What a manifest's entries inherit from its list entry (spec "Sequence Number Inheritance"). */
function manifestIdentity(m: ManifestFile): string[] {
  return [m.path, String(m.length), String(m.specId), String(m.sequenceNumber), String(m.addedSnapshotId), String(m.firstRowId ?? '')];
}

/** Rough retained size of a manifest list. */
export function manifestListBytes(list: readonly ManifestFile[]): number {
  let bytes = 256;
  for (const m of list) bytes += 300 + m.path.length * 2 + (m.partitions?.length ?? 0) * 96;
  return bytes;
}

/** Rough retained size of a slice: the cache bound is about memory, so over-estimate. */
export function sliceBytes(slice: ManifestSlice): number {
  let bytes = 256 + slice.index.blocks.length * 64;
  for (const e of slice.entries) {
    const f = e.file;
    bytes += 400 + f.filePath.length * 2 + e.manifestPath.length * 0;
    // metric maps may still be raw bytes (decoded on first read): sized without decoding them
    for (const m of [f.columnSizes, f.valueCounts, f.nullValueCounts, f.nanValueCounts, f.lowerBounds, f.upperBounds]) bytes += metricMapBytes(m);
  }
  return bytes;
}
