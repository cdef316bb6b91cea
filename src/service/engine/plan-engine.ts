/**
 * The heavy work behind the scan-planning protocol, apart from its responses (Gravitino design
 * §8.5): sizing a pinned scan (every kept task's entry ordinal, JSON bytes and rows, per data
 * manifest, which is all batch cutting needs), writing the tasks of some manifest ranges as REST
 * ScanTasks JSON (a plan task's redemption, or a plan's inline batch), and writing the plan-task
 * strings of a plan's further batches.
 *
 * `createLocalPlanEngine` does it all on the calling thread; a planning worker runs one of its
 * own (worker-pool.ts), so the main event loop never decodes a manifest.
 */
import type { ComputeCache } from '../../cache/index.js';
import type { ManifestFile, ManifestRange, TableIdentifier, TableMetadata } from '../../iceberg/index.js';
import { stringifyJson } from '../../json/index.js';
import type { Metrics } from '../../observability/index.js';
import {
  fileManifestSource,
  murmur3_32,
  planEachManifest,
  planRanges,
  ScanTasksWriter,
  type DeleteFileIndex,
  type ManifestSource,
  type PlanOptions,
  type PlanStats,
  type RangeToRead,
  type ScanRequest,
} from '../../planner/index.js';
import type { FileIO } from '../../storage/index.js';
import { encodePlanTask, type ListedManifest, type ListFacts, type PlanRef } from '../../tokens/index.js';
import type { SizedManifest } from './batches.js';
import { cachingManifestSource, type ManifestCaches } from './caching-source.js';
import { encodeRuns } from './fit-strings.js';

/** The table a job plans: what the catalog loaded, as far as planning needs it. */
export interface PlanTable {
  readonly identifier: TableIdentifier;
  readonly metadata: TableMetadata;
  readonly io: FileIO;
}

export interface PlanJob {
  /** The catalog prefix: cached work is keyed per catalog too. */
  readonly prefix: string;
  readonly table: PlanTable;
  /** Pinned: a snapshot id, or an incremental range. */
  readonly request: ScanRequest;
  /** Told of each data file whose metrics for the named filter columns contradict themselves. */
  readonly onContradiction?: (filePath: string, fieldIds: readonly number[]) => void;
}

/** One share of a plan: the data manifests whose path hashes to `index` of `count`. */
export interface PlanShare {
  readonly index: number;
  readonly count: number;
}

export interface SizedPlan {
  /** Per data manifest planned, in manifest-list order. */
  readonly manifests: readonly SizedManifest[];
  /** How the plan was reached: manifests read and skipped, files kept and pruned, deletes attached. */
  readonly stats: PlanStats;
}

/** A plan's further batches, to be handed out as plan-task strings (scan-planning.ts). */
export interface PlanTaskRuns {
  /** What every string names: the table, the pinned snapshot and scan; for signed strings, the list facts. */
  readonly ref: PlanRef & { readonly facts?: ListFacts };
  readonly batches: readonly (readonly ManifestRange[])[];
  /** Signs the strings when given. */
  readonly key?: Buffer;
}

/**
 * A ScanTasks answer already serialised: the `delete-files` and `file-scan-tasks` arrays, embedded
 * in the answer as they are. An array of LARGE_JSON_BYTES or more is UTF-8 bytes: a string that
 * size lives in V8's large-object space, which only a full collection empties, and a page of them
 * per request held the main thread's heap at 437 MB during a 1,000,000-file plan. A smaller one
 * stays a string: young strings die in the next scavenge, while many small byte arrays
 * fragmented malloc's arenas (the soak's RSS rose faster with every page as bytes).
 */
export interface WrittenTasks {
  readonly deleteFiles?: JsonText;
  readonly fileScanTasks: JsonText;
  readonly count: number;
}

export type JsonText = string | Buffer;

/** V8's largest regular heap object is 128 KiB (kMaxRegularHeapObjectSize): longer strings are large objects. */
export const LARGE_JSON_BYTES = 128 * 1024;

/** `text` as WrittenTasks holds it: bytes when it is large, else the string. */
export function jsonText(text: string): JsonText {
  return text.length >= LARGE_JSON_BYTES ? Buffer.from(text, 'utf8') : text;
}

export interface PlanEngine {
  /** Every kept task's size, per data manifest; with `minRows`, a prefix covering that many rows. */
  size(job: PlanJob, options?: { readonly minRows?: bigint; readonly share?: PlanShare }): Promise<SizedPlan>;
  /**
   * The tasks of `ranges` as JSON; undefined when a range is not one this scan's manifests hold.
   * Ranges carrying their list entry, with `noDeletes`, are written without reading the list.
   */
  write(job: PlanJob, ranges: readonly RangeToRead[], options?: WriteOptions): Promise<WrittenTasks | undefined>;
  /**
   * The plan-task strings of `tasks`, one per run of `run` batches in batch order (fit-strings.ts):
   * a deflate and an HMAC each, a thousand of them for a 100,000-file plan.
   */
  planTasks(job: PlanJob, tasks: PlanTaskRuns, run: number): Promise<string[]>;
  /** Settles when the engine can take work at once (its workers loaded); rejects if one failed to start. */
  ready(): Promise<void>;
  close(): Promise<void>;
}

