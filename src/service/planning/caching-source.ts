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
  // A snapshot whose data manifests would not fit in the cache is read whole without keeping the
  // slices: an LRU smaller than a sequential scan only churns (every read of the next plan misses)
  // and holds the memory for nothing. Ranges (plan-task redemptions) are kept either way.
  let wholeFits = true;
  return {
    async manifests(snapshot) {
      const list = await caches.lists.get(JSON.stringify([tableKey, String(snapshot.snapshotId), snapshot.manifestList ?? snapshot.manifests ?? []]), () =>
        base.manifests(snapshot),
      );
      wholeFits = estimatedDataSliceBytes(list) <= cache.maxBytes;
      return list;
    },
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
      return cache.get(
        key,
        () => {
          metrics?.manifestReads.inc();
          return base.read(manifest, request);
        },
        { store: request.range !== undefined || wholeFits },
      );
    },
  };
}

/** A cached entry without its path or metric maps (see sliceBytes), and a path's usual length. */
const ENTRY_BYTES = 700;
const PATH_CHARS = 50;

/** Entries per byte of manifest file when the list does not count them (about 130 bytes an entry). */
const ENTRIES_PER_BYTE = 1 / 100;

/** What the data manifests of a list would take as cached slices (sliceBytes' lower end per entry). */
function estimatedDataSliceBytes(list: readonly ManifestFile[]): number {
  let bytes = 0;
  for (const m of list) {
    if (m.content !== 0) continue;
    const counted = m.addedFilesCount !== undefined && m.existingFilesCount !== undefined && m.deletedFilesCount !== undefined;
    const entries = counted ? m.addedFilesCount! + m.existingFilesCount! + m.deletedFilesCount! : Number(m.length) * ENTRIES_PER_BYTE;
    bytes += entries * (ENTRY_BYTES + 2 * PATH_CHARS);
  }
  return bytes;
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

/**
 * Rough retained size of a slice: the cache bound is about memory, so over-estimate. Calibrated
 * with a heap measurement (gc, then heapUsed and external before and after holding 20 slices of the
 * bench's synthetic table): 830 bytes per entry without stats, ~3,100 with 20 columns' stats.
 */
export function sliceBytes(slice: ManifestSlice): number {
  let bytes = 256 + slice.index.blocks.length * 64;
  for (const e of slice.entries) {
    const f = e.file;
    bytes += ENTRY_BYTES + f.filePath.length * 2;
    // metric maps may still be raw bytes (decoded on first read): sized without decoding them
    for (const m of [f.columnSizes, f.valueCounts, f.nullValueCounts, f.nanValueCounts, f.lowerBounds, f.upperBounds]) bytes += metricMapBytes(m);
  }
  return bytes;
}
