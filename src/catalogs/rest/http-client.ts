import type { Readable } from 'node:stream';
import { Agent, type Dispatcher } from 'undici';
import { upstreamFault } from './transport-faults.js';
import { fail, isIcefrontError, type IcefrontError } from '../../errors/index.js';
import type { ByteBudget } from '../../cache/index.js';
import { TRACING_OFF, type Tracing, type UpstreamObserver } from '../../observability/index.js';
import type { UpstreamResponse } from './upstream-error.js';
import { Deadlines, type ExchangeSignal } from './deadlines.js';
import type { UpstreamTlsConfig } from '../../config/index.js';

/** Why a streamed exchange was ended early: its caller went away (one instance: nobody reads its stack). */
const CALLER_GONE = new Error('the caller went away');

/** Largest upstream body read into memory when the caller names no cap of its own. */
const MAX_BODY_BYTES = 64 * 1024 * 1024;

export interface SendOptions {
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string | Buffer;
  /** Largest body read into memory for this answer (more: 502). */
  readonly maxBytes?: number;
  /** The caller giving up (e.g. the client went away); rethrown as is, not as an upstream fault. */
  readonly signal?: AbortSignal;
  /** False: not told to the observer (a readiness probe reports its own outcome). */
  readonly observed?: boolean;
}

/** Where a request goes: `origin` (scheme://host:port) and the raw path, sent verbatim. */
export interface Target {
  readonly origin: string;
  readonly path: string;
}

/** A request whose answer is streamed back (pass-through): its headers as they are to be sent, and its body. */
export interface StreamRequest {
  readonly method: string;
  readonly headers: Readonly<Record<string, string | string[]>>;
  readonly body: string | Buffer | Readable | null;
}

/** An upstream's answer as it comes: status and headers, and the body still streaming. */
export interface StreamedAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: Readable;
  /** The Iceberg error for the body breaking off with `err` (the deadline passed: a timeout; else as mapped for the exchange). */
  faultOf(err: unknown): IcefrontError;
}

/** A request as it leaves after signing: its path (query re-encoded, perhaps) and every header. */
export interface SignedRequest<H extends string | string[]> {
  readonly path: string;
  readonly headers: Record<string, H>;
}

/**
 * Signs every request of one upstream, as the last step before it is sent (auth.mode sigv4:
 * sigv4-signer.ts), once all its headers are known. A body it must hash is given whole.
 */
export interface RequestSigner {
  sign<H extends string | string[]>(method: string, target: Target, headers: Readonly<Record<string, H>>, body: string | Buffer | Readable | null): Promise<SignedRequest<H>>;
}

/** One streamed exchange under way. */
export interface StreamedExchange {
  /** The answer's head; rejects with an Icefront error (UPSTREAM_*) when the upstream fails before it. */
  readonly answer: Promise<StreamedAnswer>;
  /** Ends the exchange now (its caller went away): the upstream request, or its body, is aborted. */
  cancel(): void;
}

/**
 * One upstream's transport, for every exchange Icefront has with it (issue #30: one policy): a
 * dedicated undici Agent (its one connection pool: connect timeout, headers and body idle
 * timeouts) plus an overall deadline, so no request outlives `requestTimeoutMs` even when the
 * upstream drips bytes. Icefront's own calls read the answer whole (`send`); pass-through streams
 * it (`stream`, which http-proxy-3 is given as its fetch). Transport failures become Icefront
 * errors by one mapping (transport-faults.ts): refused/unresolvable → UPSTREAM_UNAVAILABLE, any
 * timeout → UPSTREAM_TIMEOUT, reset/closed/malformed → UPSTREAM_BAD_GATEWAY.
 */
export class UpstreamHttp {
  readonly agent: Agent;
  readonly #deadlines: Deadlines;
  private readonly budget: ByteBudget | undefined;
  private readonly observer: UpstreamObserver | undefined;
  private readonly tracing: Tracing;
  private readonly signer: RequestSigner | undefined;

