/**
 * The unprefixed S3 signer of Iceberg Java 1.11 and older. S3V4RestSignerClient posts every
 * signing request to `resolveEndpoint(s3.signer.uri ?? signer.uri ?? uri, s3.signer.endpoint ??
 * signer.endpoint ?? "v1/aws/s3/sign")`: with no endpoint configured, to `{signer uri}/v1/aws/s3/sign`,
 * a path that names no catalog. Rewritten to Icefront's base alone, that request could not be told
 * apart from another catalog's; so a signer uri that is the upstream itself is rewritten to a
 * per-catalog mount, `{public url}/v1/{catalog}/s3-signer`, which Icefront's http layer
 * (http/legacy-signer.ts) forwards to that catalog's upstream only, as `{upstream uri}/v1/aws/s3/sign`.
 */
import { encodeSegment } from './paths.js';

/** Java's S3V4RestSignerClient.S3_SIGNER_DEFAULT_ENDPOINT (deprecated in 1.11, gone in 1.12). */
export const LEGACY_SIGNER_ENDPOINT = 'v1/aws/s3/sign';
/** The segment after `/v1/{catalog}` that no REST spec route uses (theirs: namespaces, tables, views, transactions). */
export const SIGNER_MOUNT = 's3-signer';

/** The signer base uri keys, in Java's order of precedence (1.11: `s3.signer.uri`, then `signer.uri`). */
const SIGNER_URI_KEYS = new Set(['s3.signer.uri', 'signer.uri']);

export interface SignerMountContext {
  readonly name: string;
  readonly publicBaseUrl: string;
  readonly upstreamBases: readonly string[];
}

/**
 * For a signer uri key whose value is exactly the upstream (one of its bases, trailing slash
 * aside) in a property map that leaves the endpoint to Java's default (none set, or the default
 * spelled out): the catalog's signer mount on Icefront. Undefined otherwise: the value is then
 * rewritten like any other (a signer on another host stays; one with a catalog endpoint
 * `v1/{prefix}/…/sign` already reaches the spec's sign route through Icefront's base).
 */
export function signerMountUri(key: string, value: string, properties: Readonly<Record<string, string>>, ctx: SignerMountContext): string | undefined {
  if (!SIGNER_URI_KEYS.has(key)) return undefined;
  const endpoint = properties['s3.signer.endpoint'] ?? properties['signer.endpoint'];
  if (endpoint !== undefined && endpoint.replace(/^\//, '') !== LEGACY_SIGNER_ENDPOINT) return undefined;
  if (!ctx.upstreamBases.some((base) => sameBase(value, base))) return undefined;
  return `${ctx.publicBaseUrl.replace(/\/+$/, '')}/v1/${encodeSegment(ctx.name)}/${SIGNER_MOUNT}`;
}

/** `value` names `base` itself: same origin, same path (trailing slashes aside), no query or fragment. */
function sameBase(value: string, base: string): boolean {
  let v: URL;
  let b: URL;
  try {
    v = new URL(value);
    b = new URL(base);
  } catch {
    return false;
  }
  const path = (u: URL) => u.pathname.replace(/\/+$/, '');
  return v.origin === b.origin && path(v) === path(b) && v.search === '' && v.hash === '' && /^https?:$/.test(v.protocol);
}
