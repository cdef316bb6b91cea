/**
 * Reload without restart (SIGHUP): the config file is read again, as at start. A valid file
 * whose only changes are under `catalogs` replaces the running catalogs in one swap: requests in
 * flight finish on the catalogs they started with, later ones see the new set; unchanged catalogs
 * keep their objects (caches, tokens, connection pools); upstreams no longer used are closed once
 * nothing uses them. A file that is invalid, or that changes a setting only a restart applies, is
 * refused with the same message as at start and the running configuration keeps serving.
 */
import { isDeepStrictEqual } from 'node:util';
import { buildCatalogSet, type CatalogDeps, type CatalogSet, type CatalogSetChange } from './catalog-set.js';
import { loadConfigFile, type Config, type ServerTlsConfig } from './config/index.js';
import { fail, isIcefrontError } from './errors/index.js';
import type { Logger } from './observability/index.js';
import type { Readiness, ReadinessCheck, Service, ServiceHolder } from './service/index.js';

export type ReloadOutcome =
  | { readonly applied: true; readonly added: readonly string[]; readonly changed: readonly string[]; readonly removed: readonly string[]; readonly kept: readonly string[] }
  /** `error` as at start: the file and line for an invalid file. */
  | { readonly applied: false; readonly error: string };

export interface ReloaderOptions {
  readonly config: Config;
  readonly set: CatalogSet;
  readonly deps: CatalogDeps;
  readonly services: ServiceHolder;
  /** A service over a catalog set, sharing the planning engine and caches of the running one. */
  readonly serviceOver: (set: CatalogSet) => Service;
  readonly readiness: Readiness;
  /** The readiness checks of a set's upstreams (one function per upstream object). */
  readonly checksOf: (set: CatalogSet) => ReadonlyMap<string, ReadinessCheck>;
  /** Serves `server.tls`'s certificates, re-read from their files, to new connections. */
  readonly replaceCertificates?: (tls: ServerTlsConfig) => void;
  readonly logger: Logger;
}

export interface Reloader {
  /** The configuration being served: the one at start, or the last one a reload applied. */
  config(): Config;
  set(): CatalogSet;
  /** Re-reads the config file; one reload at a time (a second waits for the first). */
  reload(): Promise<ReloadOutcome>;
}

export function createReloader(options: ReloaderOptions): Reloader {
  let config = options.config;
  let set = options.set;
  let queue: Promise<unknown> = Promise.resolve();

  async function reloadOnce(): Promise<ReloadOutcome> {
    let change: CatalogSetChange;
    let next: Config;
    try {
      if (config.source === '') throw fail('CONFIG_INVALID', 'the configuration was not read from a file, so there is nothing to re-read');
      next = loadConfigFile(config.source);
      const restart = restartOnlyChanges(config, next);
      if (restart.length > 0)
        throw fail('CONFIG_INVALID', `${config.source}: ${restart.join(', ')} changed, which only a restart applies; nothing was reloaded`);
      change = buildCatalogSet(next.catalogs, options.deps, set);
    } catch (err) {
      const error = isIcefrontError(err) ? err.message : String(err);
      options.logger.error({ code: isIcefrontError(err) ? err.code : undefined }, `configuration reload refused, the running configuration stays: ${error}`);
      return { applied: false, error };
    }
    // the new upstreams are checked before they serve, so /readyz does not dip for a reload
    const checks = options.checksOf(change.next);
    const fresh = new Map([...change.added, ...change.changed].filter((name) => checks.has(name)).map((name) => [name, checks.get(name)!]));
    await options.readiness.check(fresh);
    const service = options.serviceOver(change.next);
    const certificates = next.server.tls !== undefined && !isDeepStrictEqual(config.server.tls, next.server.tls);
    if (certificates) options.replaceCertificates?.(next.server.tls!);
    config = next;
    set = change.next;
    const drained = options.services.swap(service);
    const { retired, retiredCatalogs } = change;
    void drained.then(() => Promise.all([...retired.map((upstream) => upstream.upstream.close()), ...retiredCatalogs.map((catalog) => catalog.close?.())]));
    const { added, changed, removed, kept } = change;
    options.logger.info({ added, changed, removed, kept, ...(certificates && { certificates: 'replaced' }) }, `configuration reloaded from ${config.source}`);
    return { applied: true, added, changed, removed, kept };
  }

  return {
    config: () => config,
    set: () => set,
    reload() {
      const run = queue.then(reloadOnce, reloadOnce);
      queue = run;
      return run;
    },
  };
}

/**
 * Settings outside `catalogs` that differ: the listener, the planning engine and its caches,
 * authentication and logging are built once at start. Named by their YAML keys, never with values
 * (`planning.token-secret`, `auth` hold secrets).
 */
export function restartOnlyChanges(running: Config, next: Config): string[] {
  const changed: string[] = [];
  for (const section of ['server', 'planning'] as const) {
    const a = running[section] as unknown as Record<string, unknown>;
    const b = next[section] as unknown as Record<string, unknown>;
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
      // new certificates are served without a restart; turning HTTPS on or off needs one
      if (section === 'server' && key === 'tls' && a[key] !== undefined && b[key] !== undefined) continue;
      if (!isDeepStrictEqual(a[key], b[key])) changed.push(`${section}.${yamlKey(key)}`);
    }
  }
  if (!isDeepStrictEqual(running.auth, next.auth)) changed.push('auth');
  if (running.logLevel !== next.logLevel) changed.push('logging.level');
  if (!isDeepStrictEqual(running.tracing, next.tracing)) changed.push('tracing');
  return changed;
}

/** `bodyLimit` → `body-limit`. */
function yamlKey(key: string): string {
  return key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}
