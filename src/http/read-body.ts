import type { Readable } from 'node:stream';
import { fail } from '../errors/index.js';

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
        reject(fail('PAYLOAD_TOO_LARGE', 'Request body is too large'));
        return;
      }
      chunks.push(chunk);
    });
    payload.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    payload.once('error', (err) => reject(fail('BAD_REQUEST', `Request body could not be read (${err.message})`)));
  });
}

const rawBodies = new WeakMap<object, string>();

/** Keeps the text of a body Icefront read, for a request that may still be forwarded. */
export function rememberRawBody(request: object, body: string): void {
  rawBodies.set(request, body);
}

/** The body Icefront read from this request, if it read one. */
export function rawBodyOf(request: object): string | undefined {
  return rawBodies.get(request);
}
