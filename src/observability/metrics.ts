import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import { LabelledHistogram } from './histogram.js';

/**
 * What a cache reports, by cache name. `cache/` calls these and never sees prom-client; the
 * Prometheus implementation is `Metrics.cache`. A get is exactly one of: hit (served from
 * storage), coalesced (joined a computation already in flight) or miss (started one).
 */
export interface CacheMetrics {
  hit(cache: string): void;
  miss(cache: string): void;
  coalesced(cache: string): void;
  /** A stored value was pushed out to make room (not deletes, clears or replacements). */
  evicted(cache: string): void;
  /** Bytes now held by the cache (the sum of its values' sizes). */
  bytes(cache: string, bytes: number): void;
  /** Computations now running. */
  inFlight(cache: string, count: number): void;
  /** The cache's byte bound, reported when it is made (a planning worker's: when its first job makes it). */
  budget?(cache: string, bytes: number): void;
}

/** A monotonic count; prom-client's unlabelled Counter satisfies it. */
export interface MetricCounter {
  inc(amount?: number): void;
}

export interface HttpRequestLabels {
  /** The configured catalog the request addressed, '' for none (never an unknown prefix: unbounded). */
  readonly catalog: string;
  /** The spec route template, e.g. `/v1/{prefix}/namespaces/{namespace}/tables/{table}/plan`; never a raw URL. */
  readonly route: string;
  readonly method: string;
  readonly status: number | string;
}

export interface Metrics {
  /** The `Content-Type` to serve `render()` with. */
  readonly contentType: string;
  /** Every metric of this instance in the Prometheus text exposition format. */
  render(): Promise<string>;
  /** Feeds `icefront_cache_*` and `icefront_inflight`, labelled by cache name. */
  readonly cache: CacheMetrics;
  /** Manifest files actually read and decoded. */
  readonly manifestReads: MetricCounter;
  /** Manifest reads that joined an identical read already in flight. */
  readonly manifestReadsCoalesced: MetricCounter;
  readonly deleteIndexBuilds: MetricCounter;
  readonly planRequests: MetricCounter;
  readonly taskRequests: MetricCounter;
  /** Plans Icefront asked an upstream for (upstream-paged catalogs), after caching and coalescing. */
  readonly upstreamPlans: MetricCounter;
  /** Data files whose column metrics contradicted themselves and were ignored for pruning. */
  readonly contradictoryMetrics: MetricCounter;
  /** A planning worker thread's V8 heap (its own isolate), as of its last finished job: bytes in use and committed. */
  planningWorkerHeap(worker: number, usedBytes: number, committedBytes: number): void;
  observeHttpRequest(labels: HttpRequestLabels, seconds: number): void;
  /**
   * One call to an upstream catalog, Icefront's own or a streamed one (until its answer's head):
   * `outcome` is the HTTP status, or the error code when there was none (UPSTREAM_TIMEOUT, …).
   */
  observeUpstreamCall(catalog: string, outcome: number | string, seconds: number): void;
}

/** How an upstream call ended, as observeUpstreamCall is told. */
export type UpstreamCallObserver = (outcome: number | string, seconds: number) => void;

/** Seconds; planning a large table can take tens of seconds, so the tail reaches a minute. */
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/**
 * A fresh set of Icefront metrics in its own prom-client Registry (never the global default,
 * so tests and several servers in one process each count alone). `process: true` adds
 * prom-client's process and Node.js metrics (resident memory, CPU, open file descriptors, the
 * main thread's heap, GC pauses, event-loop delay): they describe the whole process, so only the
 * one instance that owns it (`icefront serve`) reports them.
 */
