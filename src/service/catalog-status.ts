/**
 * The catalogs as the status page lists them: type, where they are (an upstream URI without its
 * credentials or query), who plans their scans and why, and the upstream requests in flight.
 * Read from configuration and the upstreams' last /v1/config: showing it never calls an upstream.
 */
import type { Catalog } from '../catalogs/index.js';
import type { Federation, Planning } from './federation.js';

export interface CatalogStatus {
  readonly name: string;
  readonly type: 'filesystem' | 'sql' | 'rest';
  /** The upstream URI (origin and path only) or the warehouse folder. */
  readonly location?: string;
  /** Who plans: `local` is Icefront's planner; undefined while `auto` has not decided; `off`: no planning. */
  readonly planning?: Planning | 'off';
  readonly planningReason: string;
  /** Requests with the upstream now, and waiting for a turn. */
  readonly upstreamInFlight?: number;
  readonly upstreamQueued?: number;
}

export function describeCatalogs(catalogs: ReadonlyMap<string, Catalog>, federation: Federation): CatalogStatus[] {
  const local = [...catalogs.values()].map(
    (c): CatalogStatus => ({
      name: c.name,
      type: c.type,
      ...(c.location !== undefined && { location: c.location }),
      planning: c.planning ? 'local' : 'off',
      planningReason: c.planning ? `${c.type} catalog: Icefront plans from the table metadata` : 'configured: planning: off',
    }),
  );
  const upstream = federation.names().map((name): CatalogStatus => {
    const { uri, inFlight, queued } = federation.upstreamOf(name);
    const { mode, reason } = federation.planningStatus(name);
    return { name, type: 'rest', location: shownUri(uri), ...(mode && { planning: mode }), planningReason: reason, upstreamInFlight: inFlight, upstreamQueued: queued };
  });
  return [...local, ...upstream].sort((a, b) => a.name.localeCompare(b.name));
}

/** RFC 3986 §3.2.1: userinfo is credentials; the query and fragment may carry keys too. Only scheme, host, port and path are shown. */
export function shownUri(uri: string): string {
  try {
    const url = new URL(uri);
    return `${url.protocol}//${url.host}${url.pathname === '/' ? '' : url.pathname}`;
  } catch {
    return '(not a URL)';
  }
}
