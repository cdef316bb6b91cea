import type { Readable } from 'node:stream';
import { fail } from '../errors/index.js';
import { requestSlot } from './request-slot.js';

/** The 413's message: the limit, and the setting an operator raises it with. */
function bodyTooLarge(limit: number): string {
  return `Request body is too large: more than ${limit} bytes (the server's limit, server.body-limit in its configuration)`;
}

/** A request body as UTF-8 text, refused with 413 past `limit` bytes (before reading it all). */
export function readBody(payload: Readable, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    payload.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        payload.removeAllListeners('data');
        payload.resume();
        reject(fail('PAYLOAD_TOO_LARGE', bodyTooLarge(limit)));
        return;
      }
      chunks.push(chunk);
    });
    payload.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    payload.once('error', (err) => reject(fail('BAD_REQUEST', `Request body could not be read (${err.message})`)));
  });
}

/**
 * How deep a request's JSON may nest. Every later walk of the body (filter parsing, literal
 * conversion, error messages that quote a value) recurses, so the bound is enforced once, on the
 * text, before anything parses it: a filter may nest 1,000 expressions (iceberg/expressions), each
 * one JSON level, plus the request around it.
 */
export const MAX_JSON_DEPTH = 1100;

/** Refuses (400) JSON text nested deeper than MAX_JSON_DEPTH; a linear scan that skips strings. */
export function assertJsonDepth(text: string): void {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // skip a string, honouring backslash escapes
      for (i++; i < text.length && text.charCodeAt(i) !== 0x22; i++) if (text.charCodeAt(i) === 0x5c) i++;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > MAX_JSON_DEPTH) throw fail('BAD_REQUEST', `Request JSON is nested deeper than ${MAX_JSON_DEPTH} levels`);
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
}

const rawBodies = requestSlot<string>('icefront.rawBody');

/** Keeps the text of a body Icefront read, for a request that may still be forwarded. */
export function rememberRawBody(request: object, body: string): void {
  rawBodies.set(request, body);
}

/** The body Icefront read from this request, if it read one. */
export function rawBodyOf(request: object): string | undefined {
  return rawBodies.get(request);
}
