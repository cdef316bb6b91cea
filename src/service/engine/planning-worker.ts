/**
 * A planning worker thread (started by worker-pool.ts): runs a local plan engine per Icefront
 * instance of the process, with caches of that instance's share of its `planning.cache-bytes`,
 * and reads every file through the main thread's FileIO (a local file at the path it resolved).
 * The pool sends each manifest to the same worker every time, so a worker's caches and its
 * coalescing see every request for the manifests it owns.
 */
import fs from 'node:fs';
import os from 'node:os';
import v8 from 'node:v8';
import { parentPort } from 'node:worker_threads';
import { fail } from '../../errors/index.js';
import { parseTableMetadata, type TableMetadata } from '../../iceberg/index.js';
import { parseJson } from '../../json/index.js';
import type { PlanScan } from '../../tokens/index.js';
import type { CacheMetrics } from '../../observability/index.js';
import { readLocalFile, readLocalRange, type DirEntry, type FileIO, type FileStat } from '../../storage/index.js';
import { createLocalPlanEngine, encodePlanTaskRuns, type PlanEngine, type PlanJob, type PlanShare, type WrittenTasks } from './plan-engine.js';
import { createPlanningCaches } from './planning-caches.js';
import { requestOf } from './scan-codec.js';
import { ParsedMetadata } from './worker-metadata.js';
import { errorFromWire, errorToWire, type CacheReport, type CallOp, type Done, type Job, type TasksJob, type ToWorker, type WireWrittenTasks, type WorkerReport } from './worker-protocol.js';

const port = parentPort!;

/**
 * Below the main thread's scheduling priority (Linux: nice +10 for this thread only, found through
 * /proc/thread-self), so that when planning has every core busy the thread serving requests
 * still gets one. Elsewhere, or when refused, the thread keeps the process's priority.
 */
function lowerPriority(): void {
  try {
    const tid = Number(fs.readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isSafeInteger(tid) && tid > 0) os.setPriority(tid, Math.min(19, os.getPriority(tid) + 10));
  } catch {
    // not Linux, or not allowed: planning shares the CPU evenly
  }
}
lowerPriority();

/** One Icefront instance's engine, caches and unreported counts in this worker. */
interface Instance {
  readonly engine: PlanEngine;
  readonly counters: Record<'manifestReads' | 'manifestReadsCoalesced' | 'deleteIndexBuilds', number>;
  readonly caches: Record<string, CacheReport>;
}

const instances = new Map<number, Instance>();

function instanceFor(id: number, cacheBytes: number, cacheIdleMs: number, share: PlanShare): Instance {
  let instance = instances.get(id);
  if (instance) return instance;
  const counters = { manifestReads: 0, manifestReadsCoalesced: 0, deleteIndexBuilds: 0 };
  const caches: Record<string, CacheReport> = {};
  const cacheOf = (name: string): CacheReport => (caches[name] ??= { hit: 0, miss: 0, coalesced: 0, evicted: 0, bytes: 0, inFlight: 0, budget: 0 });
  const cacheMetrics: CacheMetrics = {
    hit: (name) => void cacheOf(name).hit++,
    miss: (name) => void cacheOf(name).miss++,
    coalesced: (name) => void cacheOf(name).coalesced++,
    evicted: (name) => void cacheOf(name).evicted++,
    bytes: (name, bytes) => void (cacheOf(name).bytes = bytes),
    inFlight: (name, count) => void (cacheOf(name).inFlight = count),
    budget: (name, bytes) => void (cacheOf(name).budget = bytes),
  };
  const counter = (name: keyof typeof counters) => ({ inc: (n = 1) => void (counters[name] += n) });
  const planningCaches = createPlanningCaches(cacheBytes, { cache: cacheMetrics, manifestReadsCoalesced: counter('manifestReadsCoalesced') }, { share, idleMs: cacheIdleMs });
  const engine = createLocalPlanEngine({
    ...planningCaches,
    metrics: { manifestReads: counter('manifestReads'), deleteIndexBuilds: counter('deleteIndexBuilds') },
  });
  instance = { engine, counters, caches };
  instances.set(id, instance);
  return instance;
}

function heapNow(): WorkerReport['heap'] {
  const heap = v8.getHeapStatistics();
  return { used: heap.used_heap_size, committed: heap.total_heap_size };
}

/** Takes the counts made since the last report; gauges stay. */
function report(instance: Instance): WorkerReport {
  const { counters, caches } = instance;
  const out: WorkerReport = { counters: { ...counters }, caches: structuredClone(caches), heap: heapNow() };
  counters.manifestReads = counters.manifestReadsCoalesced = counters.deleteIndexBuilds = 0;
  for (const c of Object.values(caches)) c.hit = c.miss = c.coalesced = c.evicted = 0;
  return out;
}

// Calls to the main thread, answered by `reply` messages.
let nextCall = 1;
const calls = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
function call(ref: number, op: CallOp, args: readonly unknown[]): Promise<unknown> {
  const id = nextCall++;
  return new Promise((resolve, reject) => {
    calls.set(id, { resolve, reject });
    port.postMessage({ kind: 'call', id, ref, op, args });
  });
}

const asBuffer = (v: unknown): Buffer => {
  const u8 = v as Uint8Array;
  return Buffer.from(u8.buffer, u8.byteOffset, u8.byteLength);
};