  constructor(
    private readonly catalog: string,
    connectTimeoutMs: number,
    private readonly requestTimeoutMs: number,
    options: {
      /** Bytes all upstream answers being read may hold at once (shared by every upstream). */
      readonly budget?: ByteBudget;
      /** Told of each answer (status, latency) and each fault (code, message): `/metrics`, the status page. */
      readonly observer?: UpstreamObserver;
      /** A span per call, and the active trace context sent as `traceparent`. */
      readonly tracing?: Tracing;
      /** The catalog's `tls`: trusted CAs, a client certificate, the name to verify (issue #42). */
      readonly tls?: UpstreamTlsConfig;
      /** Signs each request last, pass-through and Icefront's own calls alike (auth.mode sigv4). */
      readonly signer?: RequestSigner;
    } = {},
  ) {
    this.budget = options.budget;
    this.signer = options.signer;
    this.observer = options.observer;
    this.tracing = options.tracing ?? TRACING_OFF;
    const tls = options.tls;
    this.agent = new Agent({
      connect: {
        timeout: connectTimeoutMs,
        // used for https:// origins only; `ca` replaces Node's bundled roots, as curl's --cacert does
        ...(tls?.ca !== undefined && { ca: tls.ca }),
        ...(tls?.cert !== undefined && { cert: tls.cert, key: tls.key }),
        ...(tls?.serverName !== undefined && { servername: tls.serverName }),
      },
      headersTimeout: requestTimeoutMs,
      bodyTimeout: requestTimeoutMs,
    });
    this.#deadlines = new Deadlines(requestTimeoutMs);
  }

  /** Sends one request and reads the whole body; any status is returned, faults are thrown. */
  send(method: Dispatcher.HttpMethod, target: Target, what: string, options: SendOptions = {}): Promise<UpstreamResponse> {
    return this.tracing.span(`upstream ${what}`, { 'icefront.catalog': this.catalog, 'http.request.method': method }, async (span) => {
      const headers = { ...options.headers };
      this.tracing.inject(headers);
      const res = await this.#send(method, target, what, { ...options, headers });
      span.setAttribute('http.response.status_code', res.status);
      return res;
    });
  }

