/**
 * What the status page (http/ui/) shows of recent work, kept cheaply on the request path: a ring
 * of the last plans, a ring of upstream errors, the last contact with each upstream, requests per
 * route per minute (request-series.ts) and what the caches report (cache-tally.ts). One Activity
 * per Icefront instance, made by its composition root and handed to those who record (never
 * process-wide: tests and replicas each count alone). It holds names, numbers and error codes
 * only: its callers never hand it a header, a token or a plan-task string.
 */
import { CacheTally, type CacheSnapshot } from './cache-tally.js';
import type { CacheMetrics, Metrics } from './metrics.js';
import { RequestSeries, type RouteSeries } from './request-series.js';

/** One scan plan Icefront answered (or refused), as the status page lists it. */
export interface PlanRecord {
  /** When it was answered, epoch ms. */
  readonly at: number;
  readonly catalog: string;
  readonly namespace: readonly string[];
  readonly table: string;
  readonly status: number;
  readonly durationMs: number;
  /** The principal's name (with authentication on); never its credential. */
  readonly principal?: string;
  readonly snapshotId?: string;
  readonly manifestsRead?: number;
  readonly manifestsSkipped?: number;
  readonly filesKept?: number;
  readonly filesPruned?: number;
  readonly deletesAttached?: number;
  /** File scan tasks of the whole plan, and plan tasks handed out for them. */
  readonly tasks?: number;
  readonly planTasks?: number;
  readonly responseBytes?: number;
  /** Who planned: Icefront's planner, or the upstream's (`upstream-paged`, pass-through). */
  readonly plannedBy?: 'icefront' | 'upstream';
  /** A refused plan: the error type and message the client was answered with. */
  readonly reason?: string;
}

/** Tells the recorder about every exchange with an upstream (catalogs/rest, the pass-through). */
export interface UpstreamObserver {
  /** The upstream answered `what` (method and route or path, no query) with `status`. */
  answered(catalog: string, what: string, ms: number, status: number): void;
  /** No answer: `code` is Icefront's error code, `message` its text (which names no credential). */
  failed(catalog: string, what: string, ms: number, code: string, message: string): void;
}

export interface UpstreamContact {
  readonly at: number;
  readonly what: string;
  readonly ms: number;
  /** The upstream's status; undefined when it did not answer. */
  readonly status: number | undefined;
  /** Answered below 500. */
  readonly healthy: boolean;
}

type Contact = { -readonly [K in keyof UpstreamContact]: UpstreamContact[K] };

export interface UpstreamErrorRecord {
  readonly at: number;
  readonly catalog: string;
  readonly what: string;
  readonly status?: number;
  readonly code?: string;
  readonly message: string;
}

export interface ActivitySnapshot {
  readonly now: number;
  readonly startedAt: number;
  /** Newest first. */
  readonly plans: readonly PlanRecord[];
  readonly upstreamErrors: readonly UpstreamErrorRecord[];
  readonly upstreams: ReadonlyMap<string, UpstreamContact>;
  readonly requestsInFlight: number;
  readonly routes: readonly RouteSeries[];
  readonly caches: readonly CacheSnapshot[];
}

/** A fixed ring; `push` overwrites the oldest. */
class Ring<T> {
  readonly #items: (T | undefined)[];
  #next = 0;

  constructor(capacity: number) {
    this.#items = new Array<T | undefined>(capacity).fill(undefined);
  }

  push(item: T): void {
    this.#items[this.#next] = item;
    this.#next = (this.#next + 1) % this.#items.length;
  }

  newestFirst(): T[] {
    const n = this.#items.length;
    const out: T[] = [];
    for (let i = 1; i <= n; i++) {
      const item = this.#items[(this.#next - i + n) % n];
      if (item !== undefined) out.push(item);
    }
    return out;
  }
}

export const RECENT_PLANS = 50;
export const RECENT_UPSTREAM_ERRORS = 30;

export class Activity {
  readonly #now: () => number;
  readonly #startedAt: number;
  readonly #plans = new Ring<PlanRecord>(RECENT_PLANS);
  readonly #errors = new Ring<UpstreamErrorRecord>(RECENT_UPSTREAM_ERRORS);
  /** The last contact per upstream, updated in place (no object per upstream request). */
  readonly #upstreams = new Map<string, Contact>();
  readonly #requests = new RequestSeries();
  readonly #caches = new CacheTally();
  #inFlight = 0;

  constructor(now: () => number = Date.now) {
    this.#now = now;
    this.#startedAt = now();
  }

  /** `metrics` with its cache reports also counted here (what main.ts hands the caches). */
  observeCaches(metrics: Metrics): Metrics {
    const cache: CacheMetrics = this.#caches.tee(metrics.cache);
    return { ...metrics, cache };
  }

  /** A request arrived; `requestClosed` when its response closes (a shared function, no closure per request). */
  readonly requestOpened = (): void => void this.#inFlight++;
  readonly requestClosed = (): void => void this.#inFlight--;

  /** A response was sent: `route` is the spec route template, never a raw URL. */
  request(route: string, method: string, status: number, ms: number): void {
    this.#requests.record(route, method, status, ms, this.#now());
  }

  /** A plan was answered (or refused); stamped now. */
  plan(record: Omit<PlanRecord, 'at'>): void {
    this.#plans.push({ at: this.#now(), ...record });
  }

  readonly upstream: UpstreamObserver = {
    answered: (catalog, what, ms, status) => {
      const at = this.#contact(catalog, what, ms, status);
      if (status >= 500) this.#errors.push({ at, catalog, what, status, message: `status ${status}` });
    },
    failed: (catalog, what, ms, code, message) => {
      const at = this.#contact(catalog, what, ms, undefined);
      this.#errors.push({ at, catalog, what, code, message });
    },
  };

  #contact(catalog: string, what: string, ms: number, status: number | undefined): number {
    const at = this.#now();
    let c = this.#upstreams.get(catalog);
    if (!c) this.#upstreams.set(catalog, (c = { at, what, ms, status, healthy: true }));
    c.at = at;
    c.what = what;
    c.ms = ms;
    c.status = status;
    c.healthy = status !== undefined && status < 500;
    return at;
  }

  snapshot(): ActivitySnapshot {
    const now = this.#now();
    return {
      now,
      startedAt: this.#startedAt,
      plans: this.#plans.newestFirst(),
      upstreamErrors: this.#errors.newestFirst(),
      upstreams: new Map([...this.#upstreams].map(([name, c]) => [name, { ...c }])),
      requestsInFlight: this.#inFlight,
      routes: this.#requests.snapshot(now),
      caches: this.#caches.snapshot(),
    };
  }
}
