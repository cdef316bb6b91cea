/**
 * Byte pass-through to an upstream REST catalog (http-proxy-3): bodies streamed both ways, the
 * path already rewritten by the caller, the query forwarded raw, hop-by-hop headers dropped,
 * X-Forwarded-* set, and upstream failures mapped to Iceberg errors (refused → 503, timeout →
 * 504, reset or garbage → 502). Nothing here decodes or re-encodes what it forwards; a JSON error
 * body is decoded only to check it is an ErrorModel, and then passes as it came.
 *
 * The exchange itself goes through the upstream's own transport (catalogs/rest http-client.ts,
 * given to http-proxy-3 as its `fetch`): one connection pool, one deadline model and one failure
 * mapping per upstream, for streamed requests and Icefront's own calls alike (issue #30).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { PassThrough as BodyStream, type Readable } from 'node:stream';
import zlib from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { createProxyServer } from 'http-proxy-3';
import { awsRefusalOf, describeAwsRefusal, upstreamFault, type StreamedAnswer, type StreamedExchange, type StreamRequest } from '../../catalogs/index.js';
import { fail, genericErrorType, isIcefrontError, type IcefrontError } from '../../errors/index.js';
import { toErrorModel } from '../error-response.js';
import { requestSlot } from '../request-slot.js';
import { readUpTo } from './read-up-to.js';

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
  /** The upstream's request timeout (whole exchange), as a failure's message names it. */
  readonly timeoutMs: number;
  /** The request body, when Icefront already read it from the client (else it is streamed). */
  readonly body?: string;
  /** The upstream's transport: sends the request as http-proxy-3 prepared it and streams the answer back. */
  exchange(request: StreamRequest): StreamedExchange;
}

/** RFC 9110 §7.6.1 hop-by-hop fields, plus proxy-specific ones a client must not steer. */
const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'upgrade'];
/**
 * Request fields the transport sets itself for its own connection: framing (Transfer-Encoding),
 * persistence (http-proxy asks for `Connection: close` when it is given no agent) and Expect
 * (Node's server already answered any `100-continue`, RFC 9110 §10.1.1).
 */
const TRANSPORT_OWNED = new Set(['connection', 'keep-alive', 'transfer-encoding', 'expect', 'upgrade']);

export interface PassThrough {
  forward(request: FastifyRequest, reply: FastifyReply, target: PassThroughTarget): Promise<void>;
  close(): void;
}

/** What http-proxy-3's fetch path calls its fetch with (web-incoming `prepareRequest`). */
interface ProxyInit {
  readonly method: string;
  readonly headers: Headers;
  readonly body?: Readable | null;
}

/**
 * An answer in the shape http-proxy-3's fetch path reads: status and `headers.entries()`, from
 * which it writes the client's head. Its `body` is null: http-proxy-3 would wrap a body in
 * `Readable.from` (a promise per chunk); the upstream's body is piped to the client as it is,
 * once the head is written (`pipeBody`).
 */
class FetchShaped {
  readonly statusText = '';
  readonly headers: { entries(): IterableIterator<[string, string | string[]]> };
  readonly body = null;
  /** What goes to the client after the head: the upstream's body, or the body already read. */
  payload: Readable | Buffer;
  private readonly fields: Record<string, string | string[]> = {};

  constructor(readonly answer: StreamedAnswer) {
    for (const name in answer.headers) {
      const value = answer.headers[name];
      // Set-Cookie never passes: Icefront's callers hold no session with its upstreams.
      if (value !== undefined && name !== 'set-cookie') this.fields[name] = value;
    }
    this.headers = { entries: () => Object.entries(this.fields)[Symbol.iterator]() };
    this.payload = answer.body;
  }

  get status(): number {
    return this.answer.status;
  }

  /** The whole body, read: it goes out with its length (in its Content-Encoding, as read). */
  readWhole(body: Buffer): void {
    this.payload = body;
    delete this.fields['transfer-encoding'];
    this.fields['content-length'] = String(body.length);
  }
}

