/**
 * Plan the file scan tasks of one scan (wire-format §12; Java DataTableScan → ManifestGroup):
 * snapshot → manifest list → pruned manifests → live entries pruned by partition and metrics →
 * delete index → one task per data file with its deletes and residual.
 */
import type { ManifestFile, ManifestRange, PartitionSpec, Schema, TableMetadata } from '../../iceberg/index.js';
import type { ManifestIndex } from '../manifests/index.js';
import { compareTasks, type FileTask } from './file-task.js';
import { ScanContext, type PlanOptions, type PlanStats } from './scan-context.js';
import type { ScanRequest } from './scan-request.js';
import type { ScanTarget } from './scan-target.js';

export interface ScanPlan {
  readonly target: ScanTarget;
  readonly schema: Schema;
  readonly specsById: ReadonlyMap<number, PartitionSpec>;
  /** Field ids whose stats data files carry on the wire (`stats-fields`). */
  readonly statsFieldIds: ReadonlySet<number>;
  /** Every task, in the total order of `compareTasks`. */
  readonly tasks: readonly FileTask[];
  readonly stats: PlanStats;
}

/** The tasks one data manifest contributed, in entry order, with the blocks the read walked. */
export interface ManifestTasks {
  readonly manifest: ManifestFile;
  /** Its place among the scan's data manifests, in manifest-list order. */
  readonly ordinal: number;
  readonly index: ManifestIndex;
  readonly tasks: readonly FileTask[];
}

export interface ManifestOrderedPlan extends Omit<ScanPlan, 'tasks'> {
  /** Per data manifest, in manifest-list order; tasks in entry order. */
  readonly manifests: readonly ManifestTasks[];
}

export interface ByManifestOptions extends PlanOptions {
  readonly minRows?: bigint;
  /** Plan only the data manifests this keeps (one share of a plan split between workers). */
  readonly only?: (manifest: ManifestFile, ordinal: number) => boolean;
}

/**
 * Plan every task of the scan, grouped by manifest (the order plan-task batches follow). With
 * `minRows` (REST `min-rows-requested`), manifests are read in list order, a window at a time, and
 * reading stops once the tasks so far cover that many rows: the plan is then a prefix.
 */
export async function planByManifest(metadata: TableMetadata, request: ScanRequest, options: ByManifestOptions): Promise<ManifestOrderedPlan> {
  return planEachManifest(metadata, request, options, (m) => m);
}

/**
 * `planByManifest`, handing each manifest's tasks to `each` as soon as they are known and keeping
 * only what it returns: a plan of a million files need not hold a million tasks at once.
 */
export async function planEachManifest<R>(
  metadata: TableMetadata,
  request: ScanRequest,
  options: ByManifestOptions,
  each: (manifest: ManifestTasks, plan: Omit<ScanPlan, 'tasks'>) => R,
): Promise<Omit<ScanPlan, 'tasks'> & { readonly manifests: readonly R[] }> {
  const ctx = new ScanContext(metadata, request, options);
  const listed = await ctx.dataManifests();
  const only = options.only;
  const data = only ? listed.filter((m, i) => only(m, i)) : listed;
  const ordinals = new Map(listed.map((m, i) => [m, i] as const));
  const statsFieldIds = await ctx.dataStatsIds();
  const plan = { target: ctx.target, schema: ctx.schema, specsById: ctx.specsById, statsFieldIds: ctx.statsFieldIds, stats: ctx.stats };
  let rows = 0n;
  const planManifest = async (manifest: ManifestFile): Promise<R> => {
    const slice = await ctx.read(manifest, { statsFieldIds });
    const tasks = await ctx.tasksFor(slice);
    if (options.minRows !== undefined) for (const task of tasks) rows += task.data.file.recordCount;
    return each({ manifest, ordinal: ordinals.get(manifest)!, index: slice.index, tasks }, plan);
  };
  let manifests: R[];
  if (options.minRows === undefined) {
    manifests = await Promise.all(data.map(planManifest));
  } else {
    manifests = [];
    const window = options.concurrency ?? 8;
    for (let i = 0; i < data.length && rows < options.minRows; i += window) manifests.push(...(await Promise.all(data.slice(i, i + window).map(planManifest))));
  }
  ctx.stats.dataManifestsRead = manifests.length;
  ctx.stats.manifestsSkipped = ctx.stats.manifests - manifests.length - ctx.stats.deleteManifestsRead;
  return { ...plan, manifests };
}