export interface WriteOptions {
  /** The caller vouches that no delete file of the snapshot applies (a signed plan task's word). */
  readonly noDeletes?: boolean;
}

export interface LocalPlanEngineOptions {
  readonly manifestCaches?: ManifestCaches;
  readonly deleteIndexCache?: ComputeCache<DeleteFileIndex>;
  readonly metrics?: Pick<Metrics, 'manifestReads' | 'deleteIndexBuilds'>;
}

export function createLocalPlanEngine(options: LocalPlanEngineOptions): PlanEngine {
  function planOptions(job: PlanJob): PlanOptions {
    const { prefix, table } = job;
    // Cached work is keyed per catalog too: two catalogs may hold tables with one UUID and the
    // same manifest paths, and one must never be served the other's decoded manifests.
    const tableKey = JSON.stringify([prefix, table.metadata.tableUuid ?? table.metadata.location]);
    let source: ManifestSource = fileManifestSource(table.io, table.metadata);
    if (options.manifestCaches) source = cachingManifestSource(source, options.manifestCaches, tableKey, options.metrics);
    const deleteCache = options.deleteIndexCache;
    return {
      source,
      tableKey,
      ...(job.onContradiction && { onContradictoryMetrics: job.onContradiction }),
      ...(deleteCache && {
        deleteIndexCache: (k: string, build: () => Promise<DeleteFileIndex>) =>
          deleteCache.get(k, () => {
            options.metrics?.deleteIndexBuilds.inc();
            return build();
          }),
      }),
    };
  }

  return {
    async size(job, sizeOptions = {}) {
      const { minRows, share } = sizeOptions;
      const only = share && share.count > 1 ? (m: ManifestFile) => shareOf(m.path, share.count) === share.index : undefined;
      // each manifest's tasks are sized as they come and then let go (a million-file plan)
      let writer: ScanTasksWriter | undefined;
      const { manifests, stats } = await planEachManifest(
        job.table.metadata,
        job.request,
        { ...planOptions(job), ...(minRows !== undefined && { minRows }), ...(only && { only }) },
        ({ manifest, ordinal, index, tasks }, plan): SizedManifest => {
          writer ??= new ScanTasksWriter(plan);
          const positions = new Int32Array(tasks.length);
          const bytes = new Int32Array(tasks.length);
          const rows = new BigInt64Array(tasks.length);
          tasks.forEach((task, i) => {
            positions[i] = task.data.position;
            bytes[i] = writer!.taskBytes(task);
            rows[i] = task.data.file.recordCount;
          });
          return { path: manifest.path, listed: listedOf(manifest), ordinal, index, positions, bytes, rows };
        },
      );
      return { manifests, stats: { ...stats } };
    },

    async write(job, ranges, writeOptions = {}) {
      const plan = await planRanges(job.table.metadata, job.request, ranges, { ...planOptions(job), ...(writeOptions.noDeletes && { noDeletes: true }) });
      if (!plan) return undefined;
      const json = new ScanTasksWriter(plan).write(plan.tasks);
      return {
        ...(json['delete-files'] && { deleteFiles: jsonText(stringifyJson(json['delete-files'])) }),
        fileScanTasks: jsonText(stringifyJson(json['file-scan-tasks'])),
        count: plan.tasks.length,
      };
    },

    planTasks: (_job, tasks, run) => encodePlanTaskRuns(tasks, run),
    ready: () => Promise.resolve(),
    close: () => Promise.resolve(),
  };
}

/** One plan-task string per run of `run` batches of `tasks`, on the calling thread. */
export function encodePlanTaskRuns({ ref, batches, key }: PlanTaskRuns, run: number): Promise<string[]> {
  return encodeRuns(batches, run, (ranges, more) => encodePlanTask({ ...ref, ranges, ...(more.length > 0 && { more }) }, key));
}

/** What a plan task carries of a manifest-list entry (tokens/plan-task.ts `f`). */
function listedOf(m: ManifestFile): ListedManifest {
  const { path, length, specId, sequenceNumber, minSequenceNumber, addedSnapshotId, firstRowId } = m;
  return { path, length, specId, sequenceNumber, minSequenceNumber, addedSnapshotId, ...(firstRowId !== undefined && { firstRowId }) };
}

/** Which of `count` shares a manifest belongs to: a hash of its path, the same on every call. */
export function shareOf(path: string, count: number): number {
  return (murmur3_32(Buffer.from(path, 'utf8')) >>> 0) % count;
}
