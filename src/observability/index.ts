export { createLogger, jsonString, lazyChild, LineFields, REDACT_PATHS, writeLine, type Logger, type LoggerOptions } from './logger.js';
export {
  createMetrics,
  type CacheMetrics,
  type HttpRequestLabels,
  type MetricCounter,
  type UpstreamCallObserver,
  type Metrics,
} from './metrics.js';
export {
  createTracing,
  SpanKind,
  SpanStatusCode,
  trace,
  traceContext,
  TRACING_OFF,
  type Span,
  type TraceContext,
  type Tracing,
  type TracingOptions,
  type SpanExporter,
} from './tracing.js';
export {
  Activity,
  RECENT_PLANS,
  type ActivitySnapshot,
  type PlanRecord,
  type UpstreamContact,
  type UpstreamErrorRecord,
  type UpstreamObserver,
} from './activity.js';
export { upstreamObserver } from './upstream-observer.js';
export type { CacheSnapshot } from './cache-tally.js';
export { MINUTES, type MinuteCounts, type RouteSeries } from './request-series.js';
