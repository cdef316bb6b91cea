import { DEFAULT_NAMESPACE_SEPARATOR, encodePrefix } from './paths.js';
import { signerMountUri } from './signer-uri.js';
import type { UpstreamConfig } from './upstream-config.js';

/** What Icefront's GET /v1/config answers for one upstream catalog (REST spec `CatalogConfig`). */
export interface ClientConfigResponse {
  readonly defaults: Record<string, string>;
  readonly overrides: Record<string, string>;
  readonly endpoints: string[];
  readonly 'idempotency-key-lifetime'?: string;
}

/** Everything a rewrite needs: Icefront's side (name, public URL) and the upstream's (bases, prefix). */
export interface RewriteContext {
  /** The catalog's name: Icefront's prefix for it. */
  readonly name: string;
  /** Icefront's base URL as clients reach it (no `/v1`). */
  readonly publicBaseUrl: string;
  /** URLs that mean "the upstream": its configured uri and any `uri` it advertises. */
  readonly upstreamBases: readonly string[];
  readonly upstreamPrefix?: string;
  /** Drop secret-looking keys (Icefront's own identity fetched them; clients must not inherit them). */
  readonly dropSecrets: boolean;
}

/** Keys whose values are secrets: storage keys, tokens, OAuth client credentials. */
const SECRET_KEY = /(secret|password|session-token|access-key-id|sas-token|(^|[.-])token$|^credential$)/i;
/** Kept verbatim though it may point at the upstream: Icefront never proxies token requests (iceberg#10537). */
const VERBATIM_KEYS = new Set(['oauth2-server-uri']);
/** An endpoint as the REST spec writes them (`GET /v1/{prefix}/namespaces`); anything else is not passed on. */
const ENDPOINT = /^(?:GET|HEAD|POST|PUT|DELETE|PATCH) \/v1\/[\x21-\x7e]*$/i;
/** A `.` or `..` path segment, raw or %-encoded: an endpoint that climbs out of `/v1/`. */
const DOT_SEGMENT = /\/(?:\.|%2e){1,2}(?=\/|$|\?)/i;
/** Catalog properties a client authenticates with (Java RESTSessionCatalog, pyiceberg). */
const CLIENT_CREDENTIAL_KEYS = ['token', 'credential'] as const;
/** Control characters: a `header.*` value holding CR/LF would split the headers clients send. */
const CONTROL = /[\u0000-\u001f\u007f]/;
/** Prefixed route families, to recognise `v1/...` paths of an upstream that has no prefix. */
const PREFIXED_ROUTE = /^(namespaces|tables|views|transactions)(\/|$|\?)/;

/**
 * The upstream's config as Icefront hands it out (peers.md §3 #16, §5.2): `prefix` becomes
 * the catalog's name; `uri` is dropped (Java rebuilds its client from it, pyiceberg adopts it, so
 * an upstream `uri` would make clients bypass Icefront); values pointing at the upstream (signer
 * URIs, refresh-credentials endpoints) are rewritten to Icefront; `namespace-separator` becomes
 * `%1F`, the only one clients speak to Icefront; endpoints are the upstream's (or Java's defaults)
 * plus `extraEndpoints`, without duplicates.
 */
export function buildClientConfig(upstream: UpstreamConfig, ctx: RewriteContext, extraEndpoints: readonly string[]): ClientConfigResponse {
  const defaults = rewriteProperties(upstream.defaults, ctx);
  const overrides = rewriteProperties(upstream.overrides, ctx);
  // A client given `token` or `credential` sends it to Icefront as its own: a credential of the
  // upstream's choosing, in every auth mode (forward included, where the caller's own identity
  // fetched this config).
  for (const key of CLIENT_CREDENTIAL_KEYS) {
    delete defaults[key];
    delete overrides[key];
  }
  delete defaults['prefix'];
  overrides['prefix'] = ctx.name;
  if ('namespace-separator' in upstream.defaults || 'namespace-separator' in upstream.overrides) {
    delete defaults['namespace-separator'];
    overrides['namespace-separator'] = DEFAULT_NAMESPACE_SEPARATOR;
  }
  return {
    defaults,
    overrides,
    endpoints: dedupeEndpoints([...upstream.endpoints.filter((e) => ENDPOINT.test(e) && !DOT_SEGMENT.test(e)), ...extraEndpoints]),
    ...(upstream.idempotencyKeyLifetime !== undefined ? { 'idempotency-key-lifetime': upstream.idempotencyKeyLifetime } : {}),
  };
}

