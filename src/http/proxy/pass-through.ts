/**
 * Byte pass-through to an upstream REST catalog (http-proxy-3): bodies streamed both ways, the
 * path already rewritten by the caller, the query forwarded raw, hop-by-hop headers dropped,
 * X-Forwarded-* set, and upstream failures mapped to Iceberg errors (refused → 503, timeout →
 * 504, reset or garbage → 502). Nothing here decodes or re-encodes what it forwards; a JSON error
 * body is decoded only to check it is an ErrorModel, and then passes as it came.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import type { Socket } from 'node:net';
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { createProxyServer } from 'http-proxy-3';
import { upstreamFault } from '../../catalogs/index.js';
import { fail, genericErrorType, type IcefrontError } from '../../errors/index.js';
import { toErrorModel } from '../error-response.js';
import { requestSlot } from '../request-slot.js';

export interface PassThroughTarget {
  /** The catalog and the exchange (`GET /v1/{prefix}/namespaces`), as failures name them. */
  readonly catalog: string;
  readonly what: string;
  /** The full upstream URL: rewritten path plus the client's raw query. */
  readonly url: string;
  /** Headers set on the upstream request (Icefront's or the forwarded caller's Authorization…). */
  readonly setHeaders: Readonly<Record<string, string>>;
  /** Caller headers never forwarded to this upstream (e.g. Authorization in bearer/oauth2 modes). */
  readonly dropHeaders: readonly string[];
  /** No response head from the upstream within this time → 504. */
  readonly timeoutMs: number;
  /** The request body, when Icefront already read it from the client (else it is streamed). */
  readonly body?: string;
  /** Told how the upstream answered (its status, or the error code of a failure) and when its head came. */
  readonly observe?: (outcome: number | string, seconds: number) => void;
}

/** RFC 9110 §7.6.1 hop-by-hop fields, plus proxy-specific ones a client must not steer. */
const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'upgrade'];

export interface PassThrough {
  forward(request: FastifyRequest, reply: FastifyReply, target: PassThroughTarget): Promise<void>;
  close(): void;
}

export function createPassThrough(): PassThrough {
  // Kept-alive upstream connections: a new TCP connection per request would cap throughput.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const secureAgent = new https.Agent({ keepAlive: true, maxSockets: 256 });
  const proxy = createProxyServer({ xfwd: true, changeOrigin: true, ignorePath: true, secure: true, followRedirects: false });
  // A listener keeps http-proxy from throwing on errors that arrive without a per-call callback.
  proxy.on('error', () => undefined);
  // An upstream answer the client must not see as sent: a redirect (it would lead the caller, and
  // its credentials, elsewhere) is a 502; an error that is not JSON (a stack trace, S3's XML) is
  // wrapped in an ErrorModel with the upstream's status. Ending the response here stops the pipe.
  // Set-Cookie never passes: Icefront's callers hold no session with its upstreams.
  const observed = requestSlot<{ readonly started: number; readonly observe: NonNullable<PassThroughTarget['observe']> } | undefined>('icefront.upstreamObserved');
  const observeOnce = (req: IncomingMessage, outcome: number | string) => {
    const o = observed.get(req);
    if (o === undefined) return;
    observed.set(req, undefined);
    o.observe(outcome, (performance.now() - o.started) / 1000);
  };
  proxy.on('proxyRes', (proxyRes, req, res) => {
    observeOnce(req, proxyRes.statusCode ?? 502);
    // An upstream body cut short (reset after part of its Content-Length) breaks the client's
    // response too, instead of leaving the client waiting for bytes that never come.
    proxyRes.once('close', () => {
      if (!proxyRes.complete) res.destroy();
    });
    delete proxyRes.headers['set-cookie'];
    const status = proxyRes.statusCode ?? 502;
    const json = /^application\/(?:[\w.+-]*\+)?json\b/i.test(String(proxyRes.headers['content-type'] ?? ''));
    const redirect = status >= 300 && status < 400 && status !== 304;
    if (!redirect && status >= 400 && json) return checkJsonError(proxyRes, res, status);
    if (!redirect && status < 400) return;
    proxyRes.resume();
    if (redirect) return writeError(res, fail('UPSTREAM_BAD_GATEWAY', `Upstream catalog answered a redirect (${status}), which Icefront does not follow`));
    const type = String(proxyRes.headers['content-type'] ?? 'no content type').split(';')[0]!.slice(0, 60);
    writeModel(res, { message: `Upstream catalog answered ${status} with ${type}, not an Iceberg error`, type: genericErrorType(status), code: status });
  });
  // An idle upstream socket (no head, or a body that stalls) fails with a timeout error the
  // error callback can tell from a reset (http-proxy's own proxyTimeout reports a hang-up).
  const timeouts = requestSlot<number>('icefront.upstreamTimeout');
  const upstreamRequests = requestSlot<http.ClientRequest>('icefront.upstreamRequest');
  proxy.on('proxyReq', (proxyReq, req) => {
    upstreamRequests.set(req, proxyReq);
    const ms = timeouts.get(req);
    if (ms !== undefined) proxyReq.setTimeout(ms, () => proxyReq.destroy(timedOut()));
  });
  return {
    forward(request, reply, target) {
      reply.hijack();
      const req = request.raw;
      const res = reply.raw;
      // RFC 9110 §7.6.1: the fields the Connection header names are hop-by-hop too.
      const named = String(req.headers.connection ?? '')
        .split(',')
        .map((n) => n.trim().toLowerCase())
        .filter((n) => n !== '');
      for (const name of [...named, ...HOP_BY_HOP, ...target.dropHeaders]) delete req.headers[name];
      timeouts.set(req, target.timeoutMs);
      if (target.observe) observed.set(req, { started: performance.now(), observe: target.observe });
      // The request timeout bounds the whole exchange, not only each idle gap: an upstream that
      // drips a byte at a time is cut off too (before its head: 504; after it: a broken response).
      const deadline = setTimeout(() => {
        const upstreamRequest = upstreamRequests.get(req);
        if (upstreamRequest) upstreamRequest.destroy(timedOut());
        else if (!res.headersSent) respondWithError(res, upstreamFault(target.catalog, target.what, timedOut(), target.timeoutMs, true), request);
        observeOnce(req, 'UPSTREAM_TIMEOUT');
        if (res.headersSent) res.destroy();
      }, target.timeoutMs);
      return new Promise<void>((resolve) => {
        res.once('close', () => {
          clearTimeout(deadline);
          resolve();
        });
        proxy.web(
          req,
          res,
          {
            target: target.url,
            agent: target.url.startsWith('https:') ? secureAgent : agent,
            headers: { ...target.setHeaders },
            ...(target.body !== undefined && { buffer: Readable.from([Buffer.from(target.body)]) }),
          },
          (err: Error, _req: IncomingMessage, out: ServerResponse | Socket) => {
            const failure = upstreamFault(target.catalog, target.what, err, target.timeoutMs);
            observeOnce(req, failure.code);
            respondWithError(out, failure, request);
            resolve();
          },
        );
      });
    },
    close: () => {
      proxy.close();
      agent.destroy();
      secureAgent.destroy();
    },
  };
}