/**
 * The main thread's FileIO for the job's table. Local files are read here, at the path the main
 * thread resolved and confined (FileIO.localPath): no bytes copied between threads, and the main
 * thread's CPU during a cold 100,000-file plan with two workers went from ~50 ms to ~25 ms
 * (the plan's time did not change beyond the machine's noise).
 */
function proxyIO(ref: number, local: boolean): FileIO {
  const localPath = async (location: string) => (await call(ref, 'localPath', [location])) as string;
  return {
    readFile: async (location) => (local ? readLocalFile(await localPath(location), location) : asBuffer(await call(ref, 'readFile', [location]))),
    readRange: async (location, offset, length) =>
      local ? readLocalRange(await localPath(location), location, offset, length) : asBuffer(await call(ref, 'readRange', [location, offset, length])),
    stat: async (location) => (await call(ref, 'stat', [location])) as FileStat,
    exists: async (location) => (await call(ref, 'exists', [location])) as boolean,
    list: async (location) => (await call(ref, 'list', [location])) as DirEntry[],
  };
}

/** Parsed metadata by the pool's number for it: 64 versions, 32 M characters of their JSON at most. */
const metadata = new ParsedMetadata<TableMetadata>({ maxVersions: 64, maxTextChars: 32 * 1024 * 1024 });
function metadataOf(job: Job): Promise<TableMetadata> {
  return metadata.get(job.meta, async () => (await call(job.ref, 'metadata', [])) as string, parseTableMetadata);
}

/** Contradictions reported per job, at most this many (the count of the rest is lost). */
const MAX_CONTRADICTIONS = 10_000;

/** Counts nothing: a tasks job reads no file and touches no cache. */
const NOTHING = { counters: { manifestReads: 0, manifestReadsCoalesced: 0, deleteIndexBuilds: 0 }, caches: {} } as const;

/** Plan-task strings: tokens only, no table work, so no instance. */
async function encodeTasks(job: TasksJob): Promise<void> {
  let done: Done;
  try {
    const { scan, ...task } = job.task;
    const ref = { ...task, scan: parseJson(scan) as PlanScan };
    const key = job.key && Buffer.from(job.key.buffer, job.key.byteOffset, job.key.byteLength);
    const value = await encodePlanTaskRuns({ ref, batches: job.batches, ...(key && { key }) }, job.run);
    done = { kind: 'done', id: job.id, value, contradictions: [], report: { ...NOTHING, heap: heapNow() } };
  } catch (err) {
    done = { kind: 'done', id: job.id, error: errorToWire(err), contradictions: [], report: { ...NOTHING, heap: heapNow() } };
  }
  port.postMessage(done);
}

async function run(job: Job): Promise<void> {
  if (job.op === 'tasks') return encodeTasks(job);
  const instance = instanceFor(job.engine, job.cacheBytes, job.cacheIdleMs, { index: job.thread, count: job.shares });
  const { engine } = instance;
  const contradictions: (readonly [string, readonly number[]])[] = [];
  let done: Omit<Done, 'report'>;
  try {
    const planJob: PlanJob = {
      prefix: job.prefix,
      table: { identifier: { namespace: [...job.identifier.namespace], name: job.identifier.name }, metadata: await metadataOf(job), io: proxyIO(job.ref, job.local) },
      request: requestOf(parseJson(job.scan) as PlanScan, job.snapshotId),
      onContradiction: (filePath, fieldIds) => {
        if (contradictions.length < MAX_CONTRADICTIONS) contradictions.push([filePath, [...fieldIds]]);
      },
    };
    if (job.op === 'size') {
      // the sized arrays are copied by the clone, not transferred (worker-pool.ts `cloneable`: no detach)
      const value = await engine.size(planJob, { ...(job.minRows !== undefined && { minRows: job.minRows }), ...(job.share && { share: job.share }) });
      done = { kind: 'done', id: job.id, value, contradictions };
    } else {
      const written = await engine.write(planJob, job.ranges, { ...(job.noDeletes && { noDeletes: true }) });
      done = { kind: 'done', id: job.id, value: written ? onWire(written) : null, contradictions };
    }
  } catch (err) {
    done = { kind: 'done', id: job.id, error: errorToWire(err), contradictions };
  }
  port.postMessage({ ...done, report: report(instance) });
}

/** WrittenTasks for the structured clone, each byte array over an ArrayBuffer of its own (the clone copies a view's whole ArrayBuffer). */
function onWire(written: WrittenTasks): WireWrittenTasks {
  return { ...(written.deleteFiles !== undefined && { deleteFiles: own(written.deleteFiles) }), fileScanTasks: own(written.fileScanTasks), count: written.count };
}

/** A string as it is; bytes, or an exact copy of them when they share their ArrayBuffer (Buffer's pool holds short ones). */
function own(text: string | Uint8Array): string | Uint8Array {
  if (typeof text === 'string') return text;
  return text.byteOffset === 0 && text.byteLength === text.buffer.byteLength ? text : new Uint8Array(text);
}

port.on('message', (msg: ToWorker) => {
  if (msg.kind === 'reply') {
    const pending = calls.get(msg.id);
    if (!pending) return;
    calls.delete(msg.id);
    if (msg.error) pending.reject(errorFromWire(msg.error, 'planning worker read'));
    else pending.resolve(msg.value);
  } else if (msg.kind === 'job') {
    void run(msg);
  } else if (msg.kind === 'drop') {
    instances.delete(msg.engine);
  } else {
    throw fail('INTERNAL', 'planning worker: unknown message');
  }
});

port.postMessage({ kind: 'ready' });
