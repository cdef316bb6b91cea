/**
 * A PlanEngine that runs in worker threads, so manifest decoding, pruning and task JSON never
 * hold up the main event loop (issue: "planning never blocks the door"). node:worker_threads
 * directly rather than piscina: a job here calls back into the main thread for every file it
 * reads, and each manifest must go to the same worker every time (its caches and coalescing
 * live there), which a pool that picks any idle worker cannot do.
 *
 * A plan is split by manifest path between the workers (`shareOf`), so a cold plan decodes on
 * every core; a redemption or an inline batch goes to the worker owning its first manifest. A
 * large plan's plan-task strings (a deflate and an HMAC each) are split between the workers too.
 * A worker that dies fails its jobs with a 500 and is started again on the next job. The threads
 * belong to the process; each Icefront instance has its own caches in them (and drops them on close).
 */
import os from 'node:os';
import { LRUCache } from 'lru-cache';
import { Worker } from 'node:worker_threads';
import { createComputeCache } from '../../cache/index.js';
import { fail } from '../../errors/index.js';
import { tableMetadataToJson, type TableMetadata } from '../../iceberg/index.js';
import { stringifyJson } from '../../json/index.js';
import { traceContext, type Logger, type Metrics, type TraceContext } from '../../observability/index.js';
import type { PlanStats, RangeToRead } from '../../planner/index.js';
import type { SizedManifest } from './batches.js';
import { encodePlanTaskRuns, jsonText, shareOf, type JsonText, type PlanEngine, type PlanJob, type PlanShare, type PlanTable, type SizedPlan, type WrittenTasks } from './plan-engine.js';
import { CACHE_SHARES } from './planning-caches.js';
import { keepRemoteBytes } from './remote-bytes.js';
import { scanOf } from './scan-codec.js';
import { errorFromWire, errorToWire, type Call, type Done, type FromWorker, type Job, type WireWrittenTasks, type WorkerReport } from './worker-protocol.js';

export interface WorkerPlanEngineOptions {
  readonly workers: number;
  /** The planning cache budget, split evenly between the workers. */
  readonly cacheBytes: number;
  /** A cached value nobody has read for this long is dropped, in the workers and here (`planning.cache-idle-seconds`). */
  readonly cacheIdleMs?: number;
  readonly metrics?: Metrics;
  readonly logger?: Logger;
}

/**
 * `planning.workers` when unset: a worker per core, at least one and at most four. Measured on
 * 2 cores (bench/stall.ts, servers warmed by four plans of other tables, two runs of three): two
 * workers planned a cold 100,000-file table 1.18–1.48× faster than the event loop, one worker
 * 0.95×, and the /healthz p99 during the plan was 7.7–12.4 ms with two, 6.4–8.9 ms with one.
 * Leaving a core to the door did not pay: workers run below the main thread's priority.
 */
export function defaultPlanningWorkers(cores = os.availableParallelism()): number {
  return Math.max(1, Math.min(4, cores));
}

type JobBody = Omit<Job, 'id' | 'ref'>;

/** What one job's instance needs while it runs: its table's files, its reports, its log. */
interface JobContext {
  readonly table: PlanTable;
  readonly onContradiction: PlanJob['onContradiction'];
  readonly onReport: (slot: number, report: WorkerReport) => void;
  readonly metadataText: (m: TableMetadata) => string;
  readonly logger: Logger | undefined;
}

interface Pending extends JobContext {
  readonly resolve: (done: Done) => void;
  readonly reject: (err: Error) => void;
  /** The trace context the job was asked in: its reads, answered here, are traced as its children. */
  readonly trace: TraceContext;
}

/**
 * Loads the worker module in a fresh thread. The compiled build (dist/) imports
 * `planning-worker.js` directly and never needs tsx (it is not installed with the package). Run
 * from the TypeScript sources (tests, `npm run dev`), a worker does not inherit a loader
 * registered with `register()`, so it registers tsx itself before the first import. It cannot wait
 * to see whether a plain `import()` fails: from Node 22.18 and 24 on, Node strips the types of a
 * `.ts` file by itself, loads `planning-worker.ts`, and only then fails on its `…/index.js`
 * imports, which name sources that only tsx maps to `.ts`.
 */