/**
 * A property map (catalog config, or a LoadTableResult `config`) with every reference to the
 * upstream turned into one to Icefront (a signer uri left to Java's unprefixed default endpoint:
 * to the catalog's signer mount, signer-uri.ts), `uri` dropped, and secrets dropped when asked.
 * `prefix` and `namespace-separator` are left to the caller.
 */
export function rewriteProperties(properties: Readonly<Record<string, string>>, ctx: RewriteContext): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(properties)) {
    if (key === 'uri' || CONTROL.test(key) || CONTROL.test(value)) continue;
    if (ctx.dropSecrets && SECRET_KEY.test(key)) continue;
    const rewritten = VERBATIM_KEYS.has(key) ? value : (signerMountUri(key, value, properties, ctx) ?? rewriteValue(value, ctx));
    if (rewritten !== undefined) out[key] = rewritten;
  }
  return out;
}

/** Endpoint strings, first spelling kept; Java compares verb case-insensitively, path exactly. */
export function dedupeEndpoints(endpoints: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const endpoint of endpoints) {
    const space = endpoint.indexOf(' ');
    const key = space < 0 ? endpoint : `${endpoint.slice(0, space).toUpperCase()}${endpoint.slice(space)}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(endpoint);
  }
  return out;
}

/** The value for clients: pointing at Icefront where it pointed at the upstream; undefined to drop it. */
function rewriteValue(value: string, ctx: RewriteContext): string | undefined {
  if (/^\/?v1\//.test(value)) return rewriteV1Path(value, ctx);
  if (!/^https?:\/\//i.test(value)) return value;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return value;
  }
  // URL gives an empty path as '/': keep the value's own spelling
  const pathless = !/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*\//i.test(value);
  for (const base of ctx.upstreamBases) {
    const found = below(url, base);
    if (found === undefined) continue;
    const rest = pathless && found.startsWith('/') ? found.slice(1) : found;
    const rewritten = /^\/v1\//.test(rest) ? rewriteV1Path(rest, ctx) : rest;
    return `${ctx.publicBaseUrl.replace(/\/+$/, '')}${rewritten}`;
  }
  // the upstream's host outside its catalog base (URL has resolved any ../ first): a way around Icefront
  if (ctx.upstreamBases.some((base) => sameOrigin(url, base))) return undefined;
  return value;
}

function sameOrigin(url: URL, base: string): boolean {
  try {
    return new URL(base).origin === url.origin;
  } catch {
    return false;
  }
}

/** The part of `url` below `base` ('' for the base itself), or undefined when it is elsewhere. */
function below(url: URL, base: string): string | undefined {
  let b: URL;
  try {
    b = new URL(base);
  } catch {
    return undefined;
  }
  if (url.origin !== b.origin) return undefined;
  const basePath = b.pathname.replace(/\/+$/, '');
  const path = url.pathname;
  if (path !== basePath && !path.startsWith(`${basePath}/`)) return undefined;
  return `${path.slice(basePath.length)}${url.search}${url.hash}`;
}

/**
 * `v1/{upstream prefix}/…` (with or without a leading slash) → `v1/{name}/…`, as Gravitino rewrites
 * `refresh-credentials-endpoint` (IcebergRESTUtils.rewriteTableCredentials). Paths outside the
 * upstream's prefix space (e.g. Java's default signer `v1/aws/s3/sign`) are left alone.
 */
function rewriteV1Path(path: string, ctx: RewriteContext): string {
  const lead = path.startsWith('/') ? '/' : '';
  const after = path.slice(lead.length + 'v1/'.length);
  const prefixes = ctx.upstreamPrefix === undefined ? [] : [...new Set([encodePrefix(ctx.upstreamPrefix), ctx.upstreamPrefix])];
  for (const prefix of prefixes) {
    if (prefix !== '' && (after === prefix || after.startsWith(`${prefix}/`))) {
      return `${lead}v1/${ctx.name}${after.slice(prefix.length)}`;
    }
  }
  if (prefixes.length === 0 && PREFIXED_ROUTE.test(after)) return `${lead}v1/${ctx.name}/${after}`;
  return path;
}
