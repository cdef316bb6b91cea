/**
 * The scan a plan task or plan id carries (tokens' PlanScan) ↔ the planner's ScanRequest. The
 * filter travels in the legacy JSON form, so parsing it back gives the same expression.
 */
import { expressionToJson } from '../../iceberg/index.js';
import { stringifyJson } from '../../json/index.js';
import { parseScanRequest, type ScanRequest } from '../../planner/index.js';
import type { PlanScan } from '../../tokens/index.js';

export function scanOf(request: ScanRequest): PlanScan {
  return {
    filter: expressionToJson(request.filter),
    ...(request.select !== undefined && { select: request.select }),
    caseSensitive: request.caseSensitive,
    useSnapshotSchema: request.useSnapshotSchema,
    ...(request.statsFields !== undefined && { statsFields: request.statsFields }),
    ...(request.startSnapshotId !== undefined && { startSnapshotId: request.startSnapshotId }),
    ...(request.endSnapshotId !== undefined && { endSnapshotId: request.endSnapshotId }),
    ...(request.minRowsRequested !== undefined && { minRowsRequested: request.minRowsRequested }),
  };
}

/** The request a pinned scan stands for: incremental scans keep their range, others pin `snapshotId`. */
export function requestOf(scan: PlanScan, snapshotId: bigint): ScanRequest {
  const incremental = scan.endSnapshotId !== undefined;
  return parseScanRequest({
    filter: scan.filter,
    ...(scan.select !== undefined && { select: scan.select }),
    'case-sensitive': scan.caseSensitive,
    'use-snapshot-schema': scan.useSnapshotSchema,
    ...(scan.statsFields !== undefined && { 'stats-fields': scan.statsFields }),
    ...(scan.minRowsRequested !== undefined && { 'min-rows-requested': scan.minRowsRequested }),
    ...(incremental
      ? { 'end-snapshot-id': scan.endSnapshotId, ...(scan.startSnapshotId !== undefined && { 'start-snapshot-id': scan.startSnapshotId }) }
      : { 'snapshot-id': snapshotId }),
  });
}

/**
 * The PlanTableScanRequest (REST spec) a pinned scan stands for, as sent to an upstream that
 * plans: the snapshot (or incremental range) pinned, the filter in the legacy JSON form Java's
 * ExpressionParser reads (omitted when it is `true`). The same scan always gives the same body.
 */
export function planRequestJson(scan: PlanScan, snapshotId: bigint): string {
  const incremental = scan.endSnapshotId !== undefined;
  return stringifyJson({
    ...(incremental
      ? { ...(scan.startSnapshotId !== undefined && { 'start-snapshot-id': scan.startSnapshotId }), 'end-snapshot-id': scan.endSnapshotId }
      : { 'snapshot-id': snapshotId }),
    ...(scan.select !== undefined && { select: scan.select }),
    ...(scan.filter !== true && { filter: scan.filter }),
    'case-sensitive': scan.caseSensitive,
    'use-snapshot-schema': scan.useSnapshotSchema,
    ...(scan.statsFields !== undefined && { 'stats-fields': scan.statsFields }),
    ...(scan.minRowsRequested !== undefined && { 'min-rows-requested': scan.minRowsRequested }),
  });
}