export function createMetrics(options: { readonly process?: boolean } = {}): Metrics {
  const registry = new Registry();
  const registers = [registry];
  if (options.process) collectDefaultMetrics({ register: registry });
  const counter = (name: string, help: string): Counter => new Counter({ name, help, registers });
  const byCache = ['cache'] as const;

  const hits = new Counter({ name: 'icefront_cache_hits_total', help: 'Cache gets served from storage.', labelNames: byCache, registers });
  const misses = new Counter({ name: 'icefront_cache_misses_total', help: 'Cache gets that started a computation.', labelNames: byCache, registers });
  const coalesced = new Counter({
    name: 'icefront_cache_coalesced_total',
    help: 'Cache gets that joined a computation already in flight.',
    labelNames: byCache,
    registers,
  });
  const evictions = new Counter({
    name: 'icefront_cache_evictions_total',
    help: 'Cached values pushed out by the byte bound.',
    labelNames: byCache,
    registers,
  });
  const bytes = new Gauge({ name: 'icefront_cache_bytes', help: 'Bytes held by the cache.', labelNames: byCache, registers });
  const inFlight = new Gauge({ name: 'icefront_inflight', help: 'Computations in flight, by cache.', labelNames: byCache, registers });
  const budget = new Gauge({ name: 'icefront_cache_budget_bytes', help: 'The byte bound of the cache.', labelNames: byCache, registers });
  // the request path's two histograms, cheaper to feed than prom-client's own (histogram.ts)
  const httpDuration = new LabelledHistogram(
    'icefront_http_request_duration_seconds',
    'HTTP request duration by spec route template, method and status.',
    ['catalog', 'route', 'method', 'status'],
    HTTP_BUCKETS,
    registry,
  );
  const upstreamDuration = new LabelledHistogram(
    'icefront_upstream_request_duration_seconds',
    'Calls to upstream catalogs by catalog and outcome (HTTP status, or the error code when the call failed: UPSTREAM_TIMEOUT, UPSTREAM_UNAVAILABLE, UPSTREAM_BAD_GATEWAY); streamed calls until their answer began.',
    ['catalog', 'outcome'],
    HTTP_BUCKETS,
    registry,
  );

  // A cache's series exist (at 0) from its first report, so rate() and ratios have a baseline.
  const seen = new Set<string>();
  const touch = (cache: string): { cache: string } => {
    const labels = { cache };
    if (!seen.has(cache)) {
      seen.add(cache);
      for (const c of [hits, misses, coalesced, evictions]) c.inc(labels, 0);
    }
    return labels;
  };

  const cache: CacheMetrics = {
    hit: (name) => hits.inc(touch(name)),
    miss: (name) => misses.inc(touch(name)),
    coalesced: (name) => coalesced.inc(touch(name)),
    evicted: (name) => evictions.inc(touch(name)),
    bytes: (name, value) => bytes.set(touch(name), value),
    inFlight: (name, count) => inFlight.set(touch(name), count),
    budget: (name, bytes) => budget.set(touch(name), bytes),
  };

  const workerHeap = new Gauge({
    name: 'icefront_planning_worker_heap_bytes',
    help: "A planning worker thread's V8 heap as of its last finished job: in use (kind=used) and committed (kind=committed).",
    labelNames: ['worker', 'kind'] as const,
    registers,
  });

  return {
    contentType: registry.contentType,
    render: () => registry.metrics(),
    cache,
    manifestReads: counter('icefront_manifest_reads_total', 'Manifest files read and decoded.'),
    manifestReadsCoalesced: counter(
      'icefront_manifest_reads_coalesced_total',
      'Manifest reads that joined an identical read already in flight.',
    ),
    deleteIndexBuilds: counter('icefront_delete_index_builds_total', 'Delete-file indexes built.'),
    planRequests: counter('icefront_plan_requests_total', 'Scan planning requests (planTableScan).'),
    taskRequests: counter('icefront_task_requests_total', 'Plan-task fetch requests (fetchScanTasks).'),
    upstreamPlans: counter('icefront_upstream_plans_total', 'Scan plans Icefront asked an upstream for (upstream-paged catalogs), after caching and coalescing.'),
    contradictoryMetrics: counter(
      'icefront_contradictory_metrics_total',
      'Data files evaluated whose column metrics contradict themselves (lower > upper, nulls > values); ignored for pruning.',
    ),
    planningWorkerHeap: (worker, usedBytes, committedBytes) => {
      workerHeap.labels(String(worker), 'used').set(usedBytes);
      workerHeap.labels(String(worker), 'committed').set(committedBytes);
    },
    observeHttpRequest: (labels, seconds) => httpDuration.labels(labels.catalog, labels.route, labels.method, String(labels.status)).observe(seconds),
    observeUpstreamCall: (catalog, outcome, seconds) => upstreamDuration.labels(catalog, String(outcome)).observe(seconds),
  };
}
