/**
 * One signed S3 request: SigV4 through aws4fetch, a deadline covering the response body too,
 * and a few retries of what S3 documents as transient (5xx, 429 SlowDown, dropped connections).
 * A request that is not idempotent (a conditional PUT) is tried again only after an answer that
 * says it was not carried out (429, 503 SlowDown): after a dropped connection or another 5xx it
 * may have been, and a second attempt would answer for the first.
 */
import { createHash } from 'node:crypto';
import { AwsV4Signer } from 'aws4fetch';
import { isIcefrontError } from '../../errors/index.js';
import { responseError, transportError, type S3Action } from './s3-errors.js';

export interface S3Credentials {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  readonly sessionToken?: string;
}

export interface S3TransportOptions {
  readonly region: string;
  /** Unsigned (anonymous) requests when absent. */
  readonly credentials?: S3Credentials;
  readonly fetch: typeof fetch;
  /** Deadline of one attempt, from sending the request to the last byte of its body. */
  readonly timeoutMs: number;
  /** Further attempts after a transient failure (timeouts are not retried). */
  readonly retries: number;
}

export interface S3Request {
  readonly method: 'GET' | 'HEAD' | 'PUT' | 'DELETE' | 'POST';
  readonly url: string;
  /** The location being read or written: the only thing errors name. */
  readonly location: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** The request body (PUT, POST); its SHA-256 is signed (x-amz-content-sha256), so S3 refuses altered bytes. */
  readonly body?: Uint8Array;
  /** Statuses besides 2xx handed to `handle` instead of failing (e.g. 416 for a range). */
  readonly accept?: readonly number[];
  /** What failures say was being done (default `read`). */
  readonly action?: S3Action;
  /** False for a request a repetition could answer differently (a conditional PUT); see above. Default true. */
  readonly idempotent?: boolean;
}

const RETRY_BASE_MS = 50;

export class S3Transport {
  /** Derived signing keys (aws4fetch's cache), per date/region. */
  readonly #signingKeys = new Map<string, ArrayBuffer>();

  constructor(private readonly options: S3TransportOptions) {}

  /** Send `request` and hand the response to `handle` (which reads its body) within the deadline. */
  async exchange<T>(request: S3Request, handle: (res: Response) => Promise<T>): Promise<T> {
    const { timeoutMs, retries } = this.options;
    const idempotent = request.idempotent !== false;
    const action = request.action ?? 'read';
    for (let attempt = 0; ; attempt++) {
      const signal = AbortSignal.timeout(timeoutMs);
      try {
        const init = await this.sign(request);
        const res = await this.options.fetch(init.url, {
          method: request.method,
          headers: init.headers,
          ...(request.body && { body: request.body as Uint8Array<ArrayBuffer> }),
          signal,
          redirect: 'manual',
        });
        if (isTransientStatus(res.status) && attempt < retries && (idempotent || isNotCarriedOut(res.status))) {
          await res.body?.cancel().catch(() => undefined);
          await backoff(attempt);
          continue;
        }
        if ((res.status >= 200 && res.status < 300) || request.accept?.includes(res.status)) return await handle(res);
        throw await responseError(request.location, res, action);
      } catch (err) {
        if (isIcefrontError(err)) throw err;
        if (signal.aborted) throw transportError(request.location, err, timeoutMs, action);
        if (attempt >= retries || !idempotent) throw transportError(request.location, err, undefined, action);
        await backoff(attempt);
      }
    }
  }

  private async sign(request: S3Request): Promise<{ url: string; headers: Record<string, string> }> {
    const headers: Record<string, string> = { ...request.headers };
    if (request.body) headers['x-amz-content-sha256'] = createHash('sha256').update(request.body).digest('hex');
    const credentials = this.options.credentials;
    if (!credentials) return { url: request.url, headers };
    const signer = new AwsV4Signer({
      method: request.method,
      url: request.url,
      headers,
      accessKeyId: credentials.accessKeyId,
      secretAccessKey: credentials.secretAccessKey,
      sessionToken: credentials.sessionToken,
      service: 's3',
      region: this.options.region,
      cache: this.#signingKeys,
    });
    const signed = await signer.sign();
    const signedHeaders: Record<string, string> = {};
    signed.headers.forEach((value, name) => {
      signedHeaders[name] = value;
    });
    return { url: signed.url.href, headers: signedHeaders };
  }
}

/** S3's transient statuses: 500 InternalError, 502, 503 SlowDown, 504, and 429 throttling. */
function isTransientStatus(status: number): boolean {
  return status === 429 || (status >= 500 && status !== 501);
}

/** 429 and 503 SlowDown: S3 turned the request away before carrying it out. */
function isNotCarriedOut(status: number): boolean {
  return status === 429 || status === 503;
}

function backoff(attempt: number): Promise<void> {
  const ms = RETRY_BASE_MS * 2 ** attempt * (0.5 + Math.random() / 2);
  return new Promise((resolve) => setTimeout(resolve, ms));
}
