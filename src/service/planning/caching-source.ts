/**
 * A ManifestSource that decodes each manifest slice once: concurrent requests for the same slice
 * share one read (coalescing), finished slices live in a byte-bounded LRU. Keys name every input
 * a slice depends on; nothing here depends on a caller's credentials.
 */
import type { ComputeCache } from '../../cache/index.js';
import type { ManifestFile } from '../../iceberg/index.js';
import type { ManifestSlice, ManifestSource } from '../../planner/index.js';
import type { Metrics } from '../../observability/index.js';

export function cachingManifestSource(
  base: ManifestSource,
  cache: ComputeCache<ManifestSlice>,
  tableKey: string,
  metrics?: Metrics,
): ManifestSource {
  return {
    manifests: (snapshot) => base.manifests(snapshot),
    read(manifest, request) {
      const key = JSON.stringify([
        tableKey,
        ...manifestIdentity(manifest),
        request.schema.schemaId,
        [...request.specsById.keys()],
        request.statsFieldIds ? [...request.statsFieldIds].sort((a, b) => a - b) : 'all',
        request.range ? [request.range.start, request.range.end] : 'whole',
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

/** Rough retained size of a slice: the cache bound is about memory, so over-estimate. */
export function sliceBytes(slice: ManifestSlice): number {
  let bytes = 256 + slice.index.blocks.length * 64;
  for (const e of slice.entries) {
    const f = e.file;
    bytes += 400 + f.filePath.length * 2 + e.manifestPath.length * 0;
    bytes += 48 * ((f.columnSizes?.size ?? 0) + (f.valueCounts?.size ?? 0) + (f.nullValueCounts?.size ?? 0) + (f.nanValueCounts?.size ?? 0));
    for (const m of [f.lowerBounds, f.upperBounds]) if (m) for (const v of m.values()) bytes += 48 + v.byteLength;
  }
  return bytes;
}
