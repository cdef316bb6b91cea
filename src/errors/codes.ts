/**
 * The one registry of Icefront error codes. Each code fixes the HTTP status and the Iceberg
 * `ErrorModel.type` a client sees (REST spec, components/schemas/ErrorModel; Java's
 * ErrorHandlers dispatch on `type` for 404s, so the 404 types must be exact).
 * Tests assert codes, never messages.
 */
export const ERROR_CODES = {
  // 400
  BAD_REQUEST: { status: 400, type: 'BadRequestException' },
  INVALID_JSON: { status: 400, type: 'BadRequestException' },
  INVALID_NAMESPACE: { status: 400, type: 'BadRequestException' },
  INVALID_IDENTIFIER: { status: 400, type: 'BadRequestException' },
  INVALID_PAGE: { status: 400, type: 'BadRequestException' },
  INVALID_FILTER: { status: 400, type: 'ValidationException' },
  INVALID_SCAN: { status: 400, type: 'IllegalArgumentException' },
  INVALID_VALUE: { status: 400, type: 'BadRequestException' },
  // a commit or create Java's TableMetadata.Builder / ViewMetadata.Builder refuses: Preconditions.checkArgument, ValidationException.check
  ILLEGAL_ARGUMENT: { status: 400, type: 'IllegalArgumentException' },
  VALIDATION_FAILED: { status: 400, type: 'ValidationException' },
  // 401 / 403 (REST spec UnauthorizedResponse, ForbiddenResponse)
  NOT_AUTHORIZED: { status: 401, type: 'NotAuthorizedException' },
  CREDENTIALS_MISSING: { status: 401, type: 'NotAuthorizedException' }, // no Authorization: Bearer …
  CREDENTIALS_INVALID: { status: 401, type: 'NotAuthorizedException' }, // a token Icefront does not accept
  FORBIDDEN: { status: 403, type: 'ForbiddenException' },
  ACCESS_DENIED: { status: 403, type: 'ForbiddenException' }, // a valid caller no auth.allow rule lets through
  PATH_OUTSIDE_WAREHOUSE: { status: 403, type: 'ForbiddenException' },
  // 404
  NOT_FOUND: { status: 404, type: 'NotFoundException' },
  NO_SUCH_WAREHOUSE: { status: 404, type: 'NoSuchWarehouseException' },
  NO_SUCH_NAMESPACE: { status: 404, type: 'NoSuchNamespaceException' },
  NO_SUCH_TABLE: { status: 404, type: 'NoSuchTableException' },
  NO_SUCH_VIEW: { status: 404, type: 'NoSuchViewException' },
  NO_SUCH_PLAN_ID: { status: 404, type: 'NoSuchPlanIdException' },
  NO_SUCH_PLAN_TASK: { status: 404, type: 'NoSuchPlanTaskException' },
  FILE_NOT_FOUND: { status: 404, type: 'NotFoundException' },
  // 409 (REST spec: createNamespace, createTable, renameTable, dropNamespace, updateTable)
  ALREADY_EXISTS: { status: 409, type: 'AlreadyExistsException' },
  NAMESPACE_NOT_EMPTY: { status: 409, type: 'NamespaceNotEmptyException' },
  COMMIT_FAILED: { status: 409, type: 'CommitFailedException' }, // a requirement no longer holds, or a lost race
  // REST spec updateProperties 422: a key both removed and updated
  UNPROCESSABLE: { status: 422, type: 'UnprocessableEntityException' },
  // 405 / 406 / 413
  METHOD_NOT_ALLOWED: { status: 405, type: 'MethodNotAllowedException' },
  UNSUPPORTED_OPERATION: { status: 406, type: 'UnsupportedOperationException' },
  PAYLOAD_TOO_LARGE: { status: 413, type: 'PayloadTooLargeException' },
  RATE_LIMITED: { status: 429, type: 'SlowDownException' }, // auth.limits for this principal; the spec's name for throttling
  UNSUPPORTED_MEDIA_TYPE: { status: 415, type: 'UnsupportedMediaTypeException' },
  // 5xx
  INTERNAL: { status: 500, type: 'InternalServerError' },
  INVALID_METADATA: { status: 500, type: 'InvalidTableMetadataException' },
  STORAGE_FAILURE: { status: 500, type: 'RuntimeIOException' },
  // REST spec updateTable 500/502/504 CommitStateUnknownException: the store failed mid-write; clients must not assume it failed
  COMMIT_STATE_UNKNOWN: { status: 500, type: 'CommitStateUnknownException' },
  UPSTREAM_BAD_GATEWAY: { status: 502, type: 'BadGatewayException' },
  UPSTREAM_UNAVAILABLE: { status: 503, type: 'ServiceUnavailableException' },
  UPSTREAM_BUSY: { status: 503, type: 'ServiceUnavailableException' }, // its limits.max-in-flight are taken and the queue is full or too slow
  UPSTREAM_CREDENTIALS_UNAVAILABLE: { status: 503, type: 'ServiceUnavailableException' }, // a sigv4 upstream's AWS credentials could not be had
  IDENTITY_PROVIDER_UNAVAILABLE: { status: 503, type: 'ServiceUnavailableException' }, // the JWKS could not be fetched
  SHUTTING_DOWN: { status: 503, type: 'ServiceUnavailableException' }, // the server is closing: planning no longer takes work
  UPSTREAM_TIMEOUT: { status: 504, type: 'GatewayTimeoutException' },
  UPSTREAM_ERROR: { status: 502, type: 'BadGatewayException' }, // status/type/body come from the upstream (catalogs UpstreamResponseError)
  // not HTTP: start-up
  CONFIG_INVALID: { status: 500, type: 'ConfigurationException' },
  LISTEN_FAILED: { status: 500, type: 'ConfigurationException' }, // the address is taken, not this machine's, or needs privileges
} as const satisfies Record<string, { status: number; type: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

/**
 * The ErrorModel `type` for an HTTP status whose answer carries none (an upstream's error body
 * that is not an ErrorModel): the exceptions Iceberg Java's ErrorHandlers map each status to.
 */
export function genericErrorType(status: number): string {
  switch (status) {
    case 400:
      return 'BadRequestException';
    case 401:
      return 'NotAuthorizedException';
    case 403:
      return 'ForbiddenException';
    case 404:
      return 'NotFoundException';
    case 406:
      return 'UnsupportedOperationException';
    case 429:
      return 'SlowDownException';
    case 503:
      return 'ServiceUnavailableException';
    default:
      return status >= 500 ? 'ServiceFailureException' : 'RESTException';
  }
}