  async #send(method: Dispatcher.HttpMethod, target: Target, what: string, options: SendOptions): Promise<UpstreamResponse> {
    const deadline = this.#deadlines.begin();
    const started = performance.now();
    // a caller's own signal is combined with the deadline (only AbortSignals combine)
    let signal: AbortSignal | typeof deadline = deadline;
    if (options.signal) {
      const both = new AbortController();
      deadline.addEventListener('abort', () => both.abort(deadline.reason));
      signal = AbortSignal.any([both.signal, options.signal]);
    }
    try {
      const signed = this.signer ? await this.signer.sign(method, target, options.headers ?? {}, options.body ?? null) : undefined;
      const res = await this.#exchange(method, signed ? { origin: target.origin, path: signed.path } : target, what, signed ? { ...options, headers: signed.headers } : options, signal);
      if (options.observed !== false) this.observer?.answered(this.catalog, what, performance.now() - started, res.status);
      return res;
    } catch (err) {
      if (options.signal?.aborted) throw options.signal.reason;
      const fault = this.#fault(err, deadline.aborted, what);
      if (options.observed !== false) this.observer?.failed(this.catalog, what, performance.now() - started, fault.code, fault.message);
      throw fault;
    } finally {
      this.#deadlines.end(deadline);
    }
  }

  /**
   * One exchange whose answer is streamed to its caller: the same pool, deadline (the whole
   * exchange, body included) and failure mapping as `send`, observed when its head comes. The
   * deadline's slot is left when the body closes.
   */
  stream(target: Target, what: string, request: StreamRequest): StreamedExchange {
    const deadline = this.#deadlines.begin();
    const started = performance.now();
    let cancelled = false;
    let over = false;
    const signer = this.signer;
    const sent = signer ? signer.sign(request.method, target, request.headers, request.body) : Promise.resolve({ path: target.path, headers: request.headers });
    const answer = sent
      .then(({ path, headers }) =>
        this.agent.request({ origin: target.origin, path, method: request.method as Dispatcher.HttpMethod, headers, body: request.body, signal: deadline }),
      )
      .then(
        (res): StreamedAnswer => {
          this.observer?.answered(this.catalog, what, performance.now() - started, res.statusCode);
          res.body.once('close', () => {
            over = true;
            this.#deadlines.end(deadline);
          });
          return { status: res.statusCode, headers: res.headers, body: res.body, faultOf: (err) => this.#fault(err, deadline.aborted, what) };
        },
        (err: unknown) => {
          over = true;
          this.#deadlines.end(deadline);
          if (cancelled) throw err;
          const fault = this.#fault(err, deadline.aborted, what);
          this.observer?.failed(this.catalog, what, performance.now() - started, fault.code, fault.message);
          throw fault;
        },
      );
    return {
      answer,
      // called as every streamed response closes: a no-op (no Error made) for an exchange already over
      cancel: () => {
        if (over || deadline.aborted) return;
        cancelled = true;
        deadline.abort(CALLER_GONE);
      },
    };
  }

  close(): Promise<void> {
    return this.agent.close();
  }

  /** An Icefront error for a transport failure; messages name the catalog, never a URL's credentials. */
  #fault(err: unknown, deadlinePassed: boolean, what: string): IcefrontError {
    if (isIcefrontError(err)) return err; // a too-large body
    return upstreamFault(this.catalog, what, err, this.requestTimeoutMs, deadlinePassed);
  }

  /**
   * One exchange through undici's dispatcher, its answer read whole: refused (502) past
   * `maxBytes` or when the shared budget runs out, aborted when `signal` is. A handler of its own
   * rather than `agent.request`: that wraps every answer in a Readable stream read back through
   * its events, a measurable share of a load-table through the door (issue #12 profile).
   */
  #exchange(method: Dispatcher.HttpMethod, target: Target, what: string, options: SendOptions, signal: AbortSignal | ExchangeSignal): Promise<UpstreamResponse> {
    const maxBytes = options.maxBytes ?? MAX_BODY_BYTES;
    const budget = this.budget;
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let taken = 0;
      let status = 0;
      let headers: UpstreamResponse['headers'] = {};
      let controller: Dispatcher.DispatchController | undefined;
      let settled = false;
      const onAbort = () => controller?.abort(signal.reason);
      const settle = (err: unknown, res?: UpstreamResponse) => {
        if (settled) return;
        settled = true;
        signal.removeEventListener('abort', onAbort);
        // the budget counts bytes while they are gathered
        budget?.give(taken);
        if (res) resolve(res);
        else reject(err);
      };
      const refuse = (c: Dispatcher.DispatchController, why: string) => {
        const refused = fail('UPSTREAM_BAD_GATEWAY', `Catalog '${this.catalog}': ${what} ${why}`);
        settle(refused);
        c.abort(refused);
      };
      signal.addEventListener('abort', onAbort);
      this.agent.dispatch(
        { origin: target.origin, path: target.path, method, headers: options.headers ?? {}, body: options.body ?? null },
        {
          onRequestStart: (c) => {
            controller = c;
            if (signal.aborted) c.abort(signal.reason);
          },
          onResponseStart: (_c, statusCode, responseHeaders) => {
            status = statusCode;
            headers = responseHeaders as UpstreamResponse['headers'];
          },
          onResponseData: (c, chunk) => {
            if (settled) return;
            size += chunk.length;
            if (size > maxBytes) return refuse(c, `answered more than ${maxBytes} bytes`);
            if (budget) {
              if (!budget.take(chunk.length)) return refuse(c, `answered while upstream answers already held ${budget.max} bytes in memory`);
              taken += chunk.length;
            }
            chunks.push(chunk);
          },
          onResponseEnd: () => settle(undefined, { status, headers, body: Buffer.concat(chunks, size) }),
          onResponseError: (_c, err) => settle(err),
        },
      );
    });
  }
}
