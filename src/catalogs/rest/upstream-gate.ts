/**
 * Admission to one upstream (issue 10, limits and fairness): at most `maxInFlight` requests are
 * with it at a time and at most `maxQueued` wait for a turn, so a slow or hung upstream holds a
 * bounded share of sockets and memory and every other catalog keeps its own. A request refused
 * (queue full) or not admitted within its wait (the request timeout) is a 503
 * ServiceUnavailableException with Retry-After (http/error-response), answered before any upstream byte.
 */
import pLimit, { type LimitFunction } from 'p-limit';
import { slowDown } from '../../errors/index.js';

export interface UpstreamGateLimits {
  readonly maxInFlight: number;
  readonly maxQueued: number;
}

export const DEFAULT_GATE_LIMITS: UpstreamGateLimits = Object.freeze({ maxInFlight: 128, maxQueued: 1024 });

export class UpstreamGate {
  readonly #limit: LimitFunction;
  readonly #maxQueued: number;

  constructor(
    readonly name: string,
    limits: UpstreamGateLimits = DEFAULT_GATE_LIMITS,
  ) {
    this.#limit = pLimit(limits.maxInFlight);
    this.#maxQueued = limits.maxQueued;
  }

  get inFlight(): number {
    return this.#limit.activeCount;
  }

  get queued(): number {
    return this.#limit.pendingCount;
  }

  /**
   * Runs `work` once a slot is free; the slot is held until `work` settles. Rejects with
   * UPSTREAM_BUSY, without running `work`, when the queue is full or no slot came within `waitMs`.
   */
  run<T>(work: () => Promise<T>, waitMs: number): Promise<T> {
    if (this.#limit.pendingCount >= this.#maxQueued) return Promise.reject(this.#busy(`${this.#maxQueued} requests are already waiting`));
    let expired = false;
    let timer: NodeJS.Timeout | undefined;
    // The timer exists before the turn can come, so a turn always clears it.
    const waited = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        expired = true;
        reject(this.#busy(`no turn within ${waitMs} ms`));
      }, waitMs);
    });
    const admitted = this.#limit(async () => {
      // Its wait ran out before the turn came: the caller has its answer; give the slot back.
      if (expired) return undefined as T;
      clearTimeout(timer);
      return work();
    });
    return Promise.race([admitted, waited]);
  }

  #busy(why: string) {
    return slowDown('UPSTREAM_BUSY', `Catalog '${this.name}': the upstream already has ${this.#limit.activeCount} requests in flight and ${why}; retry later`, 1);
  }
}
