/**
 * Icefront's process, sampled every `everyMs`: resident set (/proc/<pid>/status, bench/proc-memory.ts),
 * open file descriptors and, of them, sockets (/proc/<pid>/fd), the heap in use and the event
 * loop's delay (p99 and max over the interval, from inside through the inspector: process.ts).
 * Every `gcEveryMs` a full GC is forced first (HeapProfiler.collectGarbage) and the heap read
 * after it; the forced GC's own pause is kept out of the event-loop figures.
 */
import fs from 'node:fs';
import { procMemory } from '../proc-memory.js';
import type { SoakIcefront } from './process.js';

export interface Sample {
  readonly at: number;
  readonly rssMB: number;
  readonly fds: number;
  readonly sockets: number;
  readonly heapUsedMB: number;
  /** Bytes the planning caches hold (sum of icefront_cache_bytes on /metrics; caches in worker threads included), MB. */
  readonly cacheMB: number;
  /** The planning workers' own V8 heaps, summed (icefront_planning_worker_heap_bytes, as of each one's last job), MB. */
  readonly workerHeapUsedMB: number;
  readonly workerHeapCommittedMB: number;
  /** Each cache's bytes (icefront_cache_bytes by cache), MB. */
  readonly cachesMB: Readonly<Record<string, number>>;
  /** Event-loop delay beyond the monitor's resolution, over the interval before this sample. */
  readonly loopP99Ms: number;
  readonly loopMaxMs: number;
}

export interface GcSample {
  readonly at: number;
  readonly heapAfterGcMB: number;
}

export const LOOP_RESOLUTION_MS = 10;

function fdCounts(pid: number): { fds: number; sockets: number } {
  let fds = 0;
  let sockets = 0;
  for (const fd of fs.readdirSync(`/proc/${pid}/fd`)) {
    fds++;
    try {
      if (fs.readlinkSync(`/proc/${pid}/fd/${fd}`).startsWith('socket:')) sockets++;
    } catch {
      // closed meanwhile
    }
  }
  return { fds, sockets };
}

export class Sampler {
  readonly samples: Sample[] = [];
  readonly gcSamples: GcSample[] = [];
  /** The event loop over the whole run, beyond the monitor's resolution (set by final()). */
  loop: { p50Ms: number; p99Ms: number; maxMs: number } | undefined;
  private timer: NodeJS.Timeout | undefined;
  private lastGc = Date.now();
  private busy = false;

  constructor(
    private readonly icefront: SoakIcefront,
    private readonly everyMs: number,
    private readonly gcEveryMs: number,
    private readonly metricsHeaders: Record<string, string>,
  ) {}

  /** From /metrics: the planning caches' bytes and the workers' heaps, each summed, MB. */
  private async metricsMB(): Promise<{ cacheMB: number; workerHeapUsedMB: number; workerHeapCommittedMB: number; cachesMB: Record<string, number> }> {
    const sum = (text: string, pattern: RegExp) => [...text.matchAll(pattern)].reduce((a, m) => a + Number(m[1]), 0) / 2 ** 20;
    try {
      const res = await fetch(`${this.icefront.url}/metrics`, { headers: this.metricsHeaders, signal: AbortSignal.timeout(5000) });
      const text = await res.text();
      const cachesMB = Object.fromEntries([...text.matchAll(/^icefront_cache_bytes\{cache="([^"]*)"\} (\S+)$/gm)].map((m) => [m[1]!, Number(m[2]) / 2 ** 20]));
      return {
        cacheMB: Object.values(cachesMB).reduce((a, b) => a + b, 0),
        workerHeapUsedMB: sum(text, /^icefront_planning_worker_heap_bytes\{[^}]*kind="used"[^}]*\} (\S+)$/gm),
        workerHeapCommittedMB: sum(text, /^icefront_planning_worker_heap_bytes\{[^}]*kind="committed"[^}]*\} (\S+)$/gm),
        cachesMB,
      };
    } catch {
      return { cacheMB: NaN, workerHeapUsedMB: NaN, workerHeapCommittedMB: NaN, cachesMB: {} };
    }
  }

  start(): void {
    void this.icefront.inspector.overall(true).catch(() => undefined);
    this.timer = setInterval(() => void this.tick(), this.everyMs);
  }

  async tick(forceGc = false): Promise<void> {
    if (this.busy || !this.icefront.isAlive()) return;
    this.busy = true;
    try {
      const inside = await this.icefront.inspector.sample(false);
      const fromMetrics = await this.metricsMB();
      const { rssMB } = procMemory(this.icefront.pid);
      const at = Date.now();
      this.samples.push({
        at,
        rssMB,
        ...fdCounts(this.icefront.pid),
        heapUsedMB: inside.heapUsedMB,
        ...fromMetrics,
        loopP99Ms: Math.max(0, inside.loopP99Ms - LOOP_RESOLUTION_MS),
        loopMaxMs: Math.max(0, inside.loopMaxMs - LOOP_RESOLUTION_MS),
      });
      if (forceGc || at - this.lastGc >= this.gcEveryMs) {
        this.lastGc = at;
        // the forced GC's pause falls in the interval this call resets: never reported
        const gc = await this.icefront.inspector.sample(true);
        this.gcSamples.push({ at: Date.now(), heapAfterGcMB: gc.heapUsedMB });
      }
    } catch {
      // the process went away meanwhile: the goals say so
    } finally {
      this.busy = false;
    }
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** One more sample with a forced GC, once any sample in progress is done. */
  async final(): Promise<void> {
    while (this.busy) await new Promise((r) => setTimeout(r, 20));
    try {
      const o = await this.icefront.inspector.overall(false);
      const beyond = (ms: number) => Math.max(0, ms - LOOP_RESOLUTION_MS);
      this.loop = { p50Ms: beyond(o.p50Ms), p99Ms: beyond(o.p99Ms), maxMs: beyond(o.maxMs) };
    } catch {
      // gone
    }
    await this.tick(true);
  }
}

/** Least-squares slope of `y` per minute over the samples at or after `from`. */
export function slopePerMinute(points: readonly { at: number; y: number }[]): number {
  if (points.length < 2) return NaN;
  const xs = points.map((p) => p.at / 60_000);
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
  const my = points.reduce((a, p) => a + p.y, 0) / points.length;
  let num = 0;
  let den = 0;
  for (let i = 0; i < points.length; i++) {
    num += (xs[i]! - mx) * (points[i]!.y - my);
    den += (xs[i]! - mx) ** 2;
  }
  return den === 0 ? NaN : num / den;
}
