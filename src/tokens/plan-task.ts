/**
 * Plan-task strings (REST spec `plan-tasks`, ARCHITECTURE.md "Plan-task strings"): the unit of
 * work is a run of manifest entries that may span manifests (Gravitino design §8.5.1), so
 * redeeming one reads only those manifest slices, on any replica, after any restart.
 *
 * Text: `t1.<payload>[.<mac>]` or `t2.…`, payload = base64url(deflate-raw(JSON)) (envelope.ts).
 * JSON: the plan fields of plan-ref.ts plus
 *   r  ranges, non-empty, each { m manifest path, s entry start (inclusive), e entry end
 *      (exclusive), o byte offset and l byte length of the Avro blocks covering the range and b
 *      the ordinal of the first entry in the block at o (all three or none), i first row id at
 *      the first of those blocks (v3) }
 *   x  optional: the ranges of further batches, one array each; redeeming the task also hands
 *      them out as plan tasks (a fan-out, so a /plan response stays small for huge plans)
 * and, in `t2` only (issued when a key signs the string):
 *   f  the manifest-list entry of every manifest r and x name, each { m path, n length, p spec
 *      id, s sequence number, u min sequence number, a added snapshot id, i first row id (v3) }
 *   z  optional, true: the scan's delete index is empty (no delete file of the snapshot applies)
 * With both, a redemption reads its manifest slices and nothing else: not the manifest list,
 * whose size grows with the table (issue #12 part 5). Only a string whose MAC verified is
 * trusted for them; without a key anyone can write a string, so the list is read to check that
 * each manifest is one of the snapshot's, as for `t1`.
 */
