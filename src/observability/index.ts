export { createLogger, REDACT_PATHS, type Logger, type LoggerOptions } from './logger.js';
export {
  createMetrics,
  type CacheMetrics,
  type HttpRequestLabels,
  type MetricCounter,
  type Metrics,
} from './metrics.js';
export {
  Activity,
  RECENT_PLANS,
  type ActivitySnapshot,
  type PlanRecord,
  type UpstreamContact,
  type UpstreamErrorRecord,
  type UpstreamObserver,
} from './activity.js';
export type { CacheSnapshot } from './cache-tally.js';
export { MINUTES, type MinuteCounts, type RouteSeries } from './request-series.js';
