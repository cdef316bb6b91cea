import { ERROR_CODES, type ErrorCode } from './codes.js';

/** The one error class of Icefront. `http/` turns it into an Iceberg ErrorModel. */
export class IcefrontError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly type: string;
  /** For a refusal under load: when to come back (RFC 9110 §10.2.3 Retry-After), in seconds. */
  readonly retryAfterSeconds?: number;

  constructor(code: ErrorCode, message: string, options?: { cause?: unknown; retryAfterSeconds?: number }) {
    super(message, options);
    this.name = 'IcefrontError';
    this.code = code;
    this.status = ERROR_CODES[code].status;
    this.type = ERROR_CODES[code].type;
    if (options?.retryAfterSeconds !== undefined) this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

/** True when `err` is an IcefrontError, optionally with the given code. */
export function isIcefrontError(err: unknown, code?: ErrorCode): err is IcefrontError {
  return err instanceof IcefrontError && (code === undefined || err.code === code);
}

/** Shorthand: `throw fail('NO_SUCH_TABLE', 'Table does not exist: db.t')`. */
export function fail(code: ErrorCode, message: string, cause?: unknown): IcefrontError {
  return new IcefrontError(code, message, cause === undefined ? undefined : { cause });
}

/** A refusal under load (429, 503) that tells the caller when to retry. */
export function slowDown(code: ErrorCode, message: string, retryAfterSeconds: number): IcefrontError {
  return new IcefrontError(code, message, { retryAfterSeconds: Math.max(1, Math.ceil(retryAfterSeconds)) });
}
