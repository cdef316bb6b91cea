/**
 * Plan the file scan tasks of one scan (wire-format §12; Java DataTableScan → ManifestGroup):
 * snapshot → manifest list → pruned manifests → live entries pruned by partition and metrics →
 * delete index → one task per data file with its deletes and residual, in a total order.
 */
import pLimit from 'p-limit';
import {
  isLiveEntry,
  isTrue,
  mayHaveLiveFiles,
  type ManifestEntry,
  type ManifestFile,
  type PartitionSpec,
  type Schema,
  type TableMetadata,
} from '../../iceberg/index.js';
import { fail } from '../../errors/index.js';
import { DeleteFileIndex } from '../deletes/index.js';
import {
  InclusiveMetricsEvaluator,
  ManifestEvaluator,
  PartitionEvaluator,
  ResidualEvaluator,
} from '../expressions/index.js';
import { compareTasks, type FileTask } from './file-task.js';
import type { ManifestSource } from './manifest-source.js';
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
}

export interface ScanPlan {
  readonly target: ScanTarget;
  readonly schema: Schema;
  readonly specsById: ReadonlyMap<number, PartitionSpec>;
  /** Field ids whose stats data files carry on the wire (`stats-fields`). */
  readonly statsFieldIds: ReadonlySet<number>;
  readonly tasks: readonly FileTask[];
  readonly stats: PlanStats;
}

export interface PlanOptions {
  readonly source: ManifestSource;
  /** Manifests read at once (default 8). */
  readonly concurrency?: number;
}

/** Per-spec evaluators, built once per scan (Java ManifestGroup's per-spec caches). */
interface SpecEvaluators {
  readonly manifest: ManifestEvaluator;
  readonly partition: PartitionEvaluator;
  readonly residual: ResidualEvaluator;
}

export async function planFiles(metadata: TableMetadata, request: ScanRequest, options: PlanOptions): Promise<ScanPlan> {
  const target = resolveScanTarget(metadata, request);
  const schema = target.schema;
  const { filter, caseSensitive } = request;
  const specsById = new Map(metadata.partitionSpecs.map((s) => [s.specId, s] as const));
  // Validate the request against the scan schema before any I/O (400s name the column).
  if (request.select) columnIds(request.select, schema, caseSensitive, 'select');
  const statsFieldIds = request.statsFields ? columnIds(request.statsFields, schema, caseSensitive, 'stats-fields') : new Set<number>();
  const filterIds = filterFieldIds(filter, schema, caseSensitive);
  const stats: PlanStats = {
    manifests: 0,
    dataManifestsRead: 0,
    deleteManifestsRead: 0,
    manifestsSkipped: 0,
    dataFilesKept: 0,
    dataFilesPruned: 0,
    deleteFilesIndexed: 0,
    deletesAttached: 0,
  };
  const plan = (tasks: FileTask[]): ScanPlan => ({ target, schema, specsById, statsFieldIds, tasks, stats });
  if (target.kind === 'empty') return plan([]);

  const evaluators = new Map<number, SpecEvaluators>();
  const forSpec = (specId: number): SpecEvaluators => {
    let e = evaluators.get(specId);
    if (!e) {
      const spec = specsById.get(specId);
      if (!spec) throw fail('INVALID_METADATA', `Manifest refers to unknown partition spec id ${specId}`);
      e = {
        manifest: new ManifestEvaluator(spec, schema, filter, caseSensitive),
        partition: new PartitionEvaluator(spec, schema, filter, caseSensitive),
        residual: new ResidualEvaluator(spec, schema, filter, caseSensitive),
      };
      evaluators.set(specId, e);
    }
    return e;
  };
  const metrics = new InclusiveMetricsEvaluator(schema, filter, caseSensitive);
  // Java ManifestReader evaluates entries only when a filter is set: an unfiltered scan keeps
  // every live file, even one whose record_count is 0 (which the metrics evaluator would drop).
  const filtered = !isTrue(filter);
  const matches = (entry: ManifestEntry): boolean => !filtered || entryMatches(entry, forSpec, metrics);

  const manifests = await options.source.manifests(target.snapshot);
  stats.manifests = manifests.length;
  const incremental = target.kind === 'incremental' ? target.appendSnapshotIds : undefined;
  const keep = (m: ManifestFile): boolean => mayHaveLiveFiles(m) && forSpec(m.specId).manifest.mightMatch(m);
  // §12.8: an incremental append scan reads only data manifests added by its append snapshots, and no deletes.
  const dataManifests = manifests.filter((m) => m.content === 0 && (!incremental || incremental.has(m.addedSnapshotId)) && keep(m));
  const deleteManifests = incremental ? [] : manifests.filter((m) => m.content === 1 && keep(m));
  stats.manifestsSkipped = manifests.length - dataManifests.length - deleteManifests.length;
  stats.dataManifestsRead = dataManifests.length;
  stats.deleteManifestsRead = deleteManifests.length;

  const limit = pLimit(options.concurrency ?? 8);
  const read = (m: ManifestFile, statsIds?: ReadonlySet<number>) =>
    limit(() => options.source.entries(m, { specsById, schema, ...(statsIds && { statsFieldIds: statsIds }) }));

  // Delete files keep all their stats: file_path bounds scope position deletes, equality ids prune.
  const deleteEntries = (await Promise.all(deleteManifests.map((m) => read(m)))).flat();
  const liveDeletes = deleteEntries.filter((e) => isLiveEntry(e) && matches(e));
  const deletes = DeleteFileIndex.build(liveDeletes, { specsById, schema });
  stats.deleteFilesIndexed = deletes.size;

  // Data files need stats for the filter (metrics pruning), for equality-delete pruning, and for the wire.
  const dataStatsIds = new Set([...filterIds, ...statsFieldIds, ...equalityIds(liveDeletes)]);
  const dataEntries = (await Promise.all(dataManifests.map((m) => read(m, dataStatsIds)))).flat();
  const tasks: FileTask[] = [];
  for (const entry of dataEntries) {
    if (!isLiveEntry(entry) || entry.file.content !== 0) continue;
    if (incremental && (entry.status !== 1 || !incremental.has(entry.snapshotId))) continue;
    if (!matches(entry)) {
      stats.dataFilesPruned++;
      continue;
    }
    const fileDeletes = deletes.forDataFile(entry.dataSequenceNumber, entry.file);
    stats.deletesAttached += fileDeletes.length;
    tasks.push({ data: entry, deletes: fileDeletes, residual: forSpec(entry.file.specId).residual.residualFor(entry.file.partition) });
  }
  stats.dataFilesKept = tasks.length;
  tasks.sort(compareTasks);
  return plan(tasks);
}

function entryMatches(entry: ManifestEntry, forSpec: (id: number) => SpecEvaluators, metrics: InclusiveMetricsEvaluator): boolean {
  return forSpec(entry.file.specId).partition.matches(entry.file.partition) && metrics.mightMatch(entry.file);
}

function equalityIds(entries: readonly ManifestEntry[]): number[] {
  const ids = new Set<number>();
  for (const e of entries) for (const id of e.file.equalityIds ?? []) ids.add(id);
  return [...ids];
}

