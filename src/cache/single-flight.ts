import type { CacheMetrics } from '../observability/index.js';
import { Flights, type FlightOptions } from './flights.js';

export interface SingleFlightOptions {
  /** Names the flights in metrics; unique per metrics instance. */
  readonly name: string;
  readonly metrics?: CacheMetrics;
}

/** Coalescing without storage: concurrent runs of one key share one computation. */
export interface SingleFlight<V> {
  /** Joins the computation in flight for `key`, or runs `compute` as one; nothing outlives it. */
  run(key: string, compute: () => Promise<V>, options?: FlightOptions): Promise<V>;
  /** Computations running now. */
  readonly inFlight: number;
}

export function singleFlight<V>(options: SingleFlightOptions): SingleFlight<V> {
  const flights = new Flights<V>(options);
  return {
    run: (key, compute, runOptions) => flights.run(key, compute, runOptions),
    get inFlight() {
      return flights.running;
    },
  };
}