const BOOTSTRAP = `
import { workerData } from 'node:worker_threads';
if (workerData.tsx) (await import(workerData.tsx)).register();
await import(workerData.entry);
`;
const BOOTSTRAP_URL = new URL(`data:text/javascript,${encodeURIComponent(BOOTSTRAP)}`);
const FROM_SOURCES = import.meta.url.endsWith('.ts');
/**
 * A worker's young generation, at most (Worker `resourceLimits.maxYoungGenerationSizeMb`). V8
 * sizes it from the heap limit, and on this 64-bit Node lets it grow past 100 MB: in the soak
 * (issue #43) each worker's new space swung between 15 and 114 MB committed from minute to
 * minute while its old space held 25-30 MB, which made most of the process's RSS swing. Capped,
 * scavenges come more often and promote a plan's longer-lived objects sooner; unlike an
 * old-generation limit, it cannot make a large plan fail.
 */
const WORKER_YOUNG_GENERATION_MB = 24;
const ENTRY = new URL(`./planning-worker${FROM_SOURCES ? '.ts' : '.js'}`, import.meta.url).href;

let nextId = 1;

/**
 * One planning thread of the process, shared by every Icefront instance in it (tests run many;
 * a thread costs a module load): started by `ready()` (a server's start-up) or its first job, and
 * again on the next job after it died; kept alive by the process only while loading or working.
 */
class PlanningThread {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  /** Settles when the running worker has loaded (or failed to). */
  ready: Promise<void> = Promise.resolve();

  constructor(private readonly slot: number) {}

  private start(): Worker {
    const tsx = FROM_SOURCES ? import.meta.resolve('tsx/esm/api') : undefined;
    // execArgv empty: the parent's loaders and hooks (a test runner's, say) are not the worker's business
    const worker = new Worker(BOOTSTRAP_URL, { workerData: { entry: ENTRY, tsx }, name: `icefront-planning-${this.slot}`, execArgv: [], resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB } });
    let loaded!: () => void;
    let failed!: (err: Error) => void;
    this.ready = new Promise<void>((resolve, reject) => ((loaded = resolve), (failed = reject)));
    this.ready.catch(() => undefined); // a failed start is also every pending job's failure
    worker.on('message', (msg: FromWorker) => {
      if (msg.kind === 'call') {
        const trace = this.pending.get(msg.ref)?.trace;
        void (trace ? traceContext.with(trace, () => this.answer(worker, msg)) : this.answer(worker, msg));
      } else if (msg.kind === 'ready') {
        loaded();
        if (this.pending.size === 0) worker.unref();
      }
      else this.finish(msg);
    });
    const stopped = (reason: string) => {
      failed(fail('INTERNAL', `The planning worker stopped: ${reason}`));
      if (this.worker !== worker) return;
      this.worker = undefined;
      const jobs = [...this.pending.values()];
      this.pending.clear();
      for (const p of jobs) {
        p.logger?.error({ worker: this.slot, reason }, 'planning worker stopped with jobs running');
        p.reject(fail('INTERNAL', `The planning worker stopped: ${reason}`));
      }
    };
    worker.on('error', (err) => stopped(err.message));
    worker.on('exit', (code) => stopped(`exit code ${code}`));
    // Referenced until it has loaded (someone may be waiting on `ready`), then only while it has
    // jobs: an idle worker never keeps the process alive.
    return worker;
  }

  /** Starts the thread if it is not running (a module load: better at startup than in a first request). */
  warm(): Worker {
    return (this.worker ??= this.start());
  }

  run(job: JobBody, context: JobContext): Promise<Done> {
    const worker = this.warm();
    const id = nextId++;
    return new Promise<Done>((resolve, reject) => {
      this.pending.set(id, { ...context, resolve, reject, trace: traceContext.active() });
      if (this.pending.size === 1) worker.ref();
      worker.postMessage({ ...job, id, ref: id });
    });
  }

  drop(engine: number): void {
    this.worker?.postMessage({ kind: 'drop', engine });
  }

  private finish(done: Done): void {
    const p = this.pending.get(done.id);
    if (!p) return;
    this.pending.delete(done.id);
    if (this.pending.size === 0) this.worker?.unref();
    p.onReport(this.slot, done.report);
    for (const [path, ids] of done.contradictions) p.onContradiction?.(path, ids);
    p.resolve(done);
  }

  /** A worker's read, through the job's own FileIO (the job id is its ref). */
  private async answer(worker: Worker, msg: Call): Promise<void> {
    const p = this.pending.get(msg.ref);
    try {
      if (!p) throw fail('INTERNAL', 'planning worker read for a finished job');
      const io = p.table.io;
      const [location, offset, length] = msg.args as [string, number, number];
      let value: unknown;
      switch (msg.op) {
        case 'readFile':
        case 'readRange':
          value = cloneable(msg.op === 'readFile' ? await io.readFile(location) : await io.readRange(location, offset, length));
          break;
        case 'localPath':
          if (!io.localPath) throw fail('INTERNAL', 'planning worker asked for a local path of a table with none');
          value = await io.localPath(location);
          break;
        case 'stat':
          value = await io.stat(location);
          break;
        case 'exists':
          value = await io.exists(location);
          break;
        case 'list':
          value = await io.list(location);
          break;
        case 'metadata':
          value = p.metadataText(p.table.metadata);
          break;
      }
      worker.postMessage({ kind: 'reply', id: msg.id, value });
    } catch (err) {
      worker.postMessage({ kind: 'reply', id: msg.id, error: errorToWire(err) });
    }
  }
}

