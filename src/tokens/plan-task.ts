/**
 * Plan-task strings (REST spec `plan-tasks`, ARCHITECTURE.md "Plan-task strings"): the unit of
 * work is a run of manifest entries that may span manifests (Gravitino design §8.5.1), so
 * redeeming one reads only those manifest slices, on any replica, after any restart.
 *
 * Text: `t1.<payload>[.<mac>]`, payload = base64url(deflate-raw(JSON)) (envelope.ts). JSON: the
 * plan fields of plan-ref.ts plus
 *   r  ranges, non-empty, each { m manifest path, s entry start (inclusive), e entry end
 *      (exclusive), o byte offset and l byte length of the Avro blocks covering the range and b
 *      the ordinal of the first entry in the block at o (all three or none), i first row id at
 *      the first of those blocks (v3) }
 *   x  optional: the ranges of further batches, one array each; redeeming the task also hands
 *      them out as plan tasks (a fan-out, so a /plan response stays small for huge plans)
 */
import { fail } from '../errors/index.js';
import { stringifyJson } from '../iceberg/index.js';
import { open, seal } from './envelope.js';
import { refFromJson, refObject, refToJson, type PlanRef } from './plan-ref.js';
import {
  count,
  long,
  object,
  optional,
  parsePayload,
  readOrUndefined,
  reject,
  string,
  type JsonObject,
} from './strict-json.js';

/** Envelope kind of format 1 plan tasks. */
const KIND = 't1';

/**
 * Longest plan-task string accepted (and issued). A task carries the client's filter, which may
 * be a long IN list, so this is well above a typical task (under 1 KiB) yet bounds the work a
 * hostile string can cause before it is rejected.
 */
export const PLAN_TASK_MAX_LENGTH = 256 * 1024;

/** Entries [start, end) of one manifest, with an optional hint for reading only their bytes. */
export interface ManifestRange {
  readonly manifest: string;
  readonly start: number;
  readonly end: number;
  /** Byte offset of the first Avro block holding entry `start`; comes with `length`. */
  readonly offset?: number;
  /** Bytes from `offset` covering every block up to entry `end - 1`. */
  readonly length?: number;
  /** Ordinal of the first entry of the block at `offset` (≤ `start`); comes with `offset`. */
  readonly first?: number;
  /** First row id assigned to the first entry of the block at `offset` (v3 row lineage). */
  readonly nextRowId?: bigint;
}

export interface PlanTask extends PlanRef {
  readonly ranges: readonly ManifestRange[];
  /** Further batches this task fans out to: each becomes a plan task of its own when redeemed. */
  readonly more?: readonly (readonly ManifestRange[])[];
}

function rangeToJson(r: ManifestRange): JsonObject {
  return {
    m: r.manifest,
    s: r.start,
    e: r.end,
    ...(r.offset !== undefined && { o: r.offset }),
    ...(r.length !== undefined && { l: r.length }),
    ...(r.first !== undefined && { b: r.first }),
    ...(r.nextRowId !== undefined && { i: r.nextRowId }),
  };
}

function rangeFromJson(v: unknown): ManifestRange {
  const obj = object(v, ['m', 's', 'e'], ['o', 'l', 'b', 'i']);
  const start = count(obj['s']);
  const end = count(obj['e']);
  if (start >= end) reject();
  const offset = optional(obj, 'o', count);
  const length = optional(obj, 'l', count);
  const first = optional(obj, 'b', count);
  if ((offset === undefined) !== (length === undefined) || (offset === undefined) !== (first === undefined) || length === 0) reject();
  if (first !== undefined && first > start) reject();
  const nextRowId = optional(obj, 'i', long);
  if (nextRowId !== undefined && nextRowId < 0n) reject();
  return {
    manifest: string(obj['m'], true),
    start,
    end,
    ...(offset !== undefined && { offset, length: length!, first: first! }),
    ...(nextRowId !== undefined && { nextRowId }),
  };
}

function rangesFromJson(v: unknown): ManifestRange[] {
  if (!Array.isArray(v) || v.length === 0) reject();
  return (v as unknown[]).map(rangeFromJson);
}

/**
 * The string for a plan task, signed when `key` is given. The same task always gives the same
 * string. Throws INTERNAL for ranges `decodePlanTask` would refuse (none, empty, inverted,
 * negative) and INVALID_SCAN when the string would exceed PLAN_TASK_MAX_LENGTH.
 */
export function encodePlanTask(task: PlanTask, key?: Buffer): string {
  const ranges = task.ranges.map(rangeToJson);
  if (readOrUndefined(() => rangesFromJson(ranges)) === undefined)
    throw fail('INTERNAL', 'A plan task needs at least one non-empty manifest entry range');
  const more = task.more?.map((batch) => batch.map(rangeToJson));
  if (more && more.some((batch) => readOrUndefined(() => rangesFromJson(batch)) === undefined))
    throw fail('INTERNAL', 'A fanned-out batch needs at least one non-empty manifest entry range');
  const text = seal(KIND, stringifyJson({ ...refToJson(task), r: ranges, ...(more && more.length > 0 && { x: more }) }), key);
  if (text.length > PLAN_TASK_MAX_LENGTH)
    throw fail('INVALID_SCAN', `The scan is too large to carry in a plan task (${text.length} characters, limit ${PLAN_TASK_MAX_LENGTH})`);
  return text;
}

/**
 * The plan task `text` stands for, or undefined for anything this server would not have issued
 * (see envelope.ts for the key policy). The caller must still check `planTaskMatches` against
 * the route and answer every undefined with 404 NoSuchPlanTaskException.
 */
export function decodePlanTask(text: string, key?: Buffer): PlanTask | undefined {
  const json = open(KIND, text, key, PLAN_TASK_MAX_LENGTH);
  if (json === undefined) return undefined;
  return readOrUndefined(() => {
    const obj = refObject(parsePayload(json), ['r'], ['x']);
    const x = obj['x'];
    if (x !== undefined && (!Array.isArray(x) || x.length === 0)) reject();
    const more = x === undefined ? undefined : (x as unknown[]).map(rangesFromJson);
    const ranges = rangesFromJson(obj['r']);
    if (overlaps([ranges, ...(more ?? [])].flat())) reject();
    return { ...refFromJson(obj), ranges, ...(more && { more }) };
  });
}

/**
 * Whether two ranges (of a task and the batches it fans out to) share a manifest entry. Issued
 * tasks never do: each entry of a plan is in exactly one batch, so a string repeating a range is
 * forged (unsigned strings can be edited) and would hand the same data files out again.
 */
function overlaps(ranges: readonly ManifestRange[]): boolean {
  const sorted = [...ranges].sort((a, b) => (a.manifest < b.manifest ? -1 : a.manifest > b.manifest ? 1 : a.start - b.start));
  return sorted.some((r, i) => i > 0 && sorted[i - 1]!.manifest === r.manifest && sorted[i - 1]!.end > r.start);
}
