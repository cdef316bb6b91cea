/**
 * One signed S3 request: SigV4 through aws4fetch, a deadline covering the response body too,
 * and a few retries of what S3 documents as transient (5xx, 429 SlowDown, dropped connections).
 */
import { AwsV4Signer } from 'aws4fetch';
import { isIcefrontError } from '../../errors/index.js';
import { responseError, transportError } from './s3-errors.js';

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
  readonly method: 'GET' | 'HEAD';
  readonly url: string;
  /** The location being read: the only thing errors name. */
  readonly location: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** Statuses besides 2xx handed to `handle` instead of failing (e.g. 416 for a range). */
  readonly accept?: readonly number[];
}

const RETRY_BASE_MS = 50;

export class S3Transport {
  /** Derived signing keys (aws4fetch's cache), per date/region. */
  readonly #signingKeys = new Map<string, ArrayBuffer>();

  constructor(private readonly options: S3TransportOptions) {}

  /** Send `request` and hand the response to `handle` (which reads its body) within the deadline. */
  async exchange<T>(request: S3Request, handle: (res: Response) => Promise<T>): Promise<T> {
    const { timeoutMs, retries } = this.options;
    for (let attempt = 0; ; attempt++) {
      const signal = AbortSignal.timeout(timeoutMs);
      try {
        const init = await this.sign(request);
        const res = await this.options.fetch(init.url, { method: request.method, headers: init.headers, signal, redirect: 'manual' });
        if (isTransientStatus(res.status) && attempt < retries) {
          await res.body?.cancel().catch(() => undefined);
          await backoff(attempt);
          continue;
        }
        if ((res.status >= 200 && res.status < 300) || request.accept?.includes(res.status)) return await handle(res);
        throw await responseError(request.location, res);
      } catch (err) {
        if (isIcefrontError(err)) throw err;
        if (signal.aborted) throw transportError(request.location, err, timeoutMs);
        if (attempt >= retries) throw transportError(request.location, err, undefined);
        await backoff(attempt);
      }
    }
  }

  private async sign(request: S3Request): Promise<{ url: string; headers: Record<string, string> }> {
    const headers = { ...request.headers };
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

function backoff(attempt: number): Promise<void> {
  const ms = RETRY_BASE_MS * 2 ** attempt * (0.5 + Math.random() / 2);
  return new Promise((resolve) => setTimeout(resolve, ms));
}