/**
 * The bytes of a read as posted to a worker: copied by the structured clone, never transferred.
 * Transferring detaches an ArrayBuffer, and the first detach in a thread invalidates V8's
 * "ArrayBufferDetaching" protector (seen with `--trace-protector-invalidation`): every optimised
 * function that reads a typed array is thrown away then, and what runs afterwards carries detach
 * checks. A fresh server's first plan did that in each of its threads, so its next plan compiled
 * the decoders again on the cores planning needs. A clone copies the view's whole ArrayBuffer,
 * so a view of a larger one (a pool, a cache) is cut out first.
 */
function cloneable(buf: Uint8Array): Uint8Array {
  return buf.byteOffset === 0 && buf.byteLength === buf.buffer.byteLength ? buf : new Uint8Array(buf);
}

/** The process's planning threads, by pool size. */
const threadSets = new Map<number, readonly PlanningThread[]>();
const threadsOf = (count: number): readonly PlanningThread[] => {
  let set = threadSets.get(count);
  if (!set) threadSets.set(count, (set = Array.from({ length: count }, (_, slot) => new PlanningThread(slot))));
  return set;
};

/**
 * Up to this many plan-task strings are written on the calling thread (a millisecond or two, less
 * than the messages would cost); more are split between the workers, at least half this many each.
 */
const RUNS_PER_PART = 64;

let nextEngine = 1;
let nextSerial = 1;
/** Each metadata object gets a number once (process-wide), under which a worker parses its JSON once. */
const shipped = new WeakMap<TableMetadata, { readonly serial: number; text?: string }>();
const shippedOf = (m: TableMetadata) => {
  let s = shipped.get(m);
  if (s === undefined) shipped.set(m, (s = { serial: nextSerial++ }));
  return s;
};
const serialOf = (m: TableMetadata): number => shippedOf(m).serial;
const metadataText = (m: TableMetadata): string => {
  const s = shippedOf(m);
  return (s.text ??= stringifyJson(tableMetadataToJson(m)));
};