/** Plan every task of the scan, in the total order (file location, …, manifest, position). */
export async function planFiles(metadata: TableMetadata, request: ScanRequest, options: PlanOptions): Promise<ScanPlan> {
  const { manifests, ...rest } = await planByManifest(metadata, request, options);
  const tasks = manifests.flatMap((m) => m.tasks).sort(compareTasks);
  return { ...rest, tasks };
}

/** A range of a data manifest to read (a plan task's), with its block hint if it has one. */
export interface RangeToRead extends ManifestRange {
  /**
   * Its manifest-list entry, when the caller vouches for it (a plan task whose MAC verified
   * carries it): then the manifest list is not read to find it.
   */
  readonly listed?: ManifestFile;
  /**
   * The ordinals (ascending, within the range) of the entries whose tasks this scan keeps, when
   * the caller planned the same scan a moment ago (a plan's inline batch): only they are turned
   * into tasks, and the others are not judged again. Never from a plan-task string.
   */
  readonly kept?: Int32Array;
}

export interface RangesOptions extends PlanOptions {
  /** The caller vouches that no delete file of the snapshot applies (the plan found none). */
  readonly noDeletes?: boolean;
}

/**
 * The tasks of some manifest ranges of the scan's snapshot (a plan-task redemption): reads only
 * those slices plus the snapshot's delete index. Undefined when a range names a manifest that is
 * not a data manifest this scan reads (a foreign or forged range). Ranges that carry their list
 * entry, with `noDeletes`, read no manifest list at all: the cost follows the ranges, not the
 * table (issue #12 part 5).
 */
export async function planRanges(
  metadata: TableMetadata,
  request: ScanRequest,
  ranges: readonly RangeToRead[],
  options: RangesOptions,
): Promise<ScanPlan | undefined> {
  const ctx = new ScanContext(metadata, request, options);
  if (options.noDeletes) ctx.assumeNoDeletes();
  const byPath = new Map<string, ManifestFile>();
  for (const r of ranges) {
    if (r.listed && (r.listed.path !== r.manifest || r.listed.content !== 0)) return undefined;
    const m = r.listed ?? byPath.get(r.manifest) ?? (await ctx.dataManifest(r.manifest));
    if (!m) return undefined;
    byPath.set(r.manifest, m);
  }
  const statsFieldIds = await ctx.dataStatsIds();
  const groups = await Promise.all(
    ranges.map(async (r): Promise<FileTask[] | undefined> => {
      const index = blockHint(r);
      const slice = await ctx.read(byPath.get(r.manifest)!, { statsFieldIds, range: { start: r.start, end: r.end }, ...(index && { index }) });
      // a range that runs past the manifest's last entry was not cut from this manifest
      if (slice.entries.length !== r.end - r.start) return undefined;
      return ctx.tasksFor(slice, r.kept?.map((ordinal) => ordinal - r.start));
    }),
  );
  if (!groups.every((g) => g !== undefined)) return undefined;
  const tasks = groups.flat().sort(compareTasks);
  return { target: ctx.target, schema: ctx.schema, specsById: ctx.specsById, statsFieldIds: ctx.statsFieldIds, stats: ctx.stats, tasks };
}

/**
 * The blocks a range's hint says cover it (offset and byte length of the run, first entry and
 * row id of its first block), as one span the reader can start at; none without a hint.
 */
function blockHint(r: ManifestRange): ManifestIndex | undefined {
  if (r.offset === undefined || r.length === undefined || r.first === undefined) return undefined;
  return { blocks: [{ offset: r.offset, byteLength: r.length, firstEntry: r.first, entryCount: r.end - r.first, ...(r.nextRowId !== undefined && { nextRowId: r.nextRowId }) }] };
}
