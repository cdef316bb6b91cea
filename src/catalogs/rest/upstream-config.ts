import { fail, isIcefrontError } from '../../errors/index.js';
import { JsonFloat, parseJson } from '../../json/index.js';
import { DEFAULT_NAMESPACE_SEPARATOR } from './paths.js';

/** An upstream's GET /v1/config answer (REST spec `CatalogConfig`), parsed. */
export interface UpstreamConfig {
  readonly defaults: Readonly<Record<string, string>>;
  readonly overrides: Readonly<Record<string, string>>;
  /** The upstream's endpoint strings verbatim, or Java's defaults when it sent none. */
  readonly endpoints: readonly string[];
  /** False when `endpoints` was absent or empty and the defaults were filled in. */
  readonly endpointsAdvertised: boolean;
  readonly idempotencyKeyLifetime?: string;
  /** `overrides.prefix ?? defaults.prefix`: the raw path string after `/v1/`, as the upstream sent it. */
  readonly prefix?: string;
  /** The upstream's `namespace-separator` (`%1F` when it names none). */
  readonly namespaceSeparator: string;
}

const NS = '/v1/{prefix}/namespaces/{namespace}';

/** Java `RESTSessionCatalog.DEFAULT_ENDPOINTS`, assumed when `endpoints` is absent or empty (wire-format §1). */
export const DEFAULT_ENDPOINTS: readonly string[] = [
  'GET /v1/{prefix}/namespaces',
  `GET ${NS}`,
  'POST /v1/{prefix}/namespaces',
  `POST ${NS}/properties`,
  `DELETE ${NS}`,
  `GET ${NS}/tables`,
  `GET ${NS}/tables/{table}`,
  `POST ${NS}/tables`,
  `POST ${NS}/tables/{table}`,
  `DELETE ${NS}/tables/{table}`,
  'POST /v1/{prefix}/tables/rename',
  `POST ${NS}/register`,
  `POST ${NS}/tables/{table}/metrics`,
  'POST /v1/{prefix}/transactions/commit',
];

/** Java `RESTSessionCatalog.VIEW_ENDPOINTS`, added to the defaults when `view-endpoints-supported` is true. */
export const VIEW_ENDPOINTS: readonly string[] = [
  `GET ${NS}/views`,
  `GET ${NS}/views/{view}`,
  `POST ${NS}/views`,
  `POST ${NS}/views/{view}`,
  `DELETE ${NS}/views/{view}`,
  'POST /v1/{prefix}/views/rename',
];

/** Parses a /v1/config body; anything that is not a CatalogConfig is UPSTREAM_BAD_GATEWAY. */
export function parseUpstreamConfig(body: Buffer, catalog: string): UpstreamConfig {
  const bad = (why: string) => fail('UPSTREAM_BAD_GATEWAY', `Catalog '${catalog}': the upstream's /v1/config ${why}`);
  let json: unknown;
  try {
    json = parseJson(body.toString('utf8'));
  } catch (err) {
    if (isIcefrontError(err, 'INVALID_JSON')) throw bad('is not JSON');
    throw err;
  }
  if (!isObject(json)) throw bad('is not a JSON object');
  const defaults = stringMap(json['defaults'], () => bad('has a malformed `defaults`'));
  const overrides = stringMap(json['overrides'], () => bad('has a malformed `overrides`'));
  const listed = json['endpoints'];
  if (listed !== undefined && listed !== null && (!Array.isArray(listed) || !listed.every((e) => typeof e === 'string'))) {
    throw bad('has a malformed `endpoints` list');
  }
  const lifetime = json['idempotency-key-lifetime'];
  const merged = { ...defaults, ...overrides };
  // Java treats a missing OR empty list as "use the defaults" (RESTSessionCatalog.initialize)
  const advertised = Array.isArray(listed) && listed.length > 0;
  const viewsToo = (merged['view-endpoints-supported'] ?? '').toLowerCase() === 'true';
  const endpoints = advertised ? (listed as string[]) : viewsToo ? [...DEFAULT_ENDPOINTS, ...VIEW_ENDPOINTS] : DEFAULT_ENDPOINTS;
  const prefix = overrides['prefix'] ?? defaults['prefix'];
  if (prefix !== undefined && !isContainedPrefix(prefix)) throw bad('names a prefix that is not a path below its own base URI');
  return {
    defaults,
    overrides,
    endpoints,
    endpointsAdvertised: advertised,
    ...(typeof lifetime === 'string' ? { idempotencyKeyLifetime: lifetime } : {}),
    ...(prefix !== undefined && prefix !== '' ? { prefix } : {}),
    namespaceSeparator: merged['namespace-separator'] || DEFAULT_NAMESPACE_SEPARATOR,
  };
}

/**
 * A prefix is one or more path segments below `/v1/` of the upstream's own URI. A dot segment
 * (raw or %-encoded), an empty segment, or a `?`/`#` would let it climb out of, or change, the
 * configured base path (the caller's Authorization would follow it there).
 */
function isContainedPrefix(prefix: string): boolean {
  const segments = prefix.replace(/^\/+|\/+$/g, '').split('/');
  return !/[?#\\]/.test(prefix) && segments.every((s) => s !== '' && !/^(?:\.|%2e)+$/i.test(s));
}

/** A JSON object of properties as strings: numbers and booleans keep their text, nulls are dropped. */
export function stringMap(value: unknown, onError: () => Error): Record<string, string> {
  if (value === undefined || value === null) return {};
  if (!isObject(value)) throw onError();
  const out: Record<string, string> = {};
  for (const [key, v] of Object.entries(value)) {
    if (v === null) continue;
    const scalar = typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint';
    if (!scalar && !(v instanceof JsonFloat)) throw onError();
    out[key] = String(v);
  }
  return out;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
