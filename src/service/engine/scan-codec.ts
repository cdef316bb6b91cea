/**
 * The scan a plan task or plan id carries (tokens' PlanScan) ↔ the planner's ScanRequest. The
 * filter travels in the legacy JSON form, so parsing it back gives the same expression; a scan
 * read from a string brings its filter already parsed, and it is not parsed again (issue #30).
 */
import { expressionToJson, parseExpression } from '../../iceberg/index.js';
import { stringifyJson } from '../../json/index.js';
import type { ScanRequest } from '../../planner/index.js';
import { parsedFilter, type PlanScan } from '../../tokens/index.js';

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

/**
 * The request a pinned scan stands for: incremental scans keep their range, others pin
 * `snapshotId`. The scan was checked where it was made (the /plan body) or read (the string's
 * payload, tokens/scan-json.ts), so only a filter not yet parsed is parsed here.
 */
export function requestOf(scan: PlanScan, snapshotId: bigint): ScanRequest {
  const { endSnapshotId, startSnapshotId } = scan;
  return {
    ...(endSnapshotId !== undefined ? { endSnapshotId, ...(startSnapshotId !== undefined && { startSnapshotId }) } : { snapshotId }),
    ...(scan.select !== undefined && { select: scan.select }),
    filter: parsedFilter(scan) ?? parseExpression(scan.filter),
    caseSensitive: scan.caseSensitive,
    useSnapshotSchema: scan.useSnapshotSchema,
    ...(scan.minRowsRequested !== undefined && { minRowsRequested: scan.minRowsRequested }),
    ...(scan.statsFields !== undefined && { statsFields: scan.statsFields }),
  };
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
