import { randomUUID } from 'node:crypto';
import type { Catalog, TableIdentifier } from '../catalogs/index.js';
import { fileManifestSource, parseScanRequest, planFiles, scanTasksToJson, type PlanStats } from '../planner/index.js';
import type { PlanTableScanResult } from './wire-types.js';

/** A plan together with how it was reached: what an operator reads to see why a query reads what it reads. */
export interface PlanExplanation {
  readonly result: PlanTableScanResult;
  /** The snapshot planned; absent for a table without snapshots. */
  readonly snapshotId?: bigint;
  readonly stats: PlanStats;
}

/**
 * Plan a scan of a catalog table in-process (REST planTableScan). The request is validated before
 * the table is read; the answer is `completed` with every task inline (wire-format §5.1).
 */
export async function explainTableScan(catalog: Catalog, identifier: TableIdentifier, body: unknown): Promise<PlanExplanation> {
  const request = parseScanRequest(body);
  const table = await catalog.loadTable(identifier);
  const plan = await planFiles(table.metadata, request, { source: fileManifestSource(table.io, table.metadata) });
  const result: PlanTableScanResult = { status: 'completed', 'plan-id': `sync-${randomUUID()}`, ...scanTasksToJson(plan.tasks, plan) };
  return { result, stats: plan.stats, ...(plan.target.kind !== 'empty' && { snapshotId: plan.target.snapshot.snapshotId }) };
}
