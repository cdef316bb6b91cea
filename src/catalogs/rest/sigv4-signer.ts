import type { Readable } from 'node:stream';
import type { SignatureV4 } from '@smithy/signature-v4';
import type { AwsCredentialIdentity, AwsCredentialIdentityProvider } from '@smithy/types';
import type { UpstreamAuth } from '../../config/index.js';
import { fail, isIcefrontError } from '../../errors/index.js';
import type { RequestSigner, SignedRequest, Target } from './http-client.js';

type Sigv4Auth = Extract<UpstreamAuth, { readonly mode: 'sigv4' }>;

/** AWS SDKs refresh credentials this long before they expire (the SDK's own default chain does the same). */
const REFRESH_BEFORE_EXPIRY_MS = 5 * 60_000;

/**
 * The headers a signature covers: `host` and the `x-amz-*` the signer adds (AWS requires both)
 * and the body's type. Others (`x-forwarded-*`, `traceparent`, a caller's own) go unsigned, so a
 * proxy between Icefront and the upstream that adds or rewrites them cannot void the signature.
 */
const SIGNED_CALLER_HEADERS = ['content-type'] as const;
/** Headers the signer sets: any a caller sent under these names is replaced, never passed along. */
const SIGNER_HEADERS = new Set(['authorization', 'host', 'x-amz-date', 'x-amz-security-token', 'x-amz-content-sha256']);

/**
 * AWS Signature Version 4 for one `rest` catalog (`auth.mode: sigv4`; AWS Glue's Iceberg endpoint
 * signs as `glue`, S3 Tables' as `s3tables`): AWS's own signer (@smithy/signature-v4) over
 * credentials from AWS's default provider chain (environment, shared config and credentials files
 * and their profiles, the web identity token file, the container and instance metadata
 * endpoints), optionally exchanged for a role's through STS AssumeRole. Credentials are kept until
 * five minutes before they expire, then fetched again, once for concurrent requests.
 *
 * The canonical request (SigV4 "Create a canonical request"): the path as sent, encoded once more
 * (every service but S3), the query in SigV4's encoding, and the payload's SHA-256 (also sent as
 * `x-amz-content-sha256`). The query is sent in that same encoding, so any verifier, whether it
 * normalises the query or reads it as sent, computes the same string.
 */
export class Sigv4Signer implements RequestSigner {
  #signer: Promise<SignatureV4> | undefined;
  /** Each origin parsed once (a catalog has one), not per request. */
  readonly #origins = new Map<string, URL>();

  constructor(
    private readonly catalog: string,
    private readonly auth: Sigv4Auth,
  ) {}

  async sign<H extends string | string[]>(method: string, target: Target, headers: Readonly<Record<string, H>>, body: string | Buffer | Readable | null): Promise<SignedRequest<H>> {
    let url = this.#origins.get(target.origin);
    if (url === undefined) this.#origins.set(target.origin, (url = new URL(target.origin)));
    const at = target.path.indexOf('?');
    const pathname = at === -1 ? target.path : target.path.slice(0, at);
    const query = at === -1 ? {} : parseQuery(this.catalog, target.path.slice(at + 1));
    const toSign: Record<string, string> = { host: url.host };
    for (const name of SIGNED_CALLER_HEADERS) {
      const value = headerValue(headers, name);
      if (value !== undefined) toSign[name] = value;
    }
    let signed;
    try {
      this.#signer ??= signerFor(this.auth);
      const signer = await this.#signer;
      signed = await signer.sign({
        method,
        protocol: url.protocol,
        hostname: url.hostname,
        ...(url.port !== '' && { port: Number(url.port) }),
        path: pathname,
        query,
        headers: toSign,
        // a stream (never sent here: a signed catalog's bodies are read first) signs as UNSIGNED-PAYLOAD
        body: body ?? undefined,
      });
    } catch (err) {
      throw signingFailure(this.catalog, err);
    }
    const out: Record<string, H> = {};
    for (const [name, value] of Object.entries(headers)) if (!SIGNER_HEADERS.has(name.toLowerCase())) out[name] = value;
    // every value the signer sets is one string, which any header map holds
    Object.assign(out, signed.headers as Record<string, string>);
    return { path: at === -1 ? pathname : `${pathname}?${canonicalQuery(query)}`, headers: out };
  }
}

/**
 * AWS's signer over the catalog's credentials. AWS's modules are loaded with the first signed
 * request (some 12 MB and 40 ms), so a process without a sigv4 catalog never loads them.
 */
