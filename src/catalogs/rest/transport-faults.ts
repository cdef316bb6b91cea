/**
 * The one reading of a transport failure toward an upstream, for every way Icefront reaches one:
 * its own calls (undici, http-client.ts), the background probe (upstream-probe.ts) and streamed
 * pass-through (http-proxy-3 over Node's http). undici's stable `UND_ERR_*` codes and Node's
 * socket errnos name the same faults; each becomes one Iceberg error, whichever path met it
 * (issue #30: the two paths had drifted apart).
 */
import { fail, type ErrorCode, type IcefrontError } from '../../errors/index.js';

export type TransportFault = 'timeout' | 'refused' | 'unreachable' | 'broken';

const TIMEOUTS = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT', 'ESOCKETTIMEDOUT']);
const UNREACHABLE = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EHOSTDOWN']);

const ERRORS: Readonly<Record<TransportFault, ErrorCode>> = {
  timeout: 'UPSTREAM_TIMEOUT',
  refused: 'UPSTREAM_UNAVAILABLE',
  unreachable: 'UPSTREAM_UNAVAILABLE',
  broken: 'UPSTREAM_BAD_GATEWAY',
};

/** undici's or the socket's code (`ECONNREFUSED`, `UND_ERR_SOCKET`…), on the error or its causes; '' when none has one. */
export function transportCode(err: unknown): string {
  for (let e = err, depth = 0; e && depth < 3; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return '';
}

/** What kind of fault `err` is; `deadlinePassed`: the request's own deadline ended it. */
export function transportFault(err: unknown, deadlinePassed = false): TransportFault {
  const code = transportCode(err);
  if (deadlinePassed || TIMEOUTS.has(code)) return 'timeout';
  if (code === 'ECONNREFUSED') return 'refused';
  if (UNREACHABLE.has(code)) return 'unreachable';
  return 'broken';
}

/**
 * The Iceberg error a client is told: `Catalog '<name>': <what> <reason> (<code>)`, naming the
 * catalog and never a URL (which may carry credentials).
 */
export function upstreamFault(catalog: string, what: string, err: unknown, limitMs: number, deadlinePassed = false): IcefrontError {
  const fault = transportFault(err, deadlinePassed);
  const code = transportCode(err);
  const reason =
    fault === 'timeout'
      ? `timed out (limit ${limitMs} ms)`
      : fault === 'broken'
        ? 'failed: the upstream closed or broke the connection'
        : 'could not reach the upstream';
  return fail(ERRORS[fault], `Catalog '${catalog}': ${what} ${reason}${code ? ` (${code})` : ''}`, err);
}
