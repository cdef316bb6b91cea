/**
 * What a request's access line names beyond the request itself (catalog, namespace, table, whether
 * it went upstream), recorded where the request's logger is bound, so the one line per request
 * (server.ts RequestLines) carries them without reading pino's bindings back.
 */
import type { IncomingMessage } from 'node:http';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';

const fields = new WeakMap<IncomingMessage, Readonly<Record<string, unknown>>>();

/**
 * Binds `bindings` to the request's logger (and its reply's) and to its access line. The child
 * logger is made on the first line written through it: most requests write none but the access
 * line, and a pino child serialises (and redacts) its bindings when made, a measurable share of a
 * warm load-table (issue #12 profile).
 */
export function bindRequestLog(request: FastifyRequest, reply: FastifyReply | undefined, bindings: Readonly<Record<string, unknown>>): void {
  const parent = request.log;
  let child: FastifyBaseLogger | undefined;
  const lazy = new Proxy(parent, {
    get(_target, prop) {
      const logger = (child ??= parent.child(bindings));
      const value = Reflect.get(logger, prop, logger) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(logger) : value;
    },
  });
  request.log = lazy;
  if (reply) reply.log = lazy;
  fields.set(request.raw, { ...fields.get(request.raw), ...bindings });
}

/** The fields bound so far for the request's access line. */
export function accessLineFields(request: FastifyRequest): Readonly<Record<string, unknown>> | undefined {
  return fields.get(request.raw);
}
