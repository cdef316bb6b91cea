/**
 * The fault schedule, on Toxiproxy between Icefront and the `rest` catalog's upstream (the REST
 * fixture), on the fixture itself (restarted), and on Icefront (SIGHUP with a changed config; one
 * replica of the pair killed). One cycle, repeated while the run lasts (a fault starts only when it
 * and the quiet after it fit before the end):
 *
 *   latency 500 ms (under the request timeout) · upstream down 30 s, then back · the fixture
 *   restarted (its JVM stopped and started again: new connections, a cold JVM) · Icefront `b` of
 *   the pair killed (SIGKILL) and started again (pair.ts) · S3 slowed (latency on Toxiproxy
 *   between Icefront, and the clients it points there, and moto) · SIGHUP (the `rest`
 *   catalog's timeout changed, a catalog added) · latency 3 s (over the timeout: 504s) ·
 *   reset_peer (connections reset) · limit_data 2 KB (connections cut mid-body) · timeout (data
 *   held, never delivered) · bandwidth 10 KB/s · SIGHUP back.
 *
 * Each fault lasts `toxicMs` (the down phase 30 s; a restart until the fixture, or the replica,
 * answers again), then `quietMs` of nothing before the next. The kill comes early in the cycle so
 * that the CI form's two minutes reach it.
 * A toxic ends by taking the proxy down and up at once (its connections cut, its toxics gone:
 * harness/toxiproxy.ts explains why not a removal). After each end, /readyz is polled until it is
 * ready and the status page is read (faults.ts records what it showed, goals.ts judges it).
 */
import type { ToxiProxy, Toxic } from '../../test/interop/harness/toxiproxy.js';
import type { Judge } from './judge.js';

export interface FaultWindow {
  readonly name: string;
  /**
   * `upstream`: toxics, the down phase and the fixture's restart (5xx on `up` allowed);
   * `storage`: S3 slowed (5xx ErrorModels on `pg` allowed: the toxic's end cuts the connections to S3); `replica`: Icefront `b` killed
   * (failures of requests nginx had sent to `b` allowed); `reload`: a SIGHUP.
   */
  readonly kind: 'upstream' | 'storage' | 'replica' | 'reload';
  readonly start: number;
  end: number;
  /** ms from the end until /readyz answered ready (undefined: not within the quiet time). */
  readyAfterMs?: number;
  /** Upstream errors listed on the status page, read just after the end, timed within the fault. */
  statusPageErrors?: number;
  /** SIGHUP: the changed config was seen in effect (the added catalog answers, or the removed one is gone). */
  reloadApplied?: boolean;
}

type Step =
  | { readonly name: string; readonly toxic: Toxic; readonly on?: 'storage' }
  | { readonly name: 'upstream down 30 s'; readonly down: true }
  | { readonly name: 'fixture restarted'; readonly restart: true }
  | { readonly name: string; readonly kill: true }
  | { readonly name: string; readonly reload: 0 | 1 };

const STEPS: readonly Step[] = [
  { name: 'latency 500 ms', toxic: { name: 'slow', type: 'latency', attributes: { latency: 500, jitter: 100 } } },
  { name: 'upstream down 30 s', down: true },
  { name: 'fixture restarted', restart: true },
  { name: 'Icefront b killed (SIGKILL), restarted', kill: true },
  { name: 'S3 slowed (latency 200 ms)', toxic: { name: 's3-slow', type: 'latency', attributes: { latency: 200, jitter: 50 } }, on: 'storage' },
  { name: 'SIGHUP: timeout 2.5 s, catalog added', reload: 1 },
  { name: 'latency 3 s', toxic: { name: 'slower', type: 'latency', attributes: { latency: 3000 } } },
  { name: 'reset_peer', toxic: { name: 'reset', type: 'reset_peer', attributes: { timeout: 50 } } },
  { name: 'cut mid-body (limit_data 2 KB)', toxic: { name: 'cut', type: 'limit_data', attributes: { bytes: 2048 } } },
  { name: 'timeout (held, never delivered)', toxic: { name: 'stall', type: 'timeout', attributes: { timeout: 0 } } },
  { name: 'bandwidth 10 KB/s', toxic: { name: 'narrow', type: 'bandwidth', attributes: { rate: 10 } } },
  { name: 'SIGHUP: timeout 2 s, catalog removed', reload: 0 },
];

const DOWN_MS = 30_000;
/** What a restart is allowed for when the schedule checks that it fits (a JVM starts in 5-15 s here). */
const RESTART_MS = 20_000;
/** What a replica's kill and restart is allowed for (pair.ts keeps it down 5 s; Node starts in 1-2 s). */
const KILL_MS = 10_000;

