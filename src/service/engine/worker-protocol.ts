/**
 * Messages between the main thread and a planning worker (worker-pool.ts ↔ planning-worker.ts).
 * A job names its table by two numbers: `ref`, live while the job runs, through which the worker
 * reads files with the main thread's FileIO (credentials and remaps never leave the main thread;
 * a local file's confined path does, and the worker reads it itself),
 * and `meta`, one per metadata object, under which the worker keeps the parsed metadata.
 */
import { ERROR_CODES, IcefrontError, type ErrorCode } from '../../errors/index.js';
import type { ManifestRange } from '../../iceberg/index.js';
import type { RangeToRead } from '../../planner/index.js';
import type { ListFacts } from '../../tokens/index.js';
import type { PlanShare, SizedPlan } from './plan-engine.js';

interface JobBase {
  readonly kind: 'job';
  readonly id: number;
  /** The Icefront instance asking: each has caches of its own in every worker. */
  readonly engine: number;
  /** That instance's cache budget in this worker (used when its caches are made). */
  readonly cacheBytes: number;
  /** How long a value nobody reads stays in those caches (0: until pushed out). */
  readonly cacheIdleMs: number;
  /** How many workers split a snapshot's manifests between them (plan-engine.ts `shareOf`): this one caches its share. */
  readonly shares: number;
  /** Which share is this worker's: the slot of the thread the job runs on. */
  readonly thread: number;
  readonly prefix: string;
  readonly ref: number;
  readonly meta: number;
  readonly identifier: { readonly namespace: readonly string[]; readonly name: string };
  /**
   * The scan as lossless JSON text (stringifyJson): a structured clone would turn a filter's
   * JsonFloat literal (`30.0`, its decimal point kept) into a plain object.
   */
  readonly scan: string;
  /** The pinned snapshot (ignored by an incremental scan, which carries its range). */
  readonly snapshotId: bigint;
  /** The table's FileIO hands out local paths (FileIO.localPath): the worker reads those files itself. */
  readonly local: boolean;
}

export interface SizeJob extends JobBase {
  readonly op: 'size';
  readonly minRows?: bigint;
  readonly share?: PlanShare;
}

export interface WriteJob extends JobBase {
  readonly op: 'write';
  readonly ranges: readonly RangeToRead[];
  readonly noDeletes?: boolean;
}

/** Plan-task strings for some runs of a plan's batches (plan-engine.ts PlanTaskRuns). */
export interface TasksJob extends JobBase {
  readonly op: 'tasks';
  /** The plan the strings name; its scan as lossless JSON text, as the job's. */
  readonly task: {
    readonly catalog: string;
    readonly namespace: readonly string[];
    readonly table: string;
    readonly tableUuid?: string;
    readonly snapshotId: bigint;
    readonly scan: string;
    readonly facts?: ListFacts;
  };
  readonly batches: readonly (readonly ManifestRange[])[];
  readonly run: number;
  /** The token key (a copy: the structured clone of a Buffer). */
  readonly key?: Uint8Array;
}

export type Job = SizeJob | WriteJob | TasksJob;

/** What the worker asks of the main thread while a job runs. */
export type CallOp = 'readFile' | 'readRange' | 'localPath' | 'stat' | 'exists' | 'list' | 'metadata';

export interface Call {
  readonly kind: 'call';
  readonly id: number;
  readonly ref: number;
  readonly op: CallOp;
  readonly args: readonly unknown[];
}

export interface Reply {
  readonly kind: 'reply';
  readonly id: number;
  readonly value?: unknown;
  readonly error?: WireError;
}

/** Counts a worker made for one instance since its last report; cache gauges are current values. */
export interface WorkerReport {
  readonly counters: Readonly<Record<'manifestReads' | 'manifestReadsCoalesced' | 'deleteIndexBuilds', number>>;
  readonly caches: Readonly<Record<string, CacheReport>>;
  /** The worker's V8 heap when the job finished (v8.getHeapStatistics in its own isolate): bytes in use and committed. */
  readonly heap: { readonly used: number; readonly committed: number };
}

export interface CacheReport {
  hit: number;
  miss: number;
  coalesced: number;
  evicted: number;
  bytes: number;
  inFlight: number;
  /** The cache's byte bound in this worker (0 until reported). */
  budget: number;
}

/**
 * WrittenTasks as a message carries them: the structured clone copies each array (never
 * transferred: see docs/architecture.md, planning off the event loop), and hands the main thread
 * a large one's bytes as a plain Uint8Array (worker-pool.ts makes it a Buffer again, without
 * another copy); plan-engine.ts `jsonText` says which are bytes.
 */
export interface WireWrittenTasks {
  readonly deleteFiles?: string | Uint8Array;
  readonly fileScanTasks: string | Uint8Array;
  readonly count: number;
}

export interface Done {
  readonly kind: 'done';
  readonly id: number;
  readonly value?: SizedPlan | WireWrittenTasks | readonly string[] | null;
  readonly error?: WireError;
  /** Data files whose metrics contradicted themselves in this job, as [path, field ids]. */
  readonly contradictions: readonly (readonly [string, readonly number[]])[];
  readonly report: WorkerReport;
}

/** An instance closed: its caches go. */
export interface Drop {
  readonly kind: 'drop';
  readonly engine: number;
}

export type ToWorker = Job | Reply | Drop;
/** The worker's module is loaded and listening. */
export interface Ready {
  readonly kind: 'ready';
}

export type FromWorker = Call | Done | Ready;

export interface WireError {
  readonly code?: string;
  readonly message: string;
}

export function errorToWire(err: unknown): WireError {
  if (err instanceof IcefrontError) return { code: err.code, message: err.message };
  return { message: err instanceof Error ? err.message : String(err) };
}

/** The error again: an IcefrontError keeps its code; anything else is an internal error. */
export function errorFromWire(wire: WireError, where: string): IcefrontError {
  if (wire.code !== undefined && Object.hasOwn(ERROR_CODES, wire.code)) return new IcefrontError(wire.code as ErrorCode, wire.message);
  return new IcefrontError('INTERNAL', `${where}: ${wire.message}`);
}
