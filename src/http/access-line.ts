/**
 * What a request's access line names beyond the request itself (catalog, namespace, table, whether
 * it went upstream), recorded where the request's logger is bound, so the one line per request
 * (server.ts RequestLines) carries them without reading pino's bindings back.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { jsonString, lazyChild, type Logger } from '../observability/index.js';
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

/**
 * A bindings record that many requests share (catalog-path.ts keeps one per decoded request
 * target) carries its access-line members, formatted once when it is made, under a symbol that
 * is not enumerable: neither pino's child bindings nor a copy of the record (a merge with other
 * bindings, as with auth on) carries it, so a merged record is formatted per request.
 */
const MEMBERS = Symbol('icefront.accessLineMembers');

/** `bindings`, frozen, with its access-line members formatted once for every request that shares it. */
export function sharedBindings<T extends Record<string, unknown>>(bindings: T): Readonly<T> {
  Object.defineProperty(bindings, MEMBERS, { value: formatMembers(bindings) });
  return Object.freeze(bindings);
}

/** The access line's members for the bound fields, in their order (`,"catalog":"demo",…`). */
export function accessLineMembers(bound: Readonly<Record<string, unknown>>): string {
  return (bound as { [MEMBERS]?: string })[MEMBERS] ?? formatMembers(bound);
}

function formatMembers(bound: Readonly<Record<string, unknown>>): string {
  let text = '';
  for (const key in bound) {
    const value = bound[key];
    if (value === undefined) continue;
    text += `,"${key}":${typeof value === 'string' ? jsonString(value) : JSON.stringify(value)}`;
  }
  return text;
}
