export { createComputeCache, type ComputeCache, type ComputeCacheOptions, type ComputeOptions } from './compute-cache.js';
export { singleFlight, type SingleFlight, type SingleFlightOptions } from './single-flight.js';
export type { FlightOptions } from './flights.js';
export { createByteBudget, type ByteBudget } from './byte-budget.js';
export { Turns } from './turns.js';
