import type { IncomingHttpHeaders } from 'node:http';
import { genericErrorType, IcefrontError } from '../../errors/index.js';
import { isObject } from './upstream-config.js';
import { awsRefusalOf, describeAwsRefusal } from './aws-error.js';

/** What an upstream answered: status, headers and the exact body bytes. */
export interface UpstreamResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

/** REST spec `ErrorModel`, as found in an upstream's `IcebergErrorResponse` body. */
export interface UpstreamErrorModel {
  readonly message: string;
  readonly type: string;
  readonly code: number;
}

/**
 * An upstream answered 4xx/5xx. Code UPSTREAM_ERROR; unlike every other code its `status` (and
 * `type`, when the body is an ErrorModel) come from the upstream, and `upstream` keeps the exact
 * body bytes so the HTTP layer can pass them through unchanged (wire-format §7: Java dispatches
 * on the body's `type`, so it must not be rewritten). The registry's 502 applies only to a
 * consumer that ignores this subclass.
 */
export class UpstreamResponseError extends IcefrontError {
  declare readonly status: number;
  declare readonly type: string;
  readonly upstream: UpstreamResponse;
  /** The body's ErrorModel, when it is an `IcebergErrorResponse`. */
  readonly errorModel?: UpstreamErrorModel;

  constructor(catalog: string, what: string, response: UpstreamResponse) {
    // An ErrorModel whose code is not the HTTP status is not relayed as one: clients read both.
    const parsed = errorModelOf(response.body);
    const model = parsed?.code === response.status ? parsed : undefined;
    const refusal = model ? undefined : awsRefusalOf(response.headers, response.body);
    const detail = model ? `${model.type}: ${clip(model.message)}` : refusal ? `HTTP ${response.status}, ${describeAwsRefusal(refusal)}` : `HTTP ${response.status}`;
    super('UPSTREAM_ERROR', `Catalog '${catalog}': the upstream answered ${what} with ${response.status} (${detail})`);
    this.name = 'UpstreamResponseError';
    this.status = response.status;
    this.type = model ? model.type : genericErrorType(response.status);
    this.upstream = response;
    if (model) this.errorModel = model;
  }
}

export function isUpstreamResponseError(err: unknown): err is UpstreamResponseError {
  return err instanceof UpstreamResponseError;
}

/** The ErrorModel of an `{"error": {...}}` body, or undefined when the body is anything else. */
export function errorModelOf(body: Buffer): UpstreamErrorModel | undefined {
  let json: unknown;
  try {
    json = JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
  const error = isObject(json) ? json['error'] : undefined;
  if (!isObject(error)) return undefined;
  const { message, type, code } = error;
  if (typeof message !== 'string' || typeof type !== 'string' || typeof code !== 'number') return undefined;
  return { message, type, code };
}

function clip(text: string): string {
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}
