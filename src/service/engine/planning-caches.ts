/**
 * The caches of in-process planning, sized from one byte budget (`planning.cache-bytes`, or a
 * planning worker's share of it): 45% decoded manifest slices, 5% manifest lists, 20% delete
 * indexes. The other 30% the main thread keeps: upstream plans being paged (10%) and /plan and
 * /tasks answers kept whole (20%: a repeated scan of 100,000 files is 31 MiB of answers).
 */
import { createComputeCache, type ComputeCache } from '../../cache/index.js';
import type { ManifestFile } from '../../iceberg/index.js';
import type { CacheMetrics, MetricCounter, Tracing } from '../../observability/index.js';
import type { DeleteFileIndex, ManifestSlice } from '../../planner/index.js';
import { manifestListBytes, sliceBytes, type ManifestCaches } from './caching-source.js';

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
    maxBytes: Math.floor(budget * 0.2),
    sizeOf: (index) => 1024 + index.size * 1024,
    metrics: metrics.cache,
    ...traced,
  });
  return { manifestCaches: { slices, lists, shares }, deleteIndexCache };
}