export function createWorkerPlanEngine(options: WorkerPlanEngineOptions): PlanEngine {
  const count = Math.max(1, options.workers);
  const threads = threadsOf(count);
  const engineId = nextEngine++;
  const cacheBytes = Math.floor(options.cacheBytes / count);
  // the workers' reads of remote files, answered here (planning-caches.ts: the main thread's share)
  const cacheIdleMs = options.cacheIdleMs ?? 0;
  const remoteBytes = createComputeCache<Buffer>({
    name: 'remote-files',
    maxBytes: Math.floor(options.cacheBytes * CACHE_SHARES.remoteFiles),
    sizeOf: (b) => b.length,
    idleMs: cacheIdleMs,
    ...(options.metrics && { metrics: options.metrics.cache }),
  });

  // Cache gauges are per worker; the metric is their sum.
  const gauges = new Map<string, { bytes: number[]; inFlight: number[]; budget: number[] }>();
  const onReport = (slot: number, report: WorkerReport): void => {
    const m = options.metrics;
    if (!m) return;
    m.planningWorkerHeap(slot, report.heap.used, report.heap.committed);
    if (report.counters.manifestReads) m.manifestReads.inc(report.counters.manifestReads);
    if (report.counters.manifestReadsCoalesced) m.manifestReadsCoalesced.inc(report.counters.manifestReadsCoalesced);
    if (report.counters.deleteIndexBuilds) m.deleteIndexBuilds.inc(report.counters.deleteIndexBuilds);
    for (const [name, c] of Object.entries(report.caches)) {
      for (let i = 0; i < c.hit; i++) m.cache.hit(name);
      for (let i = 0; i < c.miss; i++) m.cache.miss(name);
      for (let i = 0; i < c.coalesced; i++) m.cache.coalesced(name);
      for (let i = 0; i < c.evicted; i++) m.cache.evicted(name);
      let g = gauges.get(name);
      if (!g) gauges.set(name, (g = { bytes: new Array<number>(count).fill(0), inFlight: new Array<number>(count).fill(0), budget: new Array<number>(count).fill(0) }));
      g.bytes[slot] = c.bytes;
      g.inFlight[slot] = c.inFlight;
      g.budget[slot] = c.budget;
      m.cache.bytes(name, g.bytes.reduce((a, b) => a + b, 0));
      m.cache.inFlight(name, g.inFlight.reduce((a, b) => a + b, 0));
      m.cache.budget?.(name, g.budget.reduce((a, b) => a + b, 0));
    }
  };

  function body(job: PlanJob) {
    const { request } = job;
    return {
      kind: 'job' as const,
      engine: engineId,
      cacheBytes,
      cacheIdleMs,
      shares: count,
      prefix: job.prefix,
      meta: serialOf(job.table.metadata),
      identifier: { namespace: [...job.table.identifier.namespace], name: job.table.identifier.name },
      scan: stringifyJson(scanOf(request)),
      snapshotId: request.snapshotId ?? -1n,
      local: job.table.io.localPath !== undefined,
    };
  }

  // Snapshots known to have delete files, whose pages are written whole by one worker (see
  // `write`): learnt from a plan's sizing, or from a page whose parts came back with deletes.
  const withDeletes = new LRUCache<string, true>({ max: 1024 });
  const snapshotKey = (job: PlanJob): string => `${serialOf(job.table.metadata)}:${String(job.request.snapshotId ?? '')}`;
  const learn = (job: PlanJob, sized: SizedPlan): SizedPlan => {
    if (sized.stats.deleteFilesIndexed > 0) withDeletes.set(snapshotKey(job), true);
    return sized;
  };

  let closed = false;
  async function run<T>(slot: number, job: PlanJob, extra: Pick<Job, 'op'> & Record<string, unknown>): Promise<T> {
    if (closed) throw fail('SHUTTING_DOWN', 'Planning has stopped: the server is shutting down');
    const table = { ...job.table, io: keepRemoteBytes(job.table.io, job.prefix, remoteBytes) };
    const context: JobContext = { table, onContradiction: job.onContradiction, onReport, metadataText, logger: options.logger };
    const done = await threads[slot]!.run({ ...body(job), thread: slot, ...extra } as JobBody, context);
    if (done.error) throw errorFromWire(done.error, 'planning worker');
    return done.value as T;
  }

  return {
    async size(job, sizeOptions = {}) {
      const { minRows } = sizeOptions;
      // `min-rows-requested` reads manifests in list order until it has enough: one worker does it.
      if (count === 1 || minRows !== undefined) {
        const slot = shareOf(job.table.metadata.location, count);
        return learn(job, await run<SizedPlan>(slot, job, { op: 'size', ...(minRows !== undefined && { minRows }) }));
      }
      const shares = await Promise.all(
        threads.map((_, index) => run<SizedPlan>(index, job, { op: 'size', share: { index, count } satisfies PlanShare })),
      );
      const manifests: SizedManifest[] = shares.flatMap((s) => s.manifests).sort((a, b) => a.ordinal - b.ordinal);
      return learn(job, { manifests, stats: mergeShareStats(shares.map((s) => s.stats)) });
    },

    async write(job, ranges: readonly RangeToRead[], writeOptions = {}) {
      const options = writeOptions.noDeletes ? { noDeletes: true } : {};
      const write = async (slot: number, part: readonly RangeToRead[]) => receivedTasks(await run<WireWrittenTasks | null>(slot, job, { op: 'write', ranges: part, ...options }));
      // A page spans manifests of several workers' shares: each writes its own ranges, where the
      // plan decoded them and they are cached, at once; the parts are joined in range order.
      // Tasks refer to delete files by index into their own answer's list, so parts with deletes
      // are not joined by text: such a snapshot's pages are written whole by the first range's worker.
      const parts = ownedRuns(ranges, count);
      if (parts.length <= 1 || withDeletes.has(snapshotKey(job))) return write(parts[0]?.slot ?? 0, ranges);
      const written = await Promise.all(parts.map((p) => write(p.slot, p.ranges)));
      if (written.some((w) => w === undefined)) return undefined;
      const done = written as WrittenTasks[];
      if (done.some((w) => w.deleteFiles !== undefined)) {
        // only a server that has not planned this snapshot meets it here, once
        withDeletes.set(snapshotKey(job), true);
        return write(parts[0]!.slot, ranges);
      }
      return { fileScanTasks: joinJsonArrays(done.map((w) => w.fileScanTasks)), count: done.reduce((n, w) => n + w.count, 0) };
    },

    async planTasks(job, tasks, runLength) {
      const runs = Math.ceil(tasks.batches.length / runLength);
      // a few strings cost less than the messages (and a millisecond at most): written here
      if (runs <= RUNS_PER_PART) return encodePlanTaskRuns(tasks, runLength);
      // contiguous parts of whole runs, one per worker, joined in order
      const parts = Math.min(count, Math.ceil(runs / RUNS_PER_PART));
      const batchesPerPart = Math.ceil(runs / parts) * runLength;
      const { catalog, namespace, table, tableUuid, snapshotId, scan, facts } = tasks.ref;
      const task = { catalog, namespace, table, ...(tableUuid !== undefined && { tableUuid }), snapshotId, scan: stringifyJson(scan), ...(facts && { facts }) };
      // an exact copy: a Buffer's clone would carry its whole ArrayBuffer (the pool a short one sits in)
      const key = tasks.key && new Uint8Array(tasks.key);
      const strings = await Promise.all(
        Array.from({ length: parts }, (_, slot) =>
          run<string[]>(slot, job, { op: 'tasks', task, batches: tasks.batches.slice(slot * batchesPerPart, (slot + 1) * batchesPerPart), run: runLength, ...(key && { key }) }),
        ),
      );
      return strings.flat();
    },

    async ready() {
      await Promise.all(threads.map((t) => (t.warm(), t.ready)));
    },

    close() {
      closed = true;
      for (const t of threads) t.drop(engineId);
      return Promise.resolve();
    },
  };
}

