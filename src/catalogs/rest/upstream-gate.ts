/**
 * Admission to one upstream (issue 10, limits and fairness): at most `maxInFlight` requests are
 * with it at a time and at most `maxQueued` wait for a turn, so a slow or hung upstream holds a
 * bounded share of sockets and memory and every other catalog keeps its own. A request refused
 * (queue full) or not admitted within its wait (the request timeout) is a 503
 * ServiceUnavailableException with Retry-After (http/error-response), answered before any upstream byte.
 */
import { slowDown } from '../../errors/index.js';

export interface UpstreamGateLimits {
  readonly maxInFlight: number;
  readonly maxQueued: number;
}

export const DEFAULT_GATE_LIMITS: UpstreamGateLimits = Object.freeze({ maxInFlight: 128, maxQueued: 1024 });

interface Waiter {
  /** Hands the waiter the slot being released. */
  readonly admit: () => void;
}

/**
 * A counting semaphore with a bounded FIFO of waiters. Written out rather than p-limit because
 * it sits on every upstream request: a free slot is taken synchronously, with no timer, promise
 * race or queue hop (the profile of the pass-through showed those per request, issue #12); only
 * a request that has to wait gets a timer.
 */
export class UpstreamGate {
  readonly #maxInFlight: number;
  readonly #maxQueued: number;
  #active = 0;
  readonly #waiting: Waiter[] = [];

  constructor(
    readonly name: string,
    limits: UpstreamGateLimits = DEFAULT_GATE_LIMITS,
  ) {
    this.#maxInFlight = limits.maxInFlight;
    this.#maxQueued = limits.maxQueued;
  }

  get inFlight(): number {
    return this.#active;
  }

  get queued(): number {
    return this.#waiting.length;
  }

  /**
   * Runs `work` once a slot is free; the slot is held until `work` settles. Rejects with
   * UPSTREAM_BUSY, without running `work`, when the queue is full or no slot came within `waitMs`.
   */
  run<T>(work: () => Promise<T>, waitMs: number): Promise<T> {
    if (this.#active < this.#maxInFlight) {
      this.#active++;
      return this.#held(work);
    }
    if (this.#waiting.length >= this.#maxQueued) return Promise.reject(this.#busy(`${this.#maxQueued} requests are already waiting`));
    return new Promise<T>((resolve, reject) => {
      const waiter: Waiter = {
        admit: () => {
          clearTimeout(timer);
          this.#held(work).then(resolve, reject);
        },
      };
      // Its wait ran out before the turn came: it leaves the queue and the caller has its answer.
      const timer = setTimeout(() => {
        const at = this.#waiting.indexOf(waiter);
        if (at !== -1) this.#waiting.splice(at, 1);
        reject(this.#busy(`no turn within ${waitMs} ms`));
      }, waitMs);
      this.#waiting.push(waiter);
    });
  }

  /** `work` in a slot already taken; the slot passes to the next waiter (or is freed) when it settles. */
  async #held<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } finally {
      const next = this.#waiting.shift();
      if (next) next.admit();
      else this.#active--;
    }
  }

  #busy(why: string) {
    return slowDown('UPSTREAM_BUSY', `Catalog '${this.name}': the upstream already has ${this.#active} requests in flight and ${why}; retry later`, 1);
  }
}
