/**
 * The scan a client asks for (REST spec `PlanTableScanRequest`; Java
 * PlanTableScanRequest.validate), parsed from the request JSON (as `parseJson` yields it).
 */
import { fail } from '../../errors/index.js';
import { ALWAYS_TRUE, parseExpression, type Expression } from '../../iceberg/index.js';

export interface ScanRequest {
  /** Point-in-time scan; absent = the latest snapshot of `main`. */
  readonly snapshotId?: bigint;
  /** Incremental append scan: start exclusive, end inclusive (spec PlanTableScanRequest). */
  readonly startSnapshotId?: bigint;
  readonly endSnapshotId?: bigint;
  /** Projected column names; absent = all. Validated against the scan schema. */
  readonly select?: readonly string[];
  readonly filter: Expression;
  readonly caseSensitive: boolean;
  readonly useSnapshotSchema: boolean;
  readonly minRowsRequested?: bigint;
  /** Columns whose stats are returned with data files; none when absent. */
  readonly statsFields?: readonly string[];
}

export const DEFAULT_SCAN: ScanRequest = Object.freeze({ filter: ALWAYS_TRUE, caseSensitive: true, useSnapshotSchema: false });

/** The members of the REST spec's PlanTableScanRequest (Java PlanTableScanRequestParser's fields). */
const MEMBERS: ReadonlySet<string> = new Set([
  'snapshot-id',
  'select',
  'filter',
  'case-sensitive',
  'use-snapshot-schema',
  'start-snapshot-id',
  'end-snapshot-id',
  'stats-fields',
  'min-rows-requested',
]);

export function parseScanRequest(body: unknown): ScanRequest {
  if (body === null || typeof body !== 'object' || Object.getPrototypeOf(body) !== Object.prototype)
    throw fail('BAD_REQUEST', 'Invalid plan request: the body must be a JSON object');
  const obj = body as Record<string, unknown>;
  // Java's PlanTableScanRequestParser ignores members it does not know; a misspelt `filter` would
  // then plan the whole table without a word. Every member of the spec's PlanTableScanRequest is
  // known here, so anything else is named and refused.
  const unknown = Object.keys(obj).filter((k) => !MEMBERS.has(k));
  if (unknown.length > 0)
    throw fail(
      'INVALID_SCAN',
      `Invalid plan request: unknown member${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => JSON.stringify(k)).join(', ')}; a PlanTableScanRequest has ${[...MEMBERS].join(', ')}`,
    );
  const snapshotId = optLong(obj, 'snapshot-id');
  const startSnapshotId = optLong(obj, 'start-snapshot-id');
  const endSnapshotId = optLong(obj, 'end-snapshot-id');
  // Java PlanTableScanRequest.validate
  if (snapshotId !== undefined && (startSnapshotId !== undefined || endSnapshotId !== undefined))
    throw fail('INVALID_SCAN', 'Invalid scan: cannot combine snapshot-id with start-snapshot-id or end-snapshot-id');
  if (startSnapshotId !== undefined && endSnapshotId === undefined)
    throw fail('INVALID_SCAN', 'Invalid scan: start-snapshot-id requires end-snapshot-id');
  const minRows = optLong(obj, 'min-rows-requested');
  if (minRows !== undefined && minRows < 0n) throw fail('INVALID_SCAN', 'Invalid scan: min-rows-requested must be >= 0');
  // Java reads `filter` with has() then parses, so an explicit null is rejected.
  if ('filter' in obj && obj['filter'] === null) throw fail('INVALID_FILTER', 'Invalid filter: null');
  return {
    ...(snapshotId !== undefined && { snapshotId }),
    ...(startSnapshotId !== undefined && { startSnapshotId }),
    ...(endSnapshotId !== undefined && { endSnapshotId }),
    ...(obj['select'] !== undefined && { select: stringList(obj, 'select') }),
    filter: 'filter' in obj ? parseExpression(obj['filter']) : ALWAYS_TRUE,
    caseSensitive: optBool(obj, 'case-sensitive') ?? true,
    useSnapshotSchema: optBool(obj, 'use-snapshot-schema') ?? false,
    ...(minRows !== undefined && { minRowsRequested: minRows }),
    ...(obj['stats-fields'] !== undefined && { statsFields: stringList(obj, 'stats-fields') }),
  };
}

function optLong(obj: Record<string, unknown>, key: string): bigint | undefined {
  const v = obj[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number' && Number.isSafeInteger(v)) return BigInt(v);
  throw fail('BAD_REQUEST', `Invalid plan request: '${key}' must be a 64-bit integer`);
}

function optBool(obj: Record<string, unknown>, key: string): boolean | undefined {
  const v = obj[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'boolean') return v;
  throw fail('BAD_REQUEST', `Invalid plan request: '${key}' must be a boolean`);
}

function stringList(obj: Record<string, unknown>, key: string): string[] {
  const v = obj[key];
  if (!Array.isArray(v) || !v.every((s) => typeof s === 'string'))
    throw fail('BAD_REQUEST', `Invalid plan request: '${key}' must be an array of strings`);
  return v as string[];
}