export interface ScheduleOptions {
  readonly proxy: ToxiProxy;
  /** Toxiproxy between Icefront (and the clients it points there) and S3. */
  readonly s3Proxy: ToxiProxy;
  readonly judge: Judge;
  readonly adminHeaders: Record<string, string>;
  readonly toxicMs: number;
  readonly quietMs: number;
  readonly endAt: number;
  /** Stops the upstream (the fixture's JVM) and starts it again; resolves once it answers. */
  restartUpstream(): Promise<void>;
  /** Kills Icefront `b` of the pair and starts it again; resolves once it is ready. */
  killReplica(): Promise<void>;
  /** Where the status page is read: the replica that was not killed (each keeps its own recent errors). */
  readonly statusBase: string;
  /** Writes config variant `v` and sends SIGHUP. */
  reload(variant: 0 | 1): void;
  alive(): boolean;
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function runSchedule(o: ScheduleOptions, windows: FaultWindow[]): Promise<void> {
  for (let cycle = 0; o.alive(); cycle++) {
    for (const step of STEPS) {
      const length = 'down' in step ? DOWN_MS : 'restart' in step ? RESTART_MS : 'kill' in step ? KILL_MS : 'toxic' in step ? o.toxicMs : 0;
      if (Date.now() + length + o.quietMs > o.endAt || !o.alive()) return;
      const window: FaultWindow = { name: step.name, kind: 'reload' in step ? 'reload' : 'kill' in step ? 'replica' : 'toxic' in step && step.on === 'storage' ? 'storage' : 'upstream', start: Date.now(), end: 0 };
      windows.push(window);
      if ('toxic' in step) {
        const proxy = step.on === 'storage' ? o.s3Proxy : o.proxy;
        await proxy.addToxic(step.toxic);
        await pause(length);
        await proxy.down();
        await proxy.up();
      } else if ('restart' in step) {
        await o.restartUpstream();
      } else if ('kill' in step) {
        await o.killReplica();
      } else if ('down' in step) {
        await o.proxy.down();
        await pause(length);
        await o.proxy.up();
      } else {
        o.reload(step.reload);
      }
      window.end = Date.now();
      const quietEnd = window.end + o.quietMs;
      await afterFault(o, window, step, quietEnd);
      await pause(Math.max(0, quietEnd - Date.now()));
    }
  }
}

async function afterFault(o: ScheduleOptions, window: FaultWindow, step: Step, quietEnd: number): Promise<void> {
  // /readyz, every 100 ms, until ready
  const readyz = async () => {
    while (Date.now() < quietEnd) {
      // a probe, not load: its 503 is the readiness document, not an ErrorModel
      const status = await fetch(`${o.judge.base}/readyz`, { signal: AbortSignal.timeout(5000) }).then(async (res) => (await res.arrayBuffer(), res.status), () => 0);
      if (status === 200) {
        window.readyAfterMs = Date.now() - window.end;
        return;
      }
      await pause(100);
    }
  };
  const reload = async () => {
    if (!('reload' in step)) return;
    // the reload is applied at once: the added catalog answers (or the removed one no longer does)
    while (Date.now() < quietEnd) {
      const a = await o.judge.send('reload-check', 'extra', 'GET', '/v1/config?warehouse=extra', { headers: o.adminHeaders });
      if ((step.reload === 1 && a.status === 200) || (step.reload === 0 && a.status === 404)) {
        window.reloadApplied = true;
        return;
      }
      await pause(100);
    }
    window.reloadApplied = false;
  };
  await Promise.all([readyz(), reload()]);
  if (window.kind === 'upstream') {
    const page = await fetch(`${o.statusBase}/`, { headers: o.adminHeaders, signal: AbortSignal.timeout(5000) }).then((res) => res.text(), () => '');
    window.statusPageErrors = upstreamErrorsWithin(page, window.start, window.end + 1000);
  }
}

/** Rows of the status page's "Recent upstream errors" naming catalog `up`, timed within [from, to]. */
export function upstreamErrorsWithin(html: string, from: number, to: number): number {
  const section = /<section id="upstream-errors">([\s\S]*?)<\/section>/.exec(html)?.[1] ?? '';
  let n = 0;
  for (const row of section.split('<tr>').slice(1)) {
    const at = /<time datetime="([^"]+)"/.exec(row)?.[1];
    if (!at || !/<td class="name">up<\/td>/.test(row)) continue;
    const t = Date.parse(at);
    if (t >= from - 1000 && t <= to) n++;
  }
  return n;
}
