/**
 * What a request's access line names beyond the request itself (catalog, namespace, table, whether
 * it went upstream), recorded where the request's logger is bound, so the one line per request
 * (server.ts RequestLines) carries them without reading pino's bindings back.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { lazyChild, type Logger } from '../observability/index.js';
import { requestSlot } from './request-slot.js';

const fields = requestSlot<Readonly<Record<string, unknown>>>('icefront.accessLine');

/**
 * Binds `bindings` to the request's logger (and its reply's) and to its access line. The child
 * logger is made on the first line written through it (lazyChild): most requests write none but
 * the access line.
 */
export function bindRequestLog(request: FastifyRequest, reply: FastifyReply | undefined, bindings: Readonly<Record<string, unknown>>): void {
  // `bindings` is the caller's own record, never changed after (no copy made of it per request)
  const lazy = lazyChild(request.log as Logger, bindings);
  request.log = lazy;
  if (reply) reply.log = lazy;
  const earlier = fields.get(request.raw);
  fields.set(request.raw, earlier ? { ...earlier, ...bindings } : bindings);
}

/** The fields bound so far for the request's access line. */
export function accessLineFields(request: FastifyRequest): Readonly<Record<string, unknown>> | undefined {
  return fields.get(request.raw);
}
