/**
 * Everything one scan needs, built once per request: the resolved snapshot and schema, per-spec
 * evaluators (Java ManifestGroup's per-spec caches), the snapshot's manifests and its delete
 * index. Both a full plan and a plan-task redemption work through it.
 */
import { createHash } from 'node:crypto';
import pLimit, { type LimitFunction } from 'p-limit';
import { fail } from '../../errors/index.js';
import {
  isLiveEntry,
  isTrue,
  mayHaveLiveFiles,
  type ManifestEntry,
  type ManifestFile,
  type PartitionSpec,
  type Schema,
  type Snapshot,
  type TableMetadata,
} from '../../iceberg/index.js';
import { DeleteFileIndex } from '../deletes/index.js';
import { InclusiveMetricsEvaluator, ManifestEvaluator, PartitionEvaluator, ResidualEvaluator } from '../expressions/index.js';
import type { PooledMetrics } from '../manifests/index.js';
import type { FileTask } from './file-task.js';
import type { EntriesRequest, ManifestSlice, ManifestSource } from './manifest-source.js';
import { columnIds, filterFieldIds } from './referenced-fields.js';
import type { ScanRequest } from './scan-request.js';
import { resolveScanTarget, type ScanTarget } from './scan-target.js';

export interface PlanStats {
  manifests: number;
  dataManifestsRead: number;
  deleteManifestsRead: number;
  manifestsSkipped: number;
  dataFilesKept: number;
  dataFilesPruned: number;
  deleteFilesIndexed: number;
  deletesAttached: number;
  /** Data files whose metrics for a filter column contradicted themselves and were ignored. */
  contradictoryMetrics: number;
}

export interface PlanOptions {
  readonly source: ManifestSource;
  /** Manifests read at once (default 8). */
  readonly concurrency?: number;
  /**
   * Shares delete indexes between requests: called with a key naming every input the index
   * depends on (table, its delete manifests, schema, filter) and the computation. Default: build per scan.
   */
  readonly deleteIndexCache?: (key: string, build: () => Promise<DeleteFileIndex>) => Promise<DeleteFileIndex>;
  /** The table identity for cache keys (uuid or location). */
  readonly tableKey?: string;
  /** Told of each data file whose metrics for the named filter columns contradict themselves. */
  readonly onContradictoryMetrics?: (filePath: string, fieldIds: readonly number[]) => void;
}

interface SpecEvaluators {
  readonly manifest: ManifestEvaluator;
  readonly partition: PartitionEvaluator;
  readonly residual: ResidualEvaluator;
}

/**
 * Each manifest path once, at its first listing. A manifest list may name one manifest many times
 * (a synthetic table repeats one manifest 10,000 times): the file holds the same entries however
 * often it is listed, so reading it again would hand every engine the same data files again
 * (duplicated rows). Java's ManifestGroup would read it again; a file is live once.
 */
function distinctManifests(listed: readonly ManifestFile[]): readonly ManifestFile[] {
  const seen = new Set<string>();
  const out = listed.filter((m) => !seen.has(m.path) && seen.add(m.path));
  return out.length === listed.length ? listed : out;
}

/** Manifests by path, per (cached, immutable) manifest list. */
const BY_PATH = new WeakMap<readonly ManifestFile[], ReadonlyMap<string, ManifestFile>>();

export class ScanContext {
  readonly target: ScanTarget;
  readonly schema: Schema;
  readonly specsById: ReadonlyMap<number, PartitionSpec>;
  /** Field ids whose stats data files carry on the wire (`stats-fields`). */
  readonly statsFieldIds: ReadonlySet<number>;
  readonly stats: PlanStats = {
    manifests: 0,
    dataManifestsRead: 0,
    deleteManifestsRead: 0,
    manifestsSkipped: 0,
    dataFilesKept: 0,
    dataFilesPruned: 0,
    deleteFilesIndexed: 0,
    deletesAttached: 0,
    contradictoryMetrics: 0,
  };
  private readonly filterIds: ReadonlySet<number>;
  private readonly evaluators = new Map<number, SpecEvaluators>();
  private readonly metrics: InclusiveMetricsEvaluator;
  private readonly filtered: boolean;
  private readonly limit: LimitFunction;
  /** An incremental scan's append snapshots by id (§12.8: their manifests and ADDED entries only). */
  private readonly appendIds?: ReadonlySet<bigint>;
  private manifestsMemo?: Promise<readonly ManifestFile[]>;
  private deletesMemo?: Promise<{ index: DeleteFileIndex; equalityIds: readonly number[] }>;

