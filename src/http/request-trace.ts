/**
 * The span of each request (OpenTelemetry HTTP server semantic conventions: `{method} {route}`,
 * kind SERVER), child of the caller's W3C `traceparent` when it sent one, ended when the response
 * closes (streamed and hijacked answers included). Its handler runs with it active, so upstream
 * calls, planning and reads below it become its children. With tracing off nothing is recorded,
 * but a caller's trace context is still made active for the upstream calls to carry on.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SpanKind, SpanStatusCode, trace, traceContext, type TraceContext, type Tracing } from '../observability/index.js';
import { accessLineFields } from './access-line.js';
import { loggedUrl, rawPath } from './request-params.js';
import { requestSlot } from './request-slot.js';

const contexts = requestSlot<TraceContext>('icefront.trace');

/** Starts the request's span (onRequest); `route` is the matched spec path template. */
export function startRequestSpan(tracing: Tracing, request: FastifyRequest, reply: FastifyReply, route: string | undefined): void {
  const parent = tracing.extract(request.headers);
  if (!tracing.enabled) {
    if (trace.getSpanContext(parent)) contexts.set(request.raw, parent);
    return;
  }
  const span = tracing.tracer.startSpan(
    `${request.method} ${route ?? 'unknown route'}`,
    {
      kind: SpanKind.SERVER,
      attributes: {
        'http.request.method': request.method,
        // plan ids replaced, no query: a path names catalogs and tables, never credentials
        'url.path': loggedUrl(rawPath(request.raw.url ?? '/')),
        ...(route !== undefined && { 'http.route': route }),
        'icefront.request_id': request.id,
      },
    },
    parent,
  );
  contexts.set(request.raw, trace.setSpan(parent, span));
  reply.raw.once('close', () => {
    const status = reply.raw.statusCode;
    span.setAttribute('http.response.status_code', status);
    const catalog = accessLineFields(request)?.catalog;
    if (typeof catalog === 'string') span.setAttribute('icefront.catalog', catalog);
    if (status >= 500 || !reply.raw.writableFinished) span.setStatus({ code: SpanStatusCode.ERROR, ...(status >= 500 && { message: `HTTP ${status}` }) });
    span.end();
  });
}

/** Runs a request's handler with its span (or its caller's trace context) active. */
export function inRequestContext<T>(request: FastifyRequest, work: () => T): T {
  const ctx = contexts.get(request.raw);
  return ctx === undefined ? work() : traceContext.with(ctx, work);
}