export function createPassThrough(): PassThrough {
  const proxy = createProxyServer({ xfwd: true, changeOrigin: true, ignorePath: true, followRedirects: false });
  // A listener keeps http-proxy from throwing on errors that arrive without a per-call callback.
  proxy.on('error', () => undefined);
  // http-proxy-3 has written the client's head from the answer (or an error was written instead):
  // the body follows, unless the response is already over.
  const answers = requestSlot<FetchShaped>('icefront.upstreamAnswer');
  proxy.on('end', (req: IncomingMessage, res: ServerResponse) => {
    const answer = answers.get(req);
    if (answer && !res.writableEnded) pipeBody(answer.payload, res);
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
      // RFC 9112 §6.3: a request has a body when it says so (Transfer-Encoding, or a Content-Length
      // other than 0), read from its headers as the client sent them: http-proxy-3 adds
      // `content-length: 0` to every DELETE and OPTIONS before the fetch below sees them
      const length = req.headers['content-length'];
      const bodied = req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
      let exchange: StreamedExchange | undefined;
      const send = async (_url: string, init: ProxyInit): Promise<FetchShaped> => {
        const headers: Record<string, string> = {};
        for (const [name, value] of init.headers) if (!TRANSPORT_OWNED.has(name)) headers[name] = value;
        // http-proxy-3 hands over the client's request itself as the body (for any method but GET
        // and HEAD); the transport is given a stream of its own instead (ownBody), and none for a
        // request that has no body (an empty one included: a signed upstream hashes it as empty)
        const body = target.body ?? (init.body && bodied ? ownBody(req) : null);
        exchange = target.exchange({ method: init.method, headers, body });
        const answer = new FetchShaped(await exchange.answer);
        answers.set(req, answer);
        return answer;
      };
      return new Promise<void>((resolve) => {
        res.once('close', () => {
          // the client went away (or was answered): an exchange still running ends here
          exchange?.cancel();
          resolve();
        });
        proxy.web(
          req,
          res,
          {
            target: target.url,
            headers: { ...target.setHeaders },
            fetch: send as unknown as typeof fetch,
            fetchOptions: {
              onAfterResponse: async (answer) => {
                const shaped = answer as unknown as FetchShaped;
                await judge(shaped, res, target.catalog);
                if (!res.writableEnded && closeDelimited(req, shaped)) await readBeforeHead(shaped, res);
              },
            },
          },
          (err: Error, _req: IncomingMessage, out: ServerResponse | Socket) => {
            const failure = isIcefrontError(err) ? err : upstreamFault(target.catalog, target.what, err, target.timeoutMs);
            respondWithError(out, failure, request);
            resolve();
          },
        );
      });
    },
    close: () => proxy.close(),
  };
}

/**
 * The client's request body as a stream the upstream exchange owns (issue #38). A transport
 * destroys a body it cannot send (refused, reset, deadline, cancelled), and undici, given a
 * server's IncomingMessage, first sets its `socket` to null (undici core/util.js `destroy`, so as
 * not to close the client's connection): every `error` listener on the client's request then
 * runs on a request without a socket, and http-proxy-3's reads `req.socket.destroyed`, which
 * threw and ended the process. Only this stream is destroyed now: the client's request stays
 * whole, so its failure is answered with an ErrorModel. What the client still sends once the
 * exchange is over is read and dropped (as Node drops an unread body), so its connection can
 * carry the answer and the next request; a client request that breaks off ends this stream with
 * an error, which the exchange reports.
 */
function ownBody(req: IncomingMessage): BodyStream {
  const body = new BodyStream();
  // the transport reports a broken body through the exchange; a listener keeps it from being thrown
  body.on('error', () => undefined);
  req.pipe(body);
  const brokeOff = () => {
    if (!req.complete) body.destroy(new Error('the client closed its request before its body was complete'));
  };
  req.once('close', brokeOff);
  req.once('error', brokeOff);
  body.once('close', () => {
    req.off('close', brokeOff);
    req.off('error', brokeOff);
    req.unpipe(body);
    if (!req.complete) req.resume();
  });
  return body;
}

/**
 * An upstream answer the client must not see as sent, judged from its head before any byte goes
 * out: a redirect (it would lead the caller, and its credentials, elsewhere) is a 502; a JSON
 * error passes only when it is an ErrorModel; any other error (a stack trace, S3's XML, an AWS
 * front end's refusal of a signature) is wrapped in an ErrorModel with the upstream's status that
 * names the catalog, and AWS's error type and message when it is AWS's. Ending the response here
 * stops the pipe.
 */