import { fail } from '../errors/index.js';
import type { ManifestRange } from '../iceberg/index.js';
import { stringifyJson } from '../json/index.js';
import { open, seal } from './envelope.js';
import { refFromJson, refObject, refToJson, type PlanRef } from './plan-ref.js';
import {
  boolean,
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

/** Envelope kinds: format 1 plan tasks, and format 2 (format 1 with `f` and `z`). */
const KIND = 't1';
const KIND_2 = 't2';

/**
 * Longest plan-task string accepted (and issued). A task carries the client's filter, which may
 * be a long IN list, so this is well above a typical task (under 1 KiB) yet bounds the work a
 * hostile string can cause before it is rejected.
 */
export const PLAN_TASK_MAX_LENGTH = 256 * 1024;

/** What a redemption needs of a data manifest's manifest-list entry (spec "Manifest Lists"). */
export interface ListedManifest {
  readonly path: string;
  readonly length: bigint;
  readonly specId: number;
  readonly sequenceNumber: bigint;
  readonly minSequenceNumber: bigint;
  readonly addedSnapshotId: bigint;
  readonly firstRowId?: bigint;
}

/** What the plan knew of the snapshot, carried so a redemption need not read the manifest list. */
export interface ListFacts {
  /** The list entry of every manifest the task's ranges (and fanned-out batches) name. */
  readonly manifests: ReadonlyMap<string, ListedManifest>;
  /** True when no delete file of the snapshot applies to the scan. */
  readonly noDeletes: boolean;
}

export interface PlanTask extends PlanRef {
  readonly ranges: readonly ManifestRange[];
  /** Further batches this task fans out to: each becomes a plan task of its own when redeemed. */
  readonly more?: readonly (readonly ManifestRange[])[];
  /** Carried only in signed strings (see the header); trusted only when their MAC verified. */
  readonly facts?: ListFacts;
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

function listedToJson(m: ListedManifest): JsonObject {
  return {
    m: m.path,
    n: m.length,
    p: m.specId,
    s: m.sequenceNumber,
    u: m.minSequenceNumber,
    a: m.addedSnapshotId,
    ...(m.firstRowId !== undefined && { i: m.firstRowId }),
  };
}

function listedFromJson(v: unknown): ListedManifest {
  const obj = object(v, ['m', 'n', 'p', 's', 'u', 'a'], ['i']);
  const length = long(obj['n']);
  const specId = count(obj['p']);
  const firstRowId = optional(obj, 'i', long);
  if (length < 0n || specId > 0x7fffffff || (firstRowId !== undefined && firstRowId < 0n)) reject();
  return {
    path: string(obj['m'], true),
    length,
    specId,
    sequenceNumber: long(obj['s']),
    minSequenceNumber: long(obj['u']),
    addedSnapshotId: long(obj['a']),
    ...(firstRowId !== undefined && { firstRowId }),
  };
}

/** The facts' entries for exactly the manifests `ranges` name, in first-named order. */
function factsFor(facts: ListFacts, ranges: readonly ManifestRange[]): ListedManifest[] {
  const out = new Map<string, ListedManifest>();
  for (const r of ranges) {
    if (out.has(r.manifest)) continue;
    const m = facts.manifests.get(r.manifest);
    if (!m) throw fail('INTERNAL', `No manifest-list entry for ${r.manifest} to carry in a plan task`);
    out.set(r.manifest, m);
  }
  return [...out.values()];
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
  const hasMore = more !== undefined && more.length > 0;
  // the facts are worth their bytes only where a MAC lets the redeeming replica trust them
  const facts = key !== undefined ? task.facts : undefined;
  const carried = facts && {
    f: factsFor(facts, [...task.ranges, ...(hasMore ? task.more!.flat() : [])]).map(listedToJson),
    ...(facts.noDeletes && { z: true }),
  };
  const json = { ...refToJson(task), r: ranges, ...(hasMore && { x: more }), ...carried };
  const text = seal(carried ? KIND_2 : KIND, stringifyJson(json), key);
  if (text.length > PLAN_TASK_MAX_LENGTH)
    throw fail('INVALID_SCAN', `The scan is too large to carry in a plan task (${text.length} characters, limit ${PLAN_TASK_MAX_LENGTH})`);
  return text;
}

/**
 * The plan task `text` stands for, or undefined for anything this server would not have issued
 * (see envelope.ts for the key policy). The caller must still check `planTaskMatches` against
 * the route and answer every undefined with 404 NoSuchPlanTaskException. `facts` come back only
 * when `key` is given, so only from a string whose MAC verified.
 */
export function decodePlanTask(text: string, key?: Buffer): PlanTask | undefined {
  const v2 = typeof text === 'string' && text.startsWith(`${KIND_2}.`);
  const json = open(v2 ? KIND_2 : KIND, text, key, PLAN_TASK_MAX_LENGTH);
  if (json === undefined) return undefined;
  return readOrUndefined(() => {
    const obj = refObject(parsePayload(json), v2 ? ['r', 'f'] : ['r'], v2 ? ['x', 'z'] : ['x']);
    const x = obj['x'];
    if (x !== undefined && (!Array.isArray(x) || x.length === 0)) reject();
    const more = x === undefined ? undefined : (x as unknown[]).map(rangesFromJson);
    const ranges = rangesFromJson(obj['r']);
    const all = [ranges, ...(more ?? [])].flat();
    if (overlaps(all)) reject();
    const facts = v2 ? factsFromJson(obj, all) : undefined;
    // without a key the MAC was not checked: anyone could have written the facts
    return { ...refFromJson(obj), ranges, ...(more && { more }), ...(facts && key !== undefined && { facts }) };
  });
}

/** `f` and `z`: one entry per manifest the ranges name, no other, none twice. */
function factsFromJson(obj: JsonObject, ranges: readonly ManifestRange[]): ListFacts {
  const f = obj['f'];
  if (!Array.isArray(f)) reject();
  const manifests = new Map((f as unknown[]).map(listedFromJson).map((m) => [m.path, m] as const));
  const named = new Set(ranges.map((r) => r.manifest));
  if (manifests.size !== (f as unknown[]).length || manifests.size !== named.size || ![...named].every((p) => manifests.has(p))) reject();
  const z = optional(obj, 'z', boolean);
  if (z === false) reject();
  return { manifests, noDeletes: z === true };
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
