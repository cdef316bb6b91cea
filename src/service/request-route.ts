/**
 * Where a request goes, decided once, when it arrives (issue #30): answered by Icefront, or
 * carried to the upstream of a `rest` catalog in one of a few ways. Everything after (reading the
 * body or streaming it, the handler, the upstream exchange) carries out this decision and
 * decides nothing of its own. The special cases of the way to an upstream live here.
 */
import { ENDPOINTS, PLANNING_ENDPOINTS } from './endpoints.js';

/**
 * How a request reaches an upstream:
 * - `stream`: as it came, body and answer streamed both ways;
 * - `load-table`: the answer read whole, its config rewritten to point back at Icefront;
 * - `listing`: read whole and filtered when the caller may see only part of it, else streamed;
 * - `commit`: a multi-table commit, its body read and its tables checked, then streamed;
 * - `planning`: as the catalog's planning mode says (Service.answersPlanning): answered by
 *   Icefront (its own planner, or its pages of the upstream's plan) or streamed.
 */
export type UpstreamWay = 'stream' | 'load-table' | 'listing' | 'commit' | 'planning';

export type RequestRoute =
  | { readonly to: 'icefront' }
  | {
      readonly to: 'upstream';
      /** The catalog's name (the decoded prefix). */
      readonly catalog: string;
      /** `<served method> <spec path>`. */
      readonly endpoint: string;
      readonly way: UpstreamWay;
      /** The field a listing's answer lists, for `listing`. */
      readonly lists?: 'namespaces' | 'identifiers';
      /** Whether the body is read before the handler (else it is streamed to the upstream unread). */
      readonly readBody: boolean;
    };

export const TO_ICEFRONT: RequestRoute = Object.freeze({ to: 'icefront' });

const LISTINGS: ReadonlyMap<string, 'namespaces' | 'identifiers'> = new Map([
  [ENDPOINTS.listNamespaces, 'namespaces'],
  [ENDPOINTS.listTables, 'identifiers'],
  ['GET /v1/{prefix}/namespaces/{namespace}/views', 'identifiers'],
]);
const TRANSACTIONS_COMMIT = 'POST /v1/{prefix}/transactions/commit';
const PLANNING = new Set(PLANNING_ENDPOINTS);

/** The `rest` catalogs, as routing asks of them. */
export interface RoutedUpstreams {
  has(name: string): boolean;
  /** Whether its requests are signed over their body's hash (SigV4): every body is read before it leaves. */
  hashesBodies(name: string): boolean;
}

/**
 * The route of `endpoint` (`<served method> <spec path>`) for a request whose path is `rawPath`.
 * `upstreams` names the `rest` catalogs; `readsBody` says which endpoints' bodies authorization
 * reads (the bodies naming what a request changes, with authentication on).
 */
export function routeRequest(endpoint: string, rawPath: string, upstreams: RoutedUpstreams, readsBody: (endpoint: string) => boolean): RequestRoute {
  if (!endpoint.includes(' /v1/{prefix}/')) return TO_ICEFRONT;
  const catalog = upstreamCatalog(rawPath, upstreams);
  if (catalog === undefined) return TO_ICEFRONT;
  if (PLANNING.has(endpoint)) return { to: 'upstream', catalog, endpoint, way: 'planning', readBody: true };
  const authorized = readsBody(endpoint) || upstreams.hashesBodies(catalog);
  if (endpoint === ENDPOINTS.loadTable) return { to: 'upstream', catalog, endpoint, way: 'load-table', readBody: authorized };
  const lists = LISTINGS.get(endpoint);
  if (lists !== undefined) return { to: 'upstream', catalog, endpoint, way: 'listing', lists, readBody: authorized };
  if (endpoint === TRANSACTIONS_COMMIT) return { to: 'upstream', catalog, endpoint, way: 'commit', readBody: authorized };
  return { to: 'upstream', catalog, endpoint, way: 'stream', readBody: authorized };
}

/** The decoded prefix of `/v1/{prefix}/…` when it names an upstream catalog; else undefined. */
function upstreamCatalog(rawPath: string, upstreams: RoutedUpstreams): string | undefined {
  const end = rawPath.startsWith('/v1/') ? rawPath.indexOf('/', 4) : -1;
  if (end === -1) return undefined;
  const raw = rawPath.slice(4, end);
  let prefix = raw;
  // nothing to decode for most names; malformed percent-encoding names no catalog
  if (raw.includes('%') || raw.includes('+')) {
    try {
      prefix = decodeURIComponent(raw.replace(/\+/g, ' '));
    } catch {
      return undefined;
    }
  }
  return upstreams.has(prefix) ? prefix : undefined;
}
