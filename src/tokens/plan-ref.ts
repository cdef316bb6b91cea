/**
 * What a plan id and a plan task both name: the table (bound by name and UUID), the pinned
 * snapshot and the scan. Authorization never comes from here: the route names the table and
 * `planTaskMatches` only refuses a string issued for another one (Gravitino design §5.5.4).
 *
 * Payload keys:
 *   c  catalog (the REST prefix; '' when the server has none)
 *   n  namespace levels, as an array (a level may hold '.' or any other character)
 *   t  table name
 *   u  table UUID, omitted when the table has none (v1 metadata without `table-uuid`)
 *   s  pinned snapshot id (the end snapshot for an incremental scan)
 *   q  scan, see scan-json.ts
 */
import { scanFromJson, scanToJson, type PlanScan } from './scan-json.js';
import { long, object, optional, string, stringList, type JsonObject } from './strict-json.js';

/** The table a plan id or plan task was issued for, as the route names it. */
export interface TableBinding {
  readonly catalog: string;
  readonly namespace: readonly string[];
  readonly table: string;
  readonly tableUuid?: string;
}

/** A plan: enough for any replica to re-plan it statelessly. */
export interface PlanRef extends TableBinding {
  readonly snapshotId: bigint;
  readonly scan: PlanScan;
}

export const REF_KEYS = ['c', 'n', 't', 's', 'q'];
export const REF_OPTIONAL_KEYS = ['u'];

export function refToJson(ref: PlanRef): JsonObject {
  return {
    c: ref.catalog,
    n: ref.namespace,
    t: ref.table,
    ...(ref.tableUuid !== undefined && { u: ref.tableUuid }),
    s: ref.snapshotId,
    q: scanToJson(ref.scan),
  };
}

/** Reads the plan fields of a payload object whose keys were already checked. */
export function refFromJson(obj: JsonObject): PlanRef {
  const tableUuid = optional(obj, 'u', (v) => string(v, true));
  return {
    catalog: string(obj['c']),
    namespace: stringList(obj['n']),
    table: string(obj['t'], true),
    ...(tableUuid !== undefined && { tableUuid }),
    snapshotId: long(obj['s']),
    scan: scanFromJson(obj['q']),
  };
}

/** A payload object holding exactly the plan fields plus `extra` required keys. */
export function refObject(v: unknown, extra: readonly string[] = [], extraOptional: readonly string[] = []): JsonObject {
  return object(v, [...REF_KEYS, ...extra], [...REF_OPTIONAL_KEYS, ...extraOptional]);
}

/**
 * True when a decoded plan task (or plan id) was issued for the table the request path names.
 * When the string pins a table UUID the target must carry the same one (case-insensitive), so
 * a table dropped and re-created under the same name does not serve strings of the old one.
 */
export function planTaskMatches(task: TableBinding, target: TableBinding): boolean {
  if (task.catalog !== target.catalog || task.table !== target.table) return false;
  if (task.namespace.length !== target.namespace.length) return false;
  if (task.namespace.some((level, i) => level !== target.namespace[i])) return false;
  if (task.tableUuid === undefined) return true;
  return target.tableUuid !== undefined && task.tableUuid.toLowerCase() === target.tableUuid.toLowerCase();
}

/** The snapshot id of a plan of a table without snapshots (never a real snapshot id). */
export const NO_SNAPSHOT = -1n;

/** The plan a task (plan task or page task) belongs to, without its own unit of work. */
export function planRefOf(ref: PlanRef): PlanRef {
  const { catalog, namespace, table, tableUuid, snapshotId, scan } = ref;
  return { catalog, namespace, table, ...(tableUuid !== undefined && { tableUuid }), snapshotId, scan };
}
