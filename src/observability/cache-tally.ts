import type { CacheMetrics } from './metrics.js';

/** One cache as the status page shows it: totals since start, and current gauges. */
export interface CacheSnapshot {
  readonly name: string;
  readonly hits: number;
  readonly misses: number;
  readonly coalesced: number;
  readonly evictions: number;
  readonly bytes: number;
  /** Its byte bound (summed over planning workers); undefined until it was reported. */
  readonly budget?: number;
  readonly inFlight: number;
}

type Counts = { -readonly [K in keyof CacheSnapshot]: CacheSnapshot[K] };

/**
 * Keeps what the caches report (their CacheMetrics calls, the planning workers' reports
 * included) as plain numbers for the status page, passing every call on to `inner` (Prometheus).
 */
export class CacheTally {
  readonly #caches = new Map<string, Counts>();

  #of(name: string): Counts {
    let c = this.#caches.get(name);
    if (!c) this.#caches.set(name, (c = { name, hits: 0, misses: 0, coalesced: 0, evictions: 0, bytes: 0, inFlight: 0 }));
    return c;
  }

  /** CacheMetrics that count here, then call `inner`. */
  tee(inner: CacheMetrics): CacheMetrics {
    return {
      hit: (name) => (this.#of(name).hits++, inner.hit(name)),
      miss: (name) => (this.#of(name).misses++, inner.miss(name)),
      coalesced: (name) => (this.#of(name).coalesced++, inner.coalesced(name)),
      evicted: (name) => (this.#of(name).evictions++, inner.evicted(name)),
      bytes: (name, bytes) => ((this.#of(name).bytes = bytes), inner.bytes(name, bytes)),
      inFlight: (name, count) => ((this.#of(name).inFlight = count), inner.inFlight(name, count)),
      budget: (name, bytes) => ((this.#of(name).budget = bytes), inner.budget?.(name, bytes)),
    };
  }

  snapshot(): CacheSnapshot[] {
    return [...this.#caches.values()].map((c) => ({ ...c })).sort((a, b) => a.name.localeCompare(b.name));
  }
}
