/**
 * Compressed answers (issue #31): a `/plan` or `/tasks` answer runs to a MiB of JSON per page,
 * and a table's metadata to many, which compress to a small fraction. Iceberg Java (Apache
 * HttpClient 5), pyiceberg (requests) and Go's net/http ask for gzip and decode it; an answer is
 * compressed only when the client asks (RFC 9110 §12.5.3 Accept-Encoding) and it is not tiny. The work runs on libuv's
 * thread pool (zlib's async API), never on the event loop, at a fast level: JSON of tasks is
 * repetitive enough that level 1 already takes a page of tasks to a few percent of its size.
 */
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { joinedParts, jsonParts, partsByteLength } from '../json/index.js';
import { weakTag } from './conditional.js';

/** Answers below this many bytes go as they are: compressing them saves less than it costs. */
export const MIN_COMPRESSED_BYTES = 4096;

const gzip = promisify(zlib.gzip);
const GZIP_OPTIONS: zlib.ZlibOptions = { level: 1 };

/**
 * Whether an Accept-Encoding field value (RFC 9110 §12.5.3) accepts gzip: `gzip` or `x-gzip`
 * with a weight above 0, or else `*` with a weight above 0. Codings are case-insensitive; an
 * explicit `gzip;q=0` refuses it even when `*` is accepted.
 */
export function acceptsGzip(header: string | readonly string[] | undefined): boolean {
  if (header === undefined) return false;
  const value = typeof header === 'string' ? header : header.join(',');
  let star: boolean | undefined;
  for (const member of value.split(',')) {
    const [name = '', ...params] = member.split(';');
    const coding = name.trim().toLowerCase();
    if (coding === '') continue;
    const weight = params.map((p) => /^\s*q\s*=\s*([0-9.]+)\s*$/i.exec(p)?.[1]).find((q) => q !== undefined);
    const accepted = weight === undefined || Number(weight) > 0;
    if (coding === 'gzip' || coding === 'x-gzip') return accepted;
    if (coding === '*') star = accepted;
  }
  return star === true;
}

/** Whether an answer of `length` bytes goes gzipped to a client that sent `acceptEncoding`: accepted, and not tiny. */
export function gzipFor(acceptEncoding: string | readonly string[] | undefined, length: number): boolean {
  return length >= MIN_COMPRESSED_BYTES && acceptsGzip(acceptEncoding);
}

/**
 * The gzip form of answers already sent, by answer object. A /plan or /tasks answer kept whole in the
 * answer cache (service scan-planning `KeptAnswer`) is the same object every time, so it is
 * compressed once; the form lives as long as the answer does.
 */
const GZIPPED = new WeakMap<object, Promise<Buffer>>();

/** `bytes` (the serialised form of `holder`, e.g. a kept LoadTableResponse; or its pieces, in order) gzipped, once per holder. */
export function gzippedOnce(holder: object, bytes: Buffer | string | readonly Buffer[]): Promise<Buffer> {
  let zipped = GZIPPED.get(holder);
  if (!zipped) {
    zipped = Array.isArray(bytes) ? gzipPieces(bytes as readonly Buffer[]) : gzip(bytes as Buffer | string, GZIP_OPTIONS);
    GZIPPED.set(holder, zipped);
    zipped.catch(() => GZIPPED.delete(holder));
  }
  return zipped;
}

/** Pieces gzipped as one stream, on the thread pool like `gzip`. */
function gzipPieces(pieces: readonly Buffer[]): Promise<Buffer> {
  if (pieces.length === 1) return gzip(pieces[0]!, GZIP_OPTIONS);
  return new Promise((resolve, reject) => {
    const stream = zlib.createGzip(GZIP_OPTIONS);
    const out: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => out.push(chunk));
    stream.once('end', () => resolve(Buffer.concat(out)));
    stream.once('error', reject);
    for (const piece of pieces) stream.write(piece);
    stream.end();
  });
}

/** An answer's body as negotiated: gzip (made once per answer object) when accepted and not tiny, else the JSON text (json/stringify jsonParts). */
export async function negotiatedBody(body: object, acceptEncoding: string | readonly string[] | undefined): Promise<{ readonly body: Buffer | string; readonly gzip: boolean }> {
  const wanted = acceptsGzip(acceptEncoding);
  const held = wanted ? GZIPPED.get(body) : undefined;
  if (held) return { body: await held, gzip: true };
  // a page of tasks a worker wrote as bytes is never decoded, and is compressed from its pieces,
  // never joined into a copy first
  const parts = jsonParts(body);
  if (!wanted || partsByteLength(parts) < MIN_COMPRESSED_BYTES) return { body: joinedParts(parts), gzip: false };
  return { body: await gzippedOnce(body, parts), gzip: true };
}

/**
 * Writes a JSON answer, gzip-compressed when the client accepts it and it is at least
 * MIN_COMPRESSED_BYTES. The answer varies with Accept-Encoding either way, so caches are told
 * (`Vary`, RFC 9110 §12.5.5).
 */
export async function sendJsonNegotiated(request: FastifyRequest, reply: FastifyReply, status: number, body: object): Promise<FastifyReply> {
  const { body: sent, gzip: zipped } = await negotiatedBody(body, request.headers['accept-encoding']);
  reply.code(status).type('application/json').header('vary', 'accept-encoding');
  if (zipped) reply.header('content-encoding', 'gzip');
  return reply.send(sent);
}

/** A Vary field value that also names Accept-Encoding (RFC 9110 §12.5.5). */
function varyWithAcceptEncoding(vary: string | undefined): string {
  if (vary === undefined || vary.trim() === '') return 'accept-encoding';
  return vary.split(',').some((v) => ['accept-encoding', '*'].includes(v.trim().toLowerCase())) ? vary : `${vary}, accept-encoding`;
}

/**
 * The headers of an answer that may go gzipped (`zip`): Vary names Accept-Encoding either way
 * (RFC 9110 §12.5.5), and the gzip form, another representation of the same answer, carries the
 * weak form of a strong ETag (§8.8.1, as nginx does); If-None-Match compares weakly, so either
 * form revalidates. Content-Encoding is the sender's to add, with the compressed body.
 */
export function negotiatedHeaders(headers: Readonly<Record<string, string>>, zip: boolean): Record<string, string> {
  const out: Record<string, string> = { ...headers, vary: varyWithAcceptEncoding(headers['vary']) };
  const etag = out['etag'];
  if (zip && etag !== undefined) out['etag'] = weakTag(etag);
  return out;
}

/**
 * Writes an answer relayed from an upstream (a rest catalog's load-table, read whole because its
 * `config` may be rewritten), gzip-compressed when the client accepts it and it is not tiny.
 */
export function sendRelayedNegotiated(
  request: FastifyRequest,
  reply: FastifyReply,
  answer: { readonly status: number; readonly headers: Readonly<Record<string, string>>; readonly body: Buffer },
): FastifyReply | Promise<FastifyReply> {
  const zip = answer.status === 200 && gzipFor(request.headers['accept-encoding'], answer.body.length);
  reply.code(answer.status).headers(negotiatedHeaders(answer.headers, zip));
  if (!zip) return reply.send(answer.status === 304 ? undefined : answer.body);
  return gzip(answer.body, GZIP_OPTIONS).then((bytes) => reply.header('content-encoding', 'gzip').send(bytes));
}
