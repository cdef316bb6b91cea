/**
 * The caches of in-process planning, sized from one byte budget (`planning.cache-bytes`, or a
 * planning worker's share of it): 45% decoded manifest slices, 5% manifest lists, 10% delete
 * indexes. The other 40% the main thread keeps: upstream plans being paged (10%), /plan and
 * /tasks answers kept whole (20%: a repeated scan of 100,000 files is 31 MiB of answers), and
 * the bytes of the planning workers' reads from remote storage (10%, remote-bytes.ts: the
 * 100,000-file bench table's 100 manifests are 13 MB).
 */
import { createComputeCache, type ComputeCache } from '../../cache/index.js';
import type { ManifestFile } from '../../iceberg/index.js';
import type { CacheMetrics, MetricCounter, Tracing } from '../../observability/index.js';
import type { DeleteFileIndex, ManifestSlice } from '../../planner/index.js';
import { manifestListBytes, sliceBytes, type ManifestCaches } from './caching-source.js';

/** The share of the whole budget the main thread keeps for remote files' bytes (worker-pool.ts). */
export const REMOTE_FILES_SHARE = 0.1;

export interface PlanningCaches {
  readonly manifestCaches: ManifestCaches;
  readonly deleteIndexCache: ComputeCache<DeleteFileIndex>;
}

export function createPlanningCaches(
  budget: number,
  metrics: { readonly cache: CacheMetrics; readonly manifestReadsCoalesced: MetricCounter },
  /** Spans for gets that wait on another's read (on the main thread only: workers record none). */
  tracing?: Tracing,
  /** How many caches split a snapshot's data manifests between them (planning workers), of which this is one. */
  shares = 1,
): PlanningCaches {
  const traced = tracing ? { tracing } : {};
  const manifestMetrics: CacheMetrics = {
    ...metrics.cache,
    coalesced: (cache) => {
      metrics.cache.coalesced(cache);
      metrics.manifestReadsCoalesced.inc();
    },
  };
  const slices = createComputeCache<ManifestSlice>({ name: 'manifests', maxBytes: Math.floor(budget * 0.45), sizeOf: sliceBytes, metrics: manifestMetrics, ...traced });
  const lists = createComputeCache<readonly ManifestFile[]>({ name: 'manifest-lists', maxBytes: Math.floor(budget * 0.05), sizeOf: manifestListBytes, metrics: metrics.cache, ...traced });
  const deleteIndexCache = createComputeCache<DeleteFileIndex>({
    name: 'delete-index',
    maxBytes: Math.floor(budget * 0.1),
    sizeOf: (index) => 1024 + index.size * 1024,
    metrics: metrics.cache,
    ...traced,
  });
  return { manifestCaches: { slices, lists, shares }, deleteIndexCache };
}
