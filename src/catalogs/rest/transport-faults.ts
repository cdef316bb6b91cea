/**
 * The one reading of a transport failure toward an upstream, for every way Icefront reaches one:
 * its own calls (undici, http-client.ts), the background probe (upstream-probe.ts) and streamed
 * pass-through (http-proxy-3 over Node's http). undici's stable `UND_ERR_*` codes and Node's
 * socket errnos name the same faults; each becomes one Iceberg error, whichever path met it
 * (issue #30: the two paths had drifted apart).
 */
import { fail, type ErrorCode, type IcefrontError } from '../../errors/index.js';

/**
 * `untrusted`: the upstream's certificate was not accepted (its chain, its dates, or the name it
 * holds); `tls`: the handshake failed otherwise (the upstream refused it, e.g. for want of a
 * client certificate, or it does not speak TLS on that port).
 */
export type TransportFault = 'timeout' | 'refused' | 'unreachable' | 'untrusted' | 'tls' | 'broken';

const TIMEOUTS = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT', 'ESOCKETTIMEDOUT']);
const UNREACHABLE = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EHOSTDOWN']);
/** OpenSSL's certificate verification codes as Node's tls names them, and Node's own name check. */
const UNTRUSTED = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_SIGNATURE_FAILURE',
  'CERT_REVOKED',
  'INVALID_CA',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

const ERRORS: Readonly<Record<TransportFault, ErrorCode>> = {
  timeout: 'UPSTREAM_TIMEOUT',
  refused: 'UPSTREAM_UNAVAILABLE',
  unreachable: 'UPSTREAM_UNAVAILABLE',
  untrusted: 'UPSTREAM_BAD_GATEWAY',
  tls: 'UPSTREAM_BAD_GATEWAY',
  broken: 'UPSTREAM_BAD_GATEWAY',
};

/** What an operator does about a TLS fault, by its code. */
export function tlsAdvice(fault: 'untrusted' | 'tls', code: string): string {
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') return "the upstream's TLS certificate does not name the host Icefront connects to: set tls.server-name to a name it holds";
  if (code === 'CERT_HAS_EXPIRED' || code === 'CERT_NOT_YET_VALID') return "the upstream's TLS certificate is outside its validity dates";
  if (fault === 'untrusted') return "the upstream's TLS certificate is not signed by a trusted CA: give its CA as tls.ca-file";
  if (/CERTIFICATE_REQUIRED|BAD_CERTIFICATE|UNKNOWN_CA|HANDSHAKE_FAILURE/.test(code))
    return 'the upstream refused the TLS handshake: it may want a client certificate it trusts (tls.cert-file, tls.key-file)';
  if (/WRONG_VERSION_NUMBER|PACKET_LENGTH_TOO_LONG|HTTP_REQUEST/.test(code)) return 'the upstream does not speak TLS on that port: check the uri (http:// or https://)';
  return 'the TLS handshake with the upstream failed';
}

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
  if (UNTRUSTED.has(code)) return 'untrusted';
  if (code.startsWith('ERR_SSL_') || code === 'EPROTO') return 'tls';
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
        : fault === 'untrusted' || fault === 'tls'
          ? `failed: ${tlsAdvice(fault, code)}`
          : 'could not reach the upstream';
  return fail(ERRORS[fault], `Catalog '${catalog}': ${what} ${reason}${code ? ` (${code})` : ''}`, err);
}
