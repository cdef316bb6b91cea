import type { FastifyReply, FastifyRequest } from 'fastify';
import { isUpstreamResponseError } from '../catalogs/index.js';
import { ERROR_CODES, fail, isIcefrontError, type ErrorCode } from '../errors/index.js';
import { noteError } from './request-error.js';

/** REST spec ErrorModel / IcebergErrorResponse (`additionalProperties: false` on the wrapper). */
export interface ErrorModel {
  readonly message: string;
  readonly type: string;
  readonly code: number;
}

export interface IcebergErrorResponse {
  readonly error: ErrorModel;
}

/** fastify's own errors, by their stable code. */
const FASTIFY_ERRORS: Readonly<Record<string, { code: ErrorCode; message: string }>> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { code: 'INVALID_JSON', message: 'Request body is not valid JSON' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: 'INVALID_JSON', message: 'Request body is empty but declared as JSON' },
  FST_ERR_CTP_BODY_TOO_LARGE: { code: 'PAYLOAD_TOO_LARGE', message: "Request body is too large: more than the server's limit (server.body-limit in its configuration)" },
  // a body whose Content-Type is absent or not a media type (server.ts words the other case alike)
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    code: 'UNSUPPORTED_MEDIA_TYPE',
    message: "Request bodies are JSON: send the header Content-Type: application/json (this request's Content-Type is missing or malformed)",
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { code: 'BAD_REQUEST', message: 'Request body length does not match Content-Length' },
  FST_ERR_BAD_URL: { code: 'BAD_REQUEST', message: 'Malformed percent-encoding in the request path' },
  FST_ERR_MAX_PARAM_LENGTH: { code: 'BAD_REQUEST', message: 'A path segment is too long' },
};

/** Any other client error fastify raises, by status; anything unrecognised becomes a 400. */
const BY_STATUS: Readonly<Record<number, ErrorCode>> = {
  400: 'BAD_REQUEST',
  401: 'NOT_AUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  406: 'UNSUPPORTED_OPERATION',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
};

/**
 * Maps anything thrown to an ErrorModel. IcefrontError messages are written for clients and
 * pass through; unexpected errors become a 500 whose message reveals nothing internal.
 */
export function toErrorModel(err: unknown): ErrorModel {
  // an upstream's error keeps the upstream's status (and its type, or the status's generic one)
  if (isUpstreamResponseError(err)) return { message: err.message, type: err.type, code: err.status };
  const e = toIcefrontLike(err);
  return { message: e.message, type: ERROR_CODES[e.code].type, code: ERROR_CODES[e.code].status };
}

function toIcefrontLike(err: unknown): { code: ErrorCode; message: string } {
  if (isIcefrontError(err)) return err;
  const fe = err as { code?: unknown; statusCode?: unknown } | null;
  const known = typeof fe?.code === 'string' ? FASTIFY_ERRORS[fe.code] : undefined;
  if (known) return known;
  const status = typeof fe?.statusCode === 'number' ? fe.statusCode : 500;
  if (status >= 400 && status < 500) return { code: BY_STATUS[status] ?? 'BAD_REQUEST', message: 'Bad request' };
  return { code: 'INTERNAL', message: 'Internal server error' };
}

const UPSTREAM_FAULTS = new Set<ErrorCode>(['UPSTREAM_UNAVAILABLE', 'UPSTREAM_TIMEOUT', 'UPSTREAM_BAD_GATEWAY', 'UPSTREAM_BUSY']);

/**
 * The one place an error becomes a response: the error handler, the not-found handler, the 405
 * answer and fastify's framework errors all end here.
 */
export function sendError(request: FastifyRequest, reply: FastifyReply, err: unknown, headers: Record<string, string> = {}): FastifyReply {
  // wire-format §7: an upstream's ErrorModel passes through with its status, byte for byte.
  if (isUpstreamResponseError(err) && err.errorModel) {
    // the request's logger is bound to its catalog (and `upstream`) already: no key twice in a line
    request.log.info({ errorType: err.type, status: err.status }, err.message);
    noteError(request.raw, { type: err.type, message: err.message });
    return reply.code(err.status).headers(headers).type('application/json').send(err.upstream.body);
  }
  const model = toErrorModel(err);
  // An upstream that is down, slow or broken is the upstream's trouble, not Icefront's: one
  // warning per request, without a stack (the message names the catalog and the cause).
  if (isIcefrontError(err) && UPSTREAM_FAULTS.has(err.code)) request.log.warn({ errorType: model.type, status: model.code }, model.message);
  else if (model.code >= 500) request.log.error({ err }, model.message);
  else request.log.info({ errorType: model.type, status: model.code }, model.message);
  noteError(request.raw, model);
  const body: IcebergErrorResponse = { error: model };
  return reply.code(model.code).headers({ ...challenge(err), ...retryAfter(err), ...headers }).type('application/json').send(JSON.stringify(body));
}

/**
 * RFC 6750 §3: Icefront's own 401 names the scheme it accepts; a token it refused also says
 * `invalid_token` (and nothing about the token). An upstream's 401 passes as the upstream sent it.
 */
function challenge(err: unknown): Record<string, string> {
  if (isIcefrontError(err, 'CREDENTIALS_MISSING')) return { 'www-authenticate': 'Bearer realm="icefront"' };
  if (isIcefrontError(err, 'CREDENTIALS_INVALID')) return { 'www-authenticate': 'Bearer realm="icefront", error="invalid_token"' };
  return {};
}

/** RFC 9110 §10.2.3: a refusal for load, not for the request itself, says when to come back. */
function retryAfter(err: unknown): Record<string, string> {
  return isIcefrontError(err) && err.retryAfterSeconds !== undefined ? { 'retry-after': String(err.retryAfterSeconds) } : {};
}

/** A route that exists in the spec but not for this method. */
export function methodNotAllowed(method: string, allowed: readonly string[]): { err: Error; headers: Record<string, string> } {
  return {
    err: fail('METHOD_NOT_ALLOWED', `Method ${method} is not allowed here; allowed: ${allowed.join(', ')}`),
    headers: { allow: allowed.join(', ') },
  };
}

/**
 * Errors Node's HTTP parser raises before fastify sees a request (malformed request line, huge
 * headers): answered on the socket with the same envelope.
 */
export function clientErrorResponse(err: { code?: string }): string {
  const [status, reason, type, message] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', 'BadRequestException', 'Request headers are too large']
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', 'BadRequestException', 'Request timed out']
        : [400, 'Bad Request', ERROR_CODES.BAD_REQUEST.type, 'Malformed HTTP request'];
  const body = JSON.stringify({ error: { message, type, code: status } } satisfies IcebergErrorResponse);
  return `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
}