/** `ranges` in order, cut into runs that one worker's share holds (`shareOf` their manifest). */
function ownedRuns(ranges: readonly RangeToRead[], count: number): { readonly slot: number; readonly ranges: RangeToRead[] }[] {
  const runs: { slot: number; ranges: RangeToRead[] }[] = [];
  for (const range of ranges) {
    const slot = shareOf(range.manifest, count);
    const last = runs.at(-1);
    if (last?.slot === slot) last.ranges.push(range);
    else runs.push({ slot, ranges: [range] });
  }
  return runs;
}

/** A worker's written tasks as they arrive (Buffers come as plain Uint8Arrays), with Buffers over the same memory. */
function receivedTasks(wire: WireWrittenTasks | null): WrittenTasks | undefined {
  if (wire === null) return undefined;
  const { deleteFiles, fileScanTasks, count } = wire;
  return { ...(deleteFiles !== undefined && { deleteFiles: textOver(deleteFiles) }), fileScanTasks: textOver(fileScanTasks), count };
}

const textOver = (text: string | Uint8Array): JsonText => (typeof text === 'string' ? text : Buffer.from(text.buffer, text.byteOffset, text.byteLength));

const COMMA = Buffer.from(',');
const OPEN = Buffer.from('[');
const CLOSE = Buffer.from(']');

/** JSON arrays joined into one array, in order: a string when they are, else bytes (plan-engine.ts `jsonText`). */
export function joinJsonArrays(arrays: readonly JsonText[]): JsonText {
  if (arrays.every((a): a is string => typeof a === 'string')) {
    const items = arrays.map((a) => a.slice(1, -1)).filter((inner) => inner.length > 0);
    return jsonText(`[${items.join(',')}]`);
  }
  const items = arrays.map((a) => (typeof a === 'string' ? Buffer.from(a, 'utf8') : a)).filter((a) => a.length > 2).map((a) => a.subarray(1, a.length - 1));
  return Buffer.concat([OPEN, ...items.flatMap((item, i) => (i === 0 ? [item] : [COMMA, item])), CLOSE]);
}

/**
 * One plan's pruning summary from its shares: each worker listed every manifest and read every
 * delete manifest (those counts are each worker's), and read, kept and pruned its own share.
 */
export function mergeShareStats(shares: readonly PlanStats[]): PlanStats {
  const sum = (k: keyof PlanStats) => shares.reduce((n, s) => n + s[k], 0);
  const max = (k: keyof PlanStats) => shares.reduce((n, s) => Math.max(n, s[k]), 0);
  const merged = {
    manifests: max('manifests'),
    dataManifestsRead: sum('dataManifestsRead'),
    deleteManifestsRead: max('deleteManifestsRead'),
    dataFilesKept: sum('dataFilesKept'),
    dataFilesPruned: sum('dataFilesPruned'),
    deleteFilesIndexed: max('deleteFilesIndexed'),
    deletesAttached: sum('deletesAttached'),
    contradictoryMetrics: sum('contradictoryMetrics'),
  };
  return { ...merged, manifestsSkipped: merged.manifests - merged.dataManifestsRead - merged.deleteManifestsRead };
}
