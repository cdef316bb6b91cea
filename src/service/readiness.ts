/**
 * Readiness (`/readyz`): every `rest` upstream answered its GET /v1/config within its timeout at
 * the last check. Checks run in the background — at start, every `intervalMs` after the last one
 * ended, and when a reload changes the upstreams — never per probe call, so a probe storm never
 * reaches an upstream. A catalog's result counts only for the upstream it was taken from: one a
 * reload replaced is "not checked yet" until it is checked.
 */
import type { ProbeFailure, UpstreamProbe } from '../catalogs/index.js';
import type { Logger } from '../observability/index.js';

/** Checks one upstream once (catalogs/rest probeUpstream). */
export type ReadinessCheck = () => Promise<UpstreamProbe>;

export interface ReadinessOptions {
  /** The upstreams to check by catalog name, as they are now; a new function is a new upstream. */
  readonly targets: () => ReadonlyMap<string, ReadinessCheck>;
  readonly intervalMs: number;
  readonly logger?: Logger;
}

export interface CatalogReadiness {
  readonly ready: boolean;
  readonly reason?: ProbeFailure | 'not-checked-yet';
  readonly status?: number;
  readonly message?: string;
  readonly latencyMs?: number;
  /** When the result was taken (ISO 8601). */
  readonly checkedAt?: string;
}

export interface ReadinessReport {
  readonly ready: boolean;
  /** Every `rest` catalog, by name. */
  readonly catalogs: ReadonlyMap<string, CatalogReadiness>;
}

export interface Readiness {
  report(): ReadinessReport;
  /** Starts the background checks (the first one at once); idempotent. */
  start(): void;
  /** Checks `targets` (default: every upstream) now; settles when done. The background loop goes on regardless. */
  check(targets?: ReadonlyMap<string, ReadinessCheck>): Promise<void>;
  /** Stops the background checks. */
  close(): void;
}

const NOT_CHECKED: CatalogReadiness = Object.freeze({ ready: false, reason: 'not-checked-yet', message: 'the first check has not finished yet' });

export function createReadiness(options: ReadinessOptions): Readiness {
  /** The last result of each upstream, by its check: a replaced upstream's result never counts for the new one. */
  const results = new WeakMap<ReadinessCheck, { readonly seq: number; readonly state: CatalogReadiness }>();
  let seq = 0;
  let timer: NodeJS.Timeout | undefined;
  let started = false;
  let closed = false;

  async function checkOne(name: string, check: ReadinessCheck, mine: number): Promise<void> {
    let probe: UpstreamProbe;
    try {
      probe = await check();
    } catch {
      probe = { ready: false, latencyMs: 0, reason: 'connection-failed', message: 'the check failed' };
    }
    const before = results.get(check);
    // results of overlapping checks (a reload's, the loop's): the later check wins
    if (before && before.seq > mine) return;
    results.set(check, { seq: mine, state: { ...probe, checkedAt: new Date().toISOString() } });
    const was = before?.state.ready;
    if (!probe.ready && was !== false) options.logger?.warn({ catalog: name, reason: probe.reason, status: probe.status }, `catalog ${name} is not ready: ${probe.message}`);
    else if (probe.ready && was === false) options.logger?.info({ catalog: name, latencyMs: probe.latencyMs }, `catalog ${name} is ready again`);
  }

  async function check(targets: ReadonlyMap<string, ReadinessCheck> = options.targets()): Promise<void> {
    const mine = ++seq;
    await Promise.all([...targets].map(([name, one]) => checkOne(name, one, mine)));
  }

  const loop = () => {
    void check().finally(() => {
      if (closed) return;
      timer = setTimeout(loop, options.intervalMs);
      // the checks never keep the process alive on their own
      timer.unref();
    });
  };

  return {
    report() {
      const catalogs = new Map<string, CatalogReadiness>();
      for (const [name, one] of options.targets()) catalogs.set(name, results.get(one)?.state ?? NOT_CHECKED);
      return { ready: [...catalogs.values()].every((c) => c.ready), catalogs };
    },
    start() {
      if (started || closed) return;
      started = true;
      loop();
    },
    check,
    close() {
      closed = true;
      clearTimeout(timer);
    },
  };
}