/** The largest JSON error body read to check that it is an ErrorModel; a larger one is wrapped. */
const MAX_ERROR_BODY = 64 * 1024;

/**
 * A JSON error passes as sent only when it is an ErrorModel for its status (REST spec
 * IcebergErrorResponse; Java's ErrorHandlers read `error.code` and `error.type`); anything else
 * (`{"oops":true}`, a `code` that differs from the status) is wrapped like a non-JSON error. The
 * body is read instead of piped: http-proxy pipes through `proxyRes.pipe` after this event.
 */
function checkJsonError(proxyRes: IncomingMessage, res: ServerResponse, status: number): void {
  proxyRes.pipe = <T extends NodeJS.WritableStream>(dest: T): T => {
    const chunks: Buffer[] = [];
    let size = 0;
    proxyRes.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_ERROR_BODY) chunks.push(chunk);
    });
    proxyRes.once('end', () => {
      const body = Buffer.concat(chunks);
      const decoded = size <= MAX_ERROR_BODY ? decodedBody(body, proxyRes.headers['content-encoding']) : undefined;
      if (decoded !== undefined && isErrorModelFor(status, decoded)) res.end(body);
      else writeModel(res, { message: `Upstream catalog answered ${status} with JSON that is not an Iceberg error`, type: genericErrorType(status), code: status });
    });
    return dest;
  };
}

/**
 * A body as its Content-Encoding (RFC 9110 §8.4) says to read it: identity, gzip, deflate or br,
 * at most MAX_ERROR_BODY bytes decoded; undefined for any other coding or a body that does not
 * decode within that (an upstream that compresses, as Rustberg does, still has its errors read).
 */
function decodedBody(body: Buffer, encoding: string | undefined): Buffer | undefined {
  const coding = (encoding ?? 'identity').trim().toLowerCase();
  const limit = { maxOutputLength: MAX_ERROR_BODY };
  try {
    if (coding === 'identity' || coding === '') return body;
    if (coding === 'gzip' || coding === 'x-gzip') return zlib.gunzipSync(body, limit);
    if (coding === 'deflate') return zlib.inflateSync(body, limit);
    if (coding === 'br') return zlib.brotliDecompressSync(body, limit);
  } catch {
    return undefined;
  }
  return undefined;
}

function isErrorModelFor(status: number, body: Buffer): boolean {
  try {
    const e = (JSON.parse(body.toString('utf8')) as { error?: { message?: unknown; type?: unknown; code?: unknown } } | null)?.error;
    return typeof e?.message === 'string' && typeof e.type === 'string' && e.code === status;
  } catch {
    return false;
  }
}

function timedOut(): Error {
  return Object.assign(new Error('upstream timed out'), { code: 'ETIMEDOUT' });
}

function respondWithError(out: ServerResponse | Socket, err: IcefrontError, request: FastifyRequest): void {
  request.log.warn({ errorType: err.type, status: err.status }, err.message);
  if (!('writeHead' in out)) {
    out.destroy();
    return;
  }
  if (out.headersSent) {
    // The upstream failed mid-response: the client must see a broken response, not a truncated success.
    out.destroy();
    return;
  }
  writeError(out, err);
}

function writeError(out: ServerResponse, err: IcefrontError): void {
  writeModel(out, toErrorModel(err));
}

/** Headers that describe an upstream's body: an answer that replaces the body drops them. */
const ENTITY_HEADERS = ['content-encoding', 'content-length', 'content-range', 'content-language', 'content-location', 'content-md5', 'etag', 'last-modified', 'transfer-encoding'];

function writeModel(out: ServerResponse, model: { message: string; type: string; code: number }): void {
  // http-proxy copied the upstream's head onto the response before its body was judged
  for (const name of ENTITY_HEADERS) out.removeHeader(name);
  const body = JSON.stringify({ error: model });
  out.writeHead(model.code, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  out.end(body);
}
