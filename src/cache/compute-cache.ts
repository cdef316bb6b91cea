import { LRUCache } from 'lru-cache';
import { fail } from '../errors/index.js';
import type { CacheMetrics, Tracing } from '../observability/index.js';
import { Flights, type FlightOptions } from './flights.js';

export interface ComputeCacheOptions<V> {
  /** Upper bound on the sum of stored values' sizes; 0 stores nothing but still coalesces. */
  readonly maxBytes: number;
  /** A value's size in bytes (rounded up; anything under 1 counts as 1). */
  readonly sizeOf: (value: V) => number;
  /** Names the cache in metrics; unique per metrics instance. */
  readonly name: string;
  readonly metrics?: CacheMetrics;
  /** A span for each get that waits on another's computation (a coalesced get). */
  readonly tracing?: Tracing;
  /**
   * A stored value not read for this long is dropped (expire after access, as Iceberg Java's
   * CachingCatalog and manifest cache do); absent or 0: kept until the bound pushes it out. Idle
   * values are swept by the cache's own gets and stores, at most every quarter of this.
   */
  readonly idleMs?: number;
  /** The clock idleness is measured on (milliseconds); tests set it. */
  readonly now?: () => number;
}

/**
 * A byte-bounded LRU of computed values with single-flight coalescing. Keys must name every
 * input the value depends on; the cache knows nothing about what it holds.
 */
export interface ComputeCache<V> {
  /**
   * The stored value for `key`; else joins the computation in flight for `key`; else runs
   * `compute` once and stores its value if it fits. A failure reaches every joined caller and
   * is never stored. `signal` abandons only this caller's wait.
   */
  get(key: string, compute: () => Promise<V>, options?: ComputeOptions): Promise<V>;
  /** The stored value without computing or refreshing its recency. */
  peek(key: string): V | undefined;
  /** Drops the stored value, and detaches a running computation so its result is not stored. */
  delete(key: string): void;
  /** `delete` for every key. */
  clear(): void;
  /** Sum of the stored values' sizes. */
  readonly bytes: number;
  /** The bound on `bytes`. */
  readonly maxBytes: number;
  /** Computations running now. */
  readonly inFlight: number;
}

export interface ComputeOptions extends FlightOptions {
  /** False: coalesce and serve a stored value, but do not store this computation's (default true). */
  readonly store?: boolean;
}

interface Entry<V> {
  readonly value: V;
  readonly size: number;
}

export function createComputeCache<V>(options: ComputeCacheOptions<V>): ComputeCache<V> {
  const { maxBytes, sizeOf, name, metrics, tracing, idleMs = 0, now = () => performance.now() } = options;
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 0) {
    throw fail('INTERNAL', `cache ${name}: maxBytes must be a non-negative integer, got ${maxBytes}`);
  }
  if (!Number.isSafeInteger(idleMs) || idleMs < 0) {
    throw fail('INTERNAL', `cache ${name}: idleMs must be a non-negative integer, got ${idleMs}`);
  }
  const store =
    maxBytes === 0
      ? undefined
      : new LRUCache<string, Entry<V>>({
          maxSize: maxBytes,
          sizeCalculation: (entry) => entry.size,
          dispose: (_entry, _key, reason) => {
            if (reason === 'evict') metrics?.evicted(name);
          },
          ...(idleMs > 0 && { ttl: idleMs, ttlResolution: 0, updateAgeOnGet: true, perf: { now } }),
        });
  const flights = new Flights<Entry<V>>({ name, metrics });
  const reportBytes = (): void => metrics?.bytes(name, store?.calculatedSize ?? 0);
  // lru-cache drops an idle value only when it is looked up: the rest are swept here
  const sweepEveryMs = Math.max(1, Math.floor(idleMs / 4));
  let sweptAt = now();
  const sweep = (): void => {
    if (store === undefined || idleMs === 0 || now() - sweptAt < sweepEveryMs) return;
    sweptAt = now();
    if (store.purgeStale()) reportBytes();
  };
  metrics?.budget?.(name, maxBytes);
  reportBytes();

  const sized = async (compute: () => Promise<V>): Promise<Entry<V>> => {
    const value = await compute();
    return { value, size: store === undefined ? 0 : entrySize(name, sizeOf(value)) };
  };
  const keep = (key: string) => (entry: Entry<V>) => {
    if (store === undefined) return;
    // lru-cache drops an entry larger than maxSize instead of storing it (maxEntrySize defaults to maxSize).
    store.set(key, entry);
    sweep();
    reportBytes();
  };

  return {
    get(key, compute, getOptions) {
      if (getOptions?.signal?.aborted) return Promise.reject(getOptions.signal.reason);
      sweep();
      const hit = store?.get(key);
      if (hit !== undefined) {
        metrics?.hit(name);
        return Promise.resolve(hit.value);
      }
      const run = () =>
        getOptions?.store === false
          ? flights.run(key, () => compute().then((value) => ({ value, size: 0 })), getOptions).then((entry) => entry.value)
          : flights.run(key, () => sized(compute), getOptions, keep(key)).then((entry) => entry.value);
      if (tracing?.enabled && flights.has(key)) return tracing.span('cache wait', { 'icefront.cache': name }, run);
      return run();
    },
    peek: (key) => store?.peek(key)?.value,
    delete(key) {
      flights.forget(key);
      store?.delete(key);
      reportBytes();
    },
    clear() {
      flights.forgetAll();
      store?.clear();
      reportBytes();
    },
    get bytes() {
      return store?.calculatedSize ?? 0;
    },
    maxBytes,
    get inFlight() {
      return flights.running;
    },
  };
}

/** A positive whole number of bytes, as lru-cache requires. */
function entrySize(name: string, size: number): number {
  if (!Number.isFinite(size) || size < 0) {
    throw fail('INTERNAL', `cache ${name}: sizeOf returned ${size}, expected a non-negative number of bytes`);
  }
  return Math.max(1, Math.ceil(size));
}
