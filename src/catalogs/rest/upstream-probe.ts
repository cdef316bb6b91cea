/**
 * Whether an upstream answers: one GET {uri}/v1/config (with `?warehouse=` when configured) as
 * Icefront itself, through its transport (RestUpstream.probeConfig: its pool, the catalog's
 * request timeout, one failure mapping), outside its admission gate (a probe measures the
 * upstream, not Icefront's queue) and outside the config cache (it must reach the upstream every
 * time). What it reports names no URL, header or credential.
 */
import { isIcefrontError } from '../../errors/index.js';
import type { RestCatalogConfig } from '../../config/index.js';
import { tlsAdvice, transportCode, transportFault } from './transport-faults.js';
import { awsRefusalOf, describeAwsRefusal } from './aws-error.js';
import type { RestUpstream } from './rest-upstream.js';

/** Why an upstream is not ready. */
export type ProbeFailure = 'status' | 'timeout' | 'connection-refused' | 'unreachable' | 'tls' | 'connection-failed' | 'credentials';

export interface UpstreamProbe {
  readonly ready: boolean;
  /** From sending the request to its answer (or failure). */
  readonly latencyMs: number;
  readonly reason?: ProbeFailure;
  /** The HTTP status, when the upstream answered one that is not a success. */
  readonly status?: number;
  /** For operators: what failed, without URLs or credentials. */
  readonly message?: string;
}


export async function probeUpstream(upstream: RestUpstream, config: RestCatalogConfig, now: () => number = performance.now.bind(performance)): Promise<UpstreamProbe> {
  const started = now();
  const done = (outcome: Omit<UpstreamProbe, 'latencyMs'>): UpstreamProbe => ({ ...outcome, latencyMs: Math.round(now() - started) });
  let headers: Record<string, string>;
  try {
    headers = await upstream.authHeaders(undefined);
  } catch (err) {
    // an oauth2 upstream whose token endpoint refuses or fails; its messages never quote a secret
    return done({ ready: false, reason: 'credentials', message: isIcefrontError(err) ? err.message : 'could not get a token for the upstream' });
  }
  const limit = config.requestTimeoutMs;
  try {
    const answer = await upstream.probeConfig(headers);
    const status = answer.status;
    if (status === 200) return done({ ready: true });
    // forward mode: Icefront has no identity of its own here, so a refusal still is an answer
    if (config.auth.mode === 'forward' && (status === 401 || status === 403)) return done({ ready: true });
    // an AWS front end says why it refused a signature (a wrong key, a skewed clock, an expired token)
    const refusal = awsRefusalOf(answer.headers, answer.body);
    return done({ ready: false, reason: 'status', status, message: `GET /v1/config answered HTTP ${status}${refusal ? ` (${describeAwsRefusal(refusal)})` : ''}` });
  } catch (err) {
    // a sigv4 upstream's credentials could not be had: the provider chain's own words
    if (isIcefrontError(err, 'UPSTREAM_CREDENTIALS_UNAVAILABLE')) return done({ ready: false, reason: 'credentials', message: err.message });
    // the transport's error names the kind (its code) and carries the fault it met (its cause)
    const cause = isIcefrontError(err) ? err.cause : err;
    const code = transportCode(cause);
    const fault = isIcefrontError(err, 'UPSTREAM_TIMEOUT') ? 'timeout' : transportFault(cause);
    if (fault === 'timeout') return done({ ready: false, reason: 'timeout', message: `GET /v1/config: no answer within ${limit} ms` });
    if (fault === 'refused') return done({ ready: false, reason: 'connection-refused', message: 'GET /v1/config: connection refused (ECONNREFUSED)' });
    if (fault === 'unreachable') return done({ ready: false, reason: 'unreachable', message: `GET /v1/config: the upstream cannot be reached (${code})` });
    if (fault === 'untrusted' || fault === 'tls') return done({ ready: false, reason: 'tls', message: `GET /v1/config: ${tlsAdvice(fault, code)} (${code})` });
    // TLS 1.3: a server refusing the client's certificate (or its absence) closes the connection after the handshake
    const hint = /^https:/i.test(config.uri) && !config.tls?.cert ? '; an https upstream that closes every connection at once may want a client certificate (tls.cert-file, tls.key-file)' : '';
    return done({ ready: false, reason: 'connection-failed', message: `GET /v1/config: the connection failed${code ? ` (${code})` : ''}${hint}` });
  }
}