async function judge(shaped: FetchShaped, res: ServerResponse, catalog: string): Promise<void> {
  const { status, headers, body } = shaped.answer;
  const redirect = status >= 300 && status < 400 && status !== 304;
  if (!redirect && status < 400) return;
  if (redirect) {
    body.resume();
    return writeError(res, fail('UPSTREAM_BAD_GATEWAY', `Catalog '${catalog}': the upstream answered a redirect (${status}), which Icefront does not follow`));
  }
  const type = String(headers['content-type'] ?? 'no content type').split(';')[0]!.slice(0, 60);
  const json = /^application\/(?:[\w.+-]*\+)?json\b/i.test(type);
  // AWS answers in its own JSON (application/x-amz-json-1.1) or XML, and names the error in a header
  const aws = headers['x-amzn-errortype'] !== undefined || /^application\/x-amz-json|xml$/i.test(type);
  if (!json && !aws) {
    body.resume();
    return writeModel(res, { message: `Catalog '${catalog}': the upstream answered ${status} with ${type}, not an Iceberg error`, type: genericErrorType(status), code: status });
  }
  const read = await readError(body);
  const decoded = read && decodedBody(read, headers['content-encoding']);
  // an ErrorModel passes as sent, with the upstream's head (its Content-Encoding too)
  if (json && decoded !== undefined && isErrorModelFor(status, decoded)) {
    shaped.payload = read!;
    return;
  }
  const refusal = awsRefusalOf(headers, decoded);
  const said = refusal ? `(${describeAwsRefusal(refusal)})` : json ? 'with JSON that is not an Iceberg error' : `with ${type}, not an Iceberg error`;
  writeModel(res, { message: `Catalog '${catalog}': the upstream answered ${status} ${said}`, type: genericErrorType(status), code: status });
}

/**
 * RFC 9112 §6.3: an answer to an HTTP/1.0 request carries no chunked coding, so one without a
 * Content-Length is delimited by closing the connection, and a body cut short then looks whole.
 * That is how nginx talks to its upstreams unless told otherwise (`proxy_http_version` 1.0), and it
 * passes such a body on as complete: a client behind it would see a truncated 200.
 */
function closeDelimited(req: IncomingMessage, shaped: FetchShaped): boolean {
  const { status, headers } = shaped.answer;
  return req.httpVersion === '1.0' && req.method !== 'HEAD' && status !== 204 && status !== 304 && headers['content-length'] === undefined;
}

/** The most an answer to an HTTP/1.0 request is read before its head; a larger one is streamed after what was read. */
const MAX_READ_BEFORE_HEAD = 64 * 1024 * 1024;

/**
 * For such an answer the body is read before the head goes out, and sent with its length; an
 * upstream failure meanwhile is answered as any failure before the head (its ErrorModel: 502,
 * 504). Past MAX_READ_BEFORE_HEAD the body is streamed on after what was read, close-delimited.
 */
async function readBeforeHead(shaped: FetchShaped, res: ServerResponse): Promise<void> {
  try {
    const read = await readUpTo(shaped.answer.body, MAX_READ_BEFORE_HEAD);
    if (Buffer.isBuffer(read)) shaped.readWhole(read);
    else shaped.payload = read;
  } catch (err) {
    // the client may have gone away meanwhile (that cancels the exchange): nobody to answer then
    if (!res.destroyed) writeError(res, shaped.answer.faultOf(err));
  }
}

/**
 * The upstream's body to the client. A body that breaks off (reset, or the exchange's deadline)
 * breaks the client's response too: its head is out, so only a broken connection tells the
 * client the answer is incomplete.
 */
function pipeBody(payload: Readable | Buffer, res: ServerResponse): void {
  if (Buffer.isBuffer(payload)) {
    res.end(payload);
    return;
  }
  payload.once('error', () => res.destroy());
  payload.pipe(res);
}

/** The largest JSON error body read to check that it is an ErrorModel; a larger one is wrapped. */
const MAX_ERROR_BODY = 64 * 1024;

/**
 * A JSON error body, read whole to check that it is an ErrorModel (REST spec
 * IcebergErrorResponse; Java's ErrorHandlers read `error.code` and `error.type`): undefined when
 * it runs past MAX_ERROR_BODY or breaks off.
 */
async function readError(body: Readable): Promise<Buffer | undefined> {
  const read = await readUpTo(body, MAX_ERROR_BODY).catch(() => undefined);
  if (read === undefined || Buffer.isBuffer(read)) return read;
  body.destroy(); // too large to judge: nothing more of it is read
  return undefined;
}

/**
 * A body as its Content-Encoding (RFC 9110 §8.4) says to read it: identity, gzip, deflate or br,
 * at most MAX_ERROR_BODY bytes decoded; undefined for any other coding or a body that does not
 * decode within that (an upstream that compresses, as Rustberg does, still has its errors read).
 */
function decodedBody(body: Buffer, encoding: string | string[] | undefined): Buffer | undefined {
  const coding = String(encoding ?? 'identity').trim().toLowerCase();
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
