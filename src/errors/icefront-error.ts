import { ERROR_CODES, type ErrorCode } from './codes.js';

/** The one error class of Icefront. `http/` turns it into an Iceberg ErrorModel. */
export class IcefrontError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly type: string;

  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'IcefrontError';
    this.code = code;
    this.status = ERROR_CODES[code].status;
    this.type = ERROR_CODES[code].type;
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
