/**
 * The pinned scan inside plan tasks and plan ids (Gravitino design §8.5.2 `scan`: entry positions
 * and residuals depend on the filter and case sensitivity, so the scan travels with the work).
 *
 * Payload keys (short, to keep tokens small):
 *   f     filter, legacy JSON as `expressionToJson` writes it (`true` when there is none)
 *   sel   select (column names, in the client's order), omitted when absent
 *   cs    case-sensitive
 *   uss   use-snapshot-schema
 *   sf    stats-fields, omitted when absent
 *   from  start-snapshot-id of an incremental scan (exclusive), omitted when absent
 *   to    end-snapshot-id of an incremental scan (inclusive), omitted when absent
 *   mr    min-rows-requested, omitted when absent
 */
import { parseExpression, type Expression } from '../iceberg/index.js';
import { JsonFloat, stringifyJson } from '../json/index.js';
import { boolean, long, object, optional, reject, stringList, type JsonObject } from './strict-json.js';

export interface PlanScan {
  /** The filter in the legacy JSON form (`expressionToJson`); bigint and JsonFloat literals kept. */
  readonly filter: unknown;
  readonly select?: readonly string[];
  readonly caseSensitive: boolean;
  readonly useSnapshotSchema: boolean;
  readonly statsFields?: readonly string[];
  readonly startSnapshotId?: bigint;
  readonly endSnapshotId?: bigint;
  /** REST `min-rows-requested`: a plan id re-plans the same prefix of the plan. */
  readonly minRowsRequested?: bigint;
}

const REQUIRED = ['f', 'cs', 'uss'];
const OPTIONAL = ['sel', 'sf', 'from', 'to', 'mr'];

/** The payload form of a scan, keys in a fixed order. */
export function scanToJson(scan: PlanScan): JsonObject {
  return {
    f: scan.filter,
    ...(scan.select !== undefined && { sel: scan.select }),
    cs: scan.caseSensitive,
    uss: scan.useSnapshotSchema,
    ...(scan.statsFields !== undefined && { sf: scan.statsFields }),
    ...(scan.startSnapshotId !== undefined && { from: scan.startSnapshotId }),
    ...(scan.endSnapshotId !== undefined && { to: scan.endSnapshotId }),
    ...(scan.minRowsRequested !== undefined && { mr: scan.minRowsRequested }),
  };
}

/**
 * The filters of scans read from payloads, as `scanFromJson` parsed them to check them: a
 * redemption plans with that parse instead of parsing the filter again (issue #30). Kept beside
 * the scan, not in it, so a scan stays its JSON form (equal, encoded and cloned as such).
 */
const PARSED = new WeakMap<PlanScan, Expression>();

/** The filter of a scan read from a payload, as it was parsed there; undefined for any other scan. */
export function parsedFilter(scan: PlanScan): Expression | undefined {
  return PARSED.get(scan);
}

/** Reads a payload scan; rejects a filter that does not parse, or a start without an end. */
export function scanFromJson(v: unknown): PlanScan {
  const obj = object(v, REQUIRED, OPTIONAL);
  const filter = obj['f'];
  let expression: Expression;
  try {
    expression = parseExpression(filter);
  } catch {
    return reject();
  }
  const select = optional(obj, 'sel', stringList);
  const statsFields = optional(obj, 'sf', stringList);
  const startSnapshotId = optional(obj, 'from', long);
  const endSnapshotId = optional(obj, 'to', long);
  const minRowsRequested = optional(obj, 'mr', long);
  if (minRowsRequested !== undefined && minRowsRequested < 0n) reject();
  // Java PlanTableScanRequest.validate: start-snapshot-id requires end-snapshot-id
  if (startSnapshotId !== undefined && endSnapshotId === undefined) reject();
  const scan: PlanScan = {
    filter,
    ...(select !== undefined && { select }),
    caseSensitive: boolean(obj['cs']),
    useSnapshotSchema: boolean(obj['uss']),
    ...(statsFields !== undefined && { statsFields }),
    ...(startSnapshotId !== undefined && { startSnapshotId }),
    ...(endSnapshotId !== undefined && { endSnapshotId }),
    ...(minRowsRequested !== undefined && { minRowsRequested }),
  };
  PARSED.set(scan, expression);
  return scan;
}

/**
 * A deterministic string for a scan, for cache keys: equal scans give equal strings whatever the
 * key order of their filter objects. `select` and `stats-fields` are kept in the order given, so
 * two scans that differ only in that order get different keys (a cache miss, never a wrong hit).
 */
export function canonicalScanJson(scan: PlanScan): string {
  return stringifyJson(sortKeys(scanToJson(scan)));
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (typeof v !== 'object' || v === null || v instanceof JsonFloat) return v;
  const obj = v as JsonObject;
  const out: JsonObject = {};
  for (const k of Object.keys(obj).sort()) {
    const value = sortKeys(obj[k]);
    // `__proto__` from parsed JSON is plain data; assignment would set the prototype instead
    Object.defineProperty(out, k, { value, writable: true, enumerable: true, configurable: true });
  }
  return out;
}
