import type { Catalog } from '../catalogs/index.js';
import type { TableIdentifier } from '../iceberg/index.js';
import { fileManifestSource, parseScanRequest, planFiles, scanTasksToJson, type PlanStats, type ScanTasksJson } from '../planner/index.js';

/** A plan together with how it was reached: what an operator reads to see why a query reads what it reads. */
export interface PlanExplanation {
  /** Every task inline, as REST `ScanTasks` (no plan id: nothing here can be fetched again). */
  readonly tasks: ScanTasksJson;
  /** The snapshot planned; absent for a table without snapshots. */
  readonly snapshotId?: bigint;
  readonly stats: PlanStats;
}

/** Plan a scan of a catalog table in-process, every task inline, with its pruning summary. */
export async function explainTableScan(catalog: Catalog, identifier: TableIdentifier, body: unknown): Promise<PlanExplanation> {
  const request = parseScanRequest(body);
  const table = await catalog.loadTable(identifier);
  const plan = await planFiles(table.metadata, request, { source: fileManifestSource(table.io, table.metadata) });
  return {
    tasks: scanTasksToJson(plan.tasks, plan),
    stats: plan.stats,
    ...(plan.target.kind !== 'empty' && { snapshotId: plan.target.snapshot.snapshotId }),
  };
}
