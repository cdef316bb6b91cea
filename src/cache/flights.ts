import type { CacheMetrics } from '../observability/index.js';

export interface FlightOptions {
  /** Gives up this caller's wait only: the computation keeps running for everyone else. */
  readonly signal?: AbortSignal;
}

/** Who the flights report to: the cache's name and its optional metrics sink. */
export interface FlightReporter {
  readonly name: string;
  readonly metrics?: CacheMetrics;
}

/**
 * Single-flight bookkeeping, after undici's deduplicate interceptor: one computation per key at
 * a time, joined by later callers; the entry goes when the promise settles (success or failure),
 * so a rejection is never reused. `forget` detaches a running flight: its waiters still get its
 * outcome, but the next caller starts afresh and the detached result is not reported as fresh.
 */
export class Flights<V> {
  readonly #byKey = new Map<string, Promise<V>>();
  readonly #reporter: FlightReporter;
  #running = 0;

  constructor(reporter: FlightReporter) {
    this.#reporter = reporter;
    reporter.metrics?.inFlight(reporter.name, 0);
  }

  /** Computations running now, detached ones included. */
  get running(): number {
    return this.#running;
  }

  /** Whether a computation for `key` is running (a `run` now would join it). */
  has(key: string): boolean {
    return this.#byKey.has(key);
  }

  /**
   * Join the flight for `key`, or start `compute` as one. `onFresh` sees a successful value
   * before any waiter resumes, and only if the flight was not forgotten meanwhile.
   */
  run(key: string, compute: () => Promise<V>, options: FlightOptions | undefined, onFresh?: (value: V) => void): Promise<V> {
    if (options?.signal?.aborted) return Promise.reject(options.signal.reason);
    const { name, metrics } = this.#reporter;
    const joined = this.#byKey.get(key);
    if (joined !== undefined) {
      metrics?.coalesced(name);
      return waitFor(joined, options?.signal);
    }
    metrics?.miss(name);
    const flight = start(compute);
    this.#byKey.set(key, flight);
    this.#setRunning(this.#running + 1);
    // Attached before any waiter's handler, so the entry is gone (and the value stored) by the
    // time a waiter resumes. The rejection branch handles the failure for bookkeeping only;
    // waiters still receive it through their own handlers.
    flight.then(
      (value) => {
        const current = this.#settle(key, flight);
        if (current) onFresh?.(value);
      },
      () => {
        this.#settle(key, flight);
      },
    );
    return waitFor(flight, options?.signal);
  }

  forget(key: string): void {
    this.#byKey.delete(key);
  }

  forgetAll(): void {
    this.#byKey.clear();
  }

  /** Ends a flight; true when it was still the current one for its key. */
  #settle(key: string, flight: Promise<V>): boolean {
    this.#setRunning(this.#running - 1);
    if (this.#byKey.get(key) !== flight) return false;
    this.#byKey.delete(key);
    return true;
  }

  #setRunning(count: number): void {
    this.#running = count;
    this.#reporter.metrics?.inFlight(this.#reporter.name, count);
  }
}

/** Runs `compute` now; a synchronous throw becomes a rejection like any other failure. */
function start<V>(compute: () => Promise<V>): Promise<V> {
  try {
    return Promise.resolve(compute());
  } catch (err) {
    return Promise.reject(err);
  }
}

/** `flight`'s outcome, or the signal's reason if this caller gives up first. */
function waitFor<V>(flight: Promise<V>, signal: AbortSignal | undefined): Promise<V> {
  if (signal === undefined) return flight;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<V>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    flight.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err);
      },
    );
  });
}
