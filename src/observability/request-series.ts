/**
 * Requests per route and method, minute by minute over the last `MINUTES` minutes: count, client
 * errors (4xx), server errors (5xx), summed and largest duration. Fixed typed arrays per (route,
 * method), reused as minutes pass, so recording a request allocates nothing once its route has
 * been seen (routes are spec templates: a bounded set).
 */

/** Minutes a series reaches back (the current one included). */
export const MINUTES = 15;
const MINUTE_MS = 60_000;

/** One minute of one route. */
export interface MinuteCounts {
  /** Start of the minute, epoch ms. */
  readonly at: number;
  readonly count: number;
  /** Answered 400–499: refused requests (bad input, no permission, not found, throttled). */
  readonly clientErrors: number;
  /** Answered 500 and above. */
  readonly errors: number;
  /** Mean and largest duration, ms (0 without requests). */
  readonly meanMs: number;
  readonly maxMs: number;
}

export interface RouteSeries {
  readonly route: string;
  readonly method: string;
  /** `MINUTES` entries, oldest first, the current minute last. */
  readonly minutes: readonly MinuteCounts[];
}

class Minutes {
  readonly stamp = new Float64Array(MINUTES).fill(-1);
  readonly count = new Uint32Array(MINUTES);
  readonly clientErrors = new Uint32Array(MINUTES);
  readonly errors = new Uint32Array(MINUTES);
  readonly totalMs = new Float64Array(MINUTES);
  readonly maxMs = new Float64Array(MINUTES);

  add(minute: number, ms: number, status: number): void {
    const slot = minute % MINUTES;
    if (this.stamp[slot] !== minute) {
      this.stamp[slot] = minute;
      this.count[slot] = this.clientErrors[slot] = this.errors[slot] = this.totalMs[slot] = this.maxMs[slot] = 0;
    }
    this.count[slot] = this.count[slot]! + 1;
    if (status >= 500) this.errors[slot] = this.errors[slot]! + 1;
    else if (status >= 400) this.clientErrors[slot] = this.clientErrors[slot]! + 1;
    this.totalMs[slot] = this.totalMs[slot]! + ms;
    if (ms > this.maxMs[slot]!) this.maxMs[slot] = ms;
  }

  read(minute: number): MinuteCounts {
    const slot = minute % MINUTES;
    const at = minute * MINUTE_MS;
    if (this.stamp[slot] !== minute) return { at, count: 0, clientErrors: 0, errors: 0, meanMs: 0, maxMs: 0 };
    const count = this.count[slot]!;
    return { at, count, clientErrors: this.clientErrors[slot]!, errors: this.errors[slot]!, meanMs: count === 0 ? 0 : this.totalMs[slot]! / count, maxMs: this.maxMs[slot]! };
  }
}

export class RequestSeries {
  /** By route, then method: two lookups, no key built per request. */
  readonly #routes = new Map<string, Map<string, Minutes>>();

  record(route: string, method: string, status: number, ms: number, now: number): void {
    let methods = this.#routes.get(route);
    if (!methods) this.#routes.set(route, (methods = new Map()));
    let minutes = methods.get(method);
    if (!minutes) methods.set(method, (minutes = new Minutes()));
    minutes.add(Math.floor(now / MINUTE_MS), ms, status);
  }

  /** Every route seen with a request in the window, busiest first. */
  snapshot(now: number): RouteSeries[] {
    const current = Math.floor(now / MINUTE_MS);
    const out: { series: RouteSeries; total: number }[] = [];
    for (const [route, methods] of this.#routes) {
      for (const [method, m] of methods) {
        const minutes = Array.from({ length: MINUTES }, (_, i) => m.read(current - MINUTES + 1 + i));
        const total = minutes.reduce((sum, c) => sum + c.count, 0);
        if (total > 0) out.push({ series: { route, method, minutes }, total });
      }
    }
    return out.sort((a, b) => b.total - a.total || a.series.route.localeCompare(b.series.route)).map((o) => o.series);
  }
}
