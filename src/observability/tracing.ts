/**
 * OpenTelemetry tracing: a span per request, with children for upstream calls, planning, file
 * reads and cache waits; W3C `traceparent`/`tracestate` taken from callers and sent to upstreams
 * (W3C Trace Context §3). Off by default: no spans are recorded, but a caller's trace context
 * still reaches the upstreams Icefront calls on its behalf. On: spans go to an OTLP/HTTP collector
 * (`tracing.otlp-endpoint`), or to the exporter a test passes.
 *
 * Each Icefront has its own tracer provider (no global one: several servers share a process in
 * tests). Only the context manager is process-wide: AsyncLocalStorage carries the active span
 * through awaits, and the API has one slot for it.
 */
import type { IncomingHttpHeaders } from 'node:http';
import {
  context,
  defaultTextMapGetter,
  defaultTextMapSetter,
  INVALID_SPAN_CONTEXT,
  ProxyTracerProvider,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  ParentBasedSampler,
  SimpleSpanProcessor,
  TraceIdRatioBasedSampler,
  type SpanExporter,
} from '@opentelemetry/sdk-trace-base';

export interface TracingOptions {
  /** OTLP/HTTP traces URL (e.g. http://collector:4318/v1/traces); absent and no exporter: tracing off. */
  readonly otlpEndpoint?: string;
  /** `service.name` of the spans; `icefront` by default. */
  readonly serviceName?: string;
  /** Share of new traces recorded (0–1); a caller's sampled flag is followed. Default 1. */
  readonly sampleRatio?: number;
  /** Spans go here, each as it ends (tests: the SDK's InMemorySpanExporter). */
  readonly exporter?: SpanExporter;
}

export interface Tracing {
  /** Whether spans are recorded (a collector or an exporter is configured). */
  readonly enabled: boolean;
  readonly tracer: Tracer;
  /** The caller's trace context from W3C headers; ROOT_CONTEXT when it sent none. */
  extract(headers: IncomingHttpHeaders): Context;
  /** Adds `traceparent` (and `tracestate`) of the active context to outgoing headers. */
  inject(headers: Record<string, string>): void;
  /**
   * Runs `work` in a child span of the active context. The span ends when `work` settles; a
   * rejection marks it as an error (its message only: no stack, no request data).
   */
  span<T>(name: string, attributes: Attributes, work: (span: Span) => Promise<T>): Promise<T>;
  /** Exports what is buffered and stops. */
  shutdown(): Promise<void>;
}

const propagator = new W3CTraceContextPropagator();
/** What `span` hands its work when tracing is off: a span that records nothing. */
const NOT_RECORDED: Span = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);
let contextManagerSet = false;

function useAsyncContext(): void {
  if (contextManagerSet) return;
  contextManagerSet = true;
  // false when another library registered one first: theirs carries the active span as well
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
}

export function createTracing(options: TracingOptions = {}): Tracing {
  useAsyncContext();
  const exporter = options.exporter ?? (options.otlpEndpoint ? new OTLPTraceExporter({ url: options.otlpEndpoint }) : undefined);
  const provider =
    exporter &&
    new BasicTracerProvider({
      resource: resourceFromAttributes({ 'service.name': options.serviceName ?? 'icefront' }),
      sampler: new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(options.sampleRatio ?? 1) }),
      // a test's exporter sees each span as it ends; a collector gets batches, off the request path
      spanProcessors: [options.exporter ? new SimpleSpanProcessor(exporter) : new BatchSpanProcessor(exporter)],
    });
  const tracer = (provider ?? new ProxyTracerProvider()).getTracer('icefront');
  const enabled = provider !== undefined;
  return {
    enabled,
    tracer,
    extract: (headers) => (headers.traceparent === undefined ? ROOT_CONTEXT : propagator.extract(ROOT_CONTEXT, headers, defaultTextMapGetter)),
    inject: (headers) => propagator.inject(context.active(), headers, defaultTextMapSetter),
    span: async (name, attributes, work) => {
      if (!enabled) return work(NOT_RECORDED);
      return tracer.startActiveSpan(name, { kind: SpanKind.INTERNAL, attributes }, async (span) => {
        try {
          return await work(span);
        } catch (err) {
          span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.message : String(err) });
          throw err;
        } finally {
          span.end();
        }
      });
    },
    shutdown: async () => {
      await provider?.shutdown();
    },
  };
}

/** A tracing that records nothing and propagates callers' contexts (the default). */
export const TRACING_OFF: Tracing = createTracing();

export { context as traceContext, SpanKind, SpanStatusCode, trace, type Context as TraceContext, type Span, type SpanExporter };