  constructor(
    readonly metadata: TableMetadata,
    readonly request: ScanRequest,
    private readonly options: PlanOptions,
  ) {
    this.target = resolveScanTarget(metadata, request);
    if (this.target.kind === 'incremental') this.appendIds = new Set(this.target.appends.map((s) => s.snapshotId));
    this.schema = this.target.schema;
    this.specsById = new Map(metadata.partitionSpecs.map((s) => [s.specId, s] as const));
    const { filter, caseSensitive } = request;
    // Validate the request against the scan schema before any I/O (400s name the column).
    if (request.select) columnIds(request.select, this.schema, caseSensitive, 'select');
    this.statsFieldIds = request.statsFields ? columnIds(request.statsFields, this.schema, caseSensitive, 'stats-fields') : new Set();
    this.filterIds = filterFieldIds(filter, this.schema, caseSensitive);
    this.metrics = new InclusiveMetricsEvaluator(this.schema, filter, caseSensitive, {
      onContradiction: (file, fieldIds) => {
        this.stats.contradictoryMetrics++;
        options.onContradictoryMetrics?.(file.filePath, fieldIds);
      },
    });
    // Java ManifestReader evaluates entries only when a filter is set: an unfiltered scan keeps
    // every live file, even one whose record_count is 0 (which the metrics evaluator would drop).
    this.filtered = !isTrue(filter);
    this.limit = pLimit(options.concurrency ?? 8);
  }

  private forSpec(specId: number): SpecEvaluators {
    let e = this.evaluators.get(specId);
    if (!e) {
      const spec = this.specsById.get(specId);
      if (!spec) throw fail('INVALID_METADATA', `Manifest refers to unknown partition spec id ${specId}`);
      const { filter, caseSensitive } = this.request;
      e = {
        manifest: new ManifestEvaluator(spec, this.schema, filter, caseSensitive),
        partition: new PartitionEvaluator(spec, this.schema, filter, caseSensitive),
        residual: new ResidualEvaluator(spec, this.schema, filter, caseSensitive),
      };
      this.evaluators.set(specId, e);
    }
    return e;
  }

  /**
   * The manifests the scan reads from (once per scan): the snapshot's, or for an incremental
   * scan every append's own data manifests; empty for a table without snapshots.
   */
  manifests(): Promise<readonly ManifestFile[]> {
    const target = this.target;
    if (target.kind === 'empty') return Promise.resolve([]);
    this.manifestsMemo ??= (target.kind === 'incremental' ? this.appendedManifests(target.appends) : this.options.source.manifests(target.snapshot)).then(
      (listed) => {
        const m = distinctManifests(listed);
        this.stats.manifests = m.length;
        return m;
      },
    );
    return this.manifestsMemo;
  }

  /**
   * §12.8, Java BaseIncrementalAppendScan.appendFilesFromSnapshots: each append of the range
   * contributes the data manifests it wrote, found in its own manifest list. The end snapshot's
   * list is not enough: a later delete, overwrite, compaction or manifest rewrite in the range
   * may have moved an appended file into a manifest another snapshot wrote, as EXISTING or
   * DELETED, and Java still returns it. Oldest append first; a manifest kept by later appends
   * is listed once.
   */
  private async appendedManifests(appends: readonly Snapshot[]): Promise<ManifestFile[]> {
    const lists = await Promise.all(appends.map((s) => this.limit(() => this.options.source.manifests(s))));
    return lists.flat().filter((m) => m.content === 0 && this.appendIds!.has(m.addedSnapshotId));
  }

  private keep(m: ManifestFile): boolean {
    return mayHaveLiveFiles(m) && this.forSpec(m.specId).manifest.mightMatch(m);
  }

  /** Data manifests the scan reads, in manifest-list order. */
  async dataManifests(): Promise<ManifestFile[]> {
    return (await this.manifests()).filter((m) => this.reads(m));
  }

  /**
   * The data manifest at `path` if the scan reads it, else undefined: what a plan-task redemption
   * asks of its ranges, at a cost that does not grow with the manifest list (a map per list).
   */
  async dataManifest(path: string): Promise<ManifestFile | undefined> {
    const list = await this.manifests();
    let byPath = BY_PATH.get(list);
    if (!byPath) BY_PATH.set(list, (byPath = new Map(list.map((m) => [m.path, m] as const))));
    const m = byPath.get(path);
    return m && this.reads(m) ? m : undefined;
  }

  private reads(m: ManifestFile): boolean {
    const incremental = this.appendIds;
    // §12.8: an incremental append scan reads only data manifests added by its append snapshots.
    return m.content === 0 && (!incremental || incremental.has(m.addedSnapshotId)) && this.keep(m);
  }

  private partitionMatches(entry: ManifestEntry): boolean {
    return !this.filtered || this.forSpec(entry.file.specId).partition.matches(entry.file.partition);
  }

  private matches(entry: ManifestEntry, pooled: PooledMetrics | undefined, ordinal: number): boolean {
    if (!this.partitionMatches(entry)) return false;
    if (!this.filtered) return true;
    return this.metrics.mightMatch(pooled === undefined ? entry.file : pooled.at(ordinal, entry.file));
  }

  /**
   * Takes the caller's word that no delete file of the snapshot applies to this scan (a signed
   * plan task says its plan found none), so the manifest list is not read for delete manifests.
   */
  assumeNoDeletes(): void {
    this.deletesMemo = Promise.resolve({ index: DeleteFileIndex.build([], this), equalityIds: [] });
  }