async function signerFor(auth: Sigv4Auth): Promise<SignatureV4> {
  const [{ SignatureV4 }, { Hash }] = await Promise.all([import('@smithy/signature-v4'), import('@smithy/hash-node')]);
  const provider = await credentialsOf(auth);
  // a provider's failure is told apart from any other (a module, the signer itself) by this mark
  const credentials: AwsCredentialIdentityProvider = (options) =>
    provider(options).catch((err: unknown) => {
      throw new CredentialsUnavailable(err);
    });
  return new SignatureV4({ service: auth.signingName, region: auth.region, credentials, sha256: Hash.bind(null, 'sha256'), uriEscapePath: true, applyChecksum: true });
}

/** The default chain, or the role it is exchanged for; each kept until shortly before it expires. */
async function credentialsOf(auth: Sigv4Auth): Promise<AwsCredentialIdentityProvider> {
  const [{ fromNodeProviderChain, fromTemporaryCredentials }, { memoize }] = await Promise.all([import('@aws-sdk/credential-providers'), import('@smithy/core/config')]);
  const chain = fromNodeProviderChain({ ...(auth.profile !== undefined && { profile: auth.profile }) });
  if (auth.roleArn === undefined) return chain;
  const role = fromTemporaryCredentials({
    masterCredentials: chain,
    params: { RoleArn: auth.roleArn, RoleSessionName: auth.roleSessionName ?? 'icefront', ...(auth.externalId !== undefined && { ExternalId: auth.externalId }) },
    clientConfig: { region: auth.region },
  });
  return memoize(
    role,
    (c: AwsCredentialIdentity) => c.expiration !== undefined && c.expiration.getTime() - Date.now() < REFRESH_BEFORE_EXPIRY_MS,
    (c: AwsCredentialIdentity) => c.expiration !== undefined,
  );
}

/** What the credential chain threw, marked as the chain's. */
class CredentialsUnavailable extends Error {
  constructor(readonly reason: unknown) {
    super(firstLine(reason));
  }
}

/**
 * Credentials that could not be had (no provider had any, STS refused): 503 naming the catalog.
 * Anything else (AWS's modules not loading, the signer failing) is Icefront's own fault: 500.
 */
function signingFailure(catalog: string, err: unknown): Error {
  if (isIcefrontError(err)) return err;
  if (err instanceof CredentialsUnavailable)
    return fail('UPSTREAM_CREDENTIALS_UNAVAILABLE', `Catalog '${catalog}': no AWS credentials to sign its requests with (${err.message})`, err.reason);
  return fail('INTERNAL', `Catalog '${catalog}': the request could not be signed (${firstLine(err)})`, err);
}

/** The first line of an error's message, at most 300 characters (STS and the chain can say much more). */
function firstLine(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split('\n')[0]!.slice(0, 300);
}

function headerValue(headers: Readonly<Record<string, string | string[]>>, name: string): string | undefined {
  for (const [key, value] of Object.entries(headers)) if (key.toLowerCase() === name) return Array.isArray(value) ? value.join(', ') : value;
  return undefined;
}

/**
 * `a=1&b=x+y&a=2` → `{ a: ['1', '2'], b: 'x y' }`: a `+` is a space, as the servers behind AWS's
 * front ends (and Iceberg Java, whose URLEncoder writes one) read a query; it is then sent as `%20`.
 */
function parseQuery(catalog: string, raw: string): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const pair of raw.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const key = decode(catalog, (eq === -1 ? pair : pair.slice(0, eq)).replace(/\+/g, ' '));
    const value = eq === -1 ? '' : decode(catalog, pair.slice(eq + 1).replace(/\+/g, ' '));
    const had = query[key];
    query[key] = had === undefined ? value : Array.isArray(had) ? [...had, value] : [had, value];
  }
  return query;
}

function decode(catalog: string, text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    throw fail('BAD_REQUEST', `Catalog '${catalog}': the query has a malformed percent-encoding, which an AWS signature cannot cover`);
  }
}

/** SigV4's URI encoding: RFC 3986 unreserved characters as they are, every other byte as %XX. */
function escape(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

function canonicalQuery(query: Readonly<Record<string, string | string[]>>): string {
  return Object.entries(query)
    .flatMap(([key, value]) => (Array.isArray(value) ? value : [value]).map((v) => `${escape(key)}=${escape(v)}`))
    .join('&');
}
