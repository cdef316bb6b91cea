import type { PlanStats } from '../planner/index.js';

/**
 * What one planning answer (/plan, GET /plan/{id}, /tasks) held, told to the caller's
 * `onOutcome` where it is known (scan-planning.ts, paged-planning.ts) for the status page and the
 * audit stream. Counts and the snapshot only: never a plan-task string.
 */
export interface ScanOutcome {
  /** The pinned snapshot; absent for a table without snapshots. */
  readonly snapshotId?: bigint;
  /** File scan tasks in this answer. */
  readonly files: number;
  /** Plan tasks handed out with it. */
  readonly planTasks: number;
  /** Every file scan task of the plan (this answer's and those behind its plan tasks); a plan only. */
  readonly tasks?: number;
  /** Who planned: Icefront's planner, or the upstream's (`upstream-paged`); a plan only. */
  readonly plannedBy?: 'icefront' | 'upstream';
  /** How Icefront's planner reached the plan; absent when an upstream planned it. */
  readonly pruning?: PruningSummary;
}

export interface PruningSummary {
  /** Data and delete manifests read, and manifests the filter (or `min-rows-requested`) skipped. */
  readonly manifestsRead: number;
  readonly manifestsSkipped: number;
  readonly filesKept: number;
  readonly filesPruned: number;
  readonly deletesAttached: number;
}

export function pruningOf(stats: PlanStats): PruningSummary {
  return {
    manifestsRead: stats.dataManifestsRead + stats.deleteManifestsRead,
    manifestsSkipped: stats.manifestsSkipped,
    filesKept: stats.dataFilesKept,
    filesPruned: stats.dataFilesPruned,
    deletesAttached: stats.deletesAttached,
  };
}

/** Told of a request's planning outcome, once, when it is known. */
export type OutcomeSink = (outcome: ScanOutcome) => void;
