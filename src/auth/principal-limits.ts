/**
 * Per-principal fairness (issue 10, limits): a token bucket of `requestsPerSecond` with room for
 * `burst`, and at most `maxInFlight` requests at once, for each authenticated caller. Beyond
 * either, the request is refused before any work with 429 SlowDownException and Retry-After (the
 * spec's ServiceUnavailableResponse names throttling "SlowDown"; Iceberg Java's HTTP client
 * retries 429 when Retry-After is present). The state of the least recently seen principals is
 * dropped past 100,000, which only ever forgets a debt.
 */
import { LRUCache } from 'lru-cache';
import type { PrincipalLimitsConfig } from '../config/index.js';
import { slowDown } from '../errors/index.js';
import type { Principal } from './principal.js';

interface State {
  tokens: number;
  refilledAt: number;
  inFlight: number;
}

const MAX_PRINCIPALS = 100_000;

export class PrincipalLimits {
  readonly #config: PrincipalLimitsConfig;
  readonly #now: () => number;
  readonly #states = new LRUCache<string, State>({ max: MAX_PRINCIPALS });

  constructor(config: PrincipalLimitsConfig, now: () => number = () => performance.now()) {
    this.#config = config;
    this.#now = now;
  }

  /**
   * Admits one request of `principal` or throws RATE_LIMITED. The returned function ends it (call
   * it once, when the response has closed); it frees the in-flight place.
   */
  admit(principal: Principal): () => void {
    const { requestsPerSecond: rate, burst, maxInFlight } = this.#config;
    const now = this.#now();
    let state = this.#states.get(principal.name);
    // default burst: one second's worth, and never less than one request
    const cap = burst ?? Math.max(1, rate ?? Infinity);
    if (!state) this.#states.set(principal.name, (state = { tokens: cap, refilledAt: now, inFlight: 0 }));
    if (maxInFlight !== undefined && state.inFlight >= maxInFlight)
      throw slowDown('RATE_LIMITED', `Too many requests in flight for ${principal.name} (auth.limits.max-in-flight ${maxInFlight}); retry later`, 1);
    if (rate !== undefined) {
      state.tokens = Math.min(cap, state.tokens + ((now - state.refilledAt) / 1000) * rate);
      state.refilledAt = now;
      if (state.tokens < 1)
        throw slowDown('RATE_LIMITED', `Too many requests for ${principal.name} (auth.limits.requests-per-second ${rate}); retry later`, (1 - state.tokens) / rate);
      state.tokens -= 1;
    }
    state.inFlight++;
    const held = state;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      held.inFlight--;
    };
  }
}