  /** The live delete files of the snapshot that can apply to matching rows (built once per scan, or shared). */
  private deletes(): Promise<{ index: DeleteFileIndex; equalityIds: readonly number[] }> {
    this.deletesMemo ??= (async () => {
      // §12.8: an incremental append scan attaches no deletes.
      const deleteManifests = this.target.kind === 'incremental' ? [] : (await this.manifests()).filter((m) => m.content === 1 && this.keep(m));
      // counted whether the index is built here or shared from the cache, as data manifests are
      // counted whether their slices are read or cached (else the status page calls them skipped)
      this.stats.deleteManifestsRead = deleteManifests.length;
      const build = async (): Promise<DeleteFileIndex> => {
        if (deleteManifests.length === 0) return DeleteFileIndex.build([], this);
        // Delete files keep all their stats: file_path bounds scope position deletes, equality ids prune.
        const slices = await Promise.all(deleteManifests.map((m) => this.read(m, {})));
        // Delete files are pruned by partition only. Java also applies the row filter to their
        // column stats, but equality delete files may carry meaningless stats for non-key columns
        // (a writer fault seen in real tables), and pruning on them resurrects deleted rows.
        const live = slices.flatMap((s) => s.entries).filter((e) => isLiveEntry(e) && this.partitionMatches(e));
        return DeleteFileIndex.build(live, this);
      };
      const key = this.deleteIndexKey(deleteManifests);
      const index = key && this.options.deleteIndexCache ? await this.options.deleteIndexCache(key, build) : await build();
      this.stats.deleteFilesIndexed = index.size;
      return { index, equalityIds: index.equalityFieldIds() };
    })();
    return this.deletesMemo;
  }

  /**
   * The index is built from the delete manifests the filter keeps, which are immutable (a manifest
   * keeps its path, length and sequence number in every list that names it), so it is keyed by
   * them, not by the snapshot: a commit that adds data only (an append) plans with the index of
   * the snapshot before it instead of building it again, and a run of appends leaves one entry.
   */
  private deleteIndexKey(deleteManifests: readonly ManifestFile[]): string | undefined {
    // An incremental scan's index is empty and built for nothing: shared, it would stand for a
    // point-in-time plan's real deletes.
    if (this.options.tableKey === undefined || this.target.kind !== 'snapshot') return undefined;
    const { filter, caseSensitive } = this.request;
    const manifests = createHash('sha256');
    for (const m of deleteManifests) manifests.update(`${m.path}\0${m.length}\0${m.specId}\0${m.sequenceNumber}\0${m.minSequenceNumber}\n`);
    return JSON.stringify([this.options.tableKey, manifests.digest('base64'), this.schema.schemaId, caseSensitive, filterKey(filter)]);
  }

  /** Reads a manifest (or a range of it) through the source, bounded in concurrency. */
  read(manifest: ManifestFile, request: Partial<EntriesRequest>): Promise<ManifestSlice> {
    return this.limit(() => this.options.source.read(manifest, { specsById: this.specsById, schema: this.schema, ...request }));
  }

  /** Column ids whose stats data entries must keep: filter, stats-fields and equality-delete pruning. */
  async dataStatsIds(): Promise<ReadonlySet<number>> {
    const { equalityIds } = await this.deletes();
    return new Set([...this.filterIds, ...this.statsFieldIds, ...equalityIds]);
  }

  /**
   * Turns data entries into tasks: live, matching, with their deletes and residual. Keeps entry
   * order. Entries whose stats a slice pooled are evaluated through the pool, and those that match
   * get maps of the columns the task's JSON (stats-fields) and equality-delete pruning read. With
   * `only` (indexes into the slice, ascending), only those entries are looked at.
   */
  async tasksFor(slice: Pick<ManifestSlice, 'entries' | 'metrics'>, only?: Int32Array): Promise<FileTask[]> {
    const { index, equalityIds } = await this.deletes();
    const { entries, metrics: pooled } = slice;
    const taskStats = pooled && (this.statsFieldIds.size > 0 || equalityIds.length > 0) ? new Set([...this.statsFieldIds, ...equalityIds]) : undefined;
    const incremental = this.appendIds;
    const tasks: FileTask[] = [];
    const count = only ? only.length : entries.length;
    for (let n = 0; n < count; n += 1) {
      const i = only ? only[n]! : n;
      const entry = entries[i];
      if (entry === undefined) continue;
      if (!isLiveEntry(entry) || entry.file.content !== 0) continue;
      if (incremental && (entry.status !== 1 || !incremental.has(entry.snapshotId))) continue;
      if (!this.matches(entry, pooled, i)) {
        this.stats.dataFilesPruned++;
        continue;
      }
      const data = taskStats ? pooled!.withMetrics(entry, i, taskStats) : entry;
      const deletes = index.forDataFile(data.dataSequenceNumber, data.file);
      this.stats.deletesAttached += deletes.length;
      tasks.push({ data, deletes, residual: this.forSpec(data.file.specId).residual.residualFor(data.file.partition) });
    }
    this.stats.dataFilesKept += tasks.length;
    return tasks;
  }
}

function filterKey(filter: unknown): string {
  return JSON.stringify(filter, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v));
}
