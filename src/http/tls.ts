/**
 * Icefront over HTTPS (issue #42 item 3): the secure-context options of `server.tls`, the check
 * that a caller presented a certificate signed by `ca-file` when one is configured, and the swap
 * of certificates on reload (new connections get the new ones; open ones finish on theirs).
 */
import type { Server as TlsServer, TLSSocket } from 'node:tls';
import type { ServerTlsConfig } from '../config/index.js';
import { fail, type IcefrontError } from '../errors/index.js';

/** Paths served without a client certificate: the probes an orchestrator sends (it has none). */
const PROBE_PATHS = new Set(['/healthz', '/readyz']);

/** Node's secure-context options for `server.tls`. With a CA, certificates are asked for and judged per request (`clientCertificateRefusal`). */
export function secureOptions(tls: ServerTlsConfig): { cert: string; key: string; ca?: string; requestCert?: boolean; rejectUnauthorized?: boolean } {
  // The handshake does not refuse a missing or unknown certificate itself: a probe has none,
  // and a refused handshake tells a client nothing it can read.
  return { cert: tls.cert, key: tls.key, ...(tls.ca !== undefined && { ca: tls.ca, requestCert: true, rejectUnauthorized: false }) };
}

/**
 * Why a request may not be served for want of a client certificate, or undefined when it may:
 * with `server.tls.ca-file` every request but the probes' needs one that chains to it.
 */
export function clientCertificateRefusal(socket: TLSSocket, path: string): IcefrontError | undefined {
  if (socket.authorized || PROBE_PATHS.has(path)) return undefined;
  const reason = socket.authorizationError ? ` (${String(socket.authorizationError)})` : '';
  const given = socket.getPeerCertificate()?.subject !== undefined;
  return fail('NOT_AUTHORIZED', given ? `The client certificate was not accepted${reason}: it must be signed by a CA in server.tls.ca-file` : 'A client certificate is required: Icefront accepts TLS connections with a certificate signed by a CA in server.tls.ca-file');
}

/** Serves `tls`'s certificates to connections made from now on. */
export function replaceCertificates(server: TlsServer, tls: ServerTlsConfig): void {
  server.setSecureContext(secureOptions(tls));
}
