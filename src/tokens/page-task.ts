/**
 * Page tasks: the plan-task strings Icefront issues for an `upstream-paged` catalog, whose
 * upstream plans (`/plan`) but cannot page (no `/tasks`). The unit of work is a range of the
 * upstream's answer once Icefront has put its file scan tasks in a total order, so redeeming one
 * on any replica asks the upstream for the same pinned plan again and cuts the same range.
 *
 * Text: `g1.<payload>[.<mac>]` (envelope.ts), a kind of its own, so a page task is never
 * accepted as a manifest-range plan task (`t1`) or a plan id (`p1`), nor the reverse. JSON: the
 * plan fields of plan-ref.ts plus
 *   r  [start, end): the task positions of this page in the ordered answer (start < end)
 *   x  optional: further pages [[start, end], …]; redeeming the task hands them out as page
 *      tasks of their own (a fan-out, so the /plan response stays small)
 *   k  how many tasks the ordered answer held when the page was cut
 *   h  digest of that ordered answer (answer-digest below): a redemption whose upstream answer
 *      differs is refused rather than served a range of another plan
 */
import { fail } from '../errors/index.js';
import { stringifyJson } from '../json/index.js';
import { open, seal } from './envelope.js';
import { refFromJson, refObject, refToJson, type PlanRef } from './plan-ref.js';
import { PLAN_TASK_MAX_LENGTH } from './plan-task.js';
import { count, parsePayload, readOrUndefined, reject, string } from './strict-json.js';

const KIND = 'g1';

/** Task positions [start, end) of the ordered upstream answer. */
export interface PageRange {
  readonly start: number;
  readonly end: number;
}

export interface PageTask extends PlanRef {
  readonly page: PageRange;
  readonly more?: readonly PageRange[];
  /** Tasks in the ordered answer the page was cut from. */
  readonly total: number;
  /** That answer's digest (base64url). */
  readonly digest: string;
}

function rangeFromJson(v: unknown): PageRange {
  if (!Array.isArray(v) || v.length !== 2) reject();
  const start = count(v[0]);
  const end = count(v[1]);
  if (start >= end) reject();
  return { start, end };
}

/** The string for a page task, signed when `key` is given; the same task gives the same string. */
export function encodePageTask(task: PageTask, key?: Buffer): string {
  const ranges = [task.page, ...(task.more ?? [])];
  if (ranges.some((r) => !(Number.isSafeInteger(r.start) && r.start >= 0 && r.start < r.end && r.end <= task.total)))
    throw fail('INTERNAL', 'A page task needs non-empty ranges within its plan');
  const json = {
    ...refToJson(task),
    r: [task.page.start, task.page.end],
    ...(task.more && task.more.length > 0 && { x: task.more.map((r) => [r.start, r.end]) }),
    k: task.total,
    h: task.digest,
  };
  const text = seal(KIND, stringifyJson(json), key);
  if (text.length > PLAN_TASK_MAX_LENGTH)
    throw fail('INVALID_SCAN', `The scan is too large to carry in a plan task (${text.length} characters, limit ${PLAN_TASK_MAX_LENGTH})`);
  return text;
}

/** The page task `text` stands for, or undefined for anything this server would not have issued. */
export function decodePageTask(text: string, key?: Buffer): PageTask | undefined {
  const json = open(KIND, text, key, PLAN_TASK_MAX_LENGTH);
  if (json === undefined) return undefined;
  return readOrUndefined(() => {
    const obj = refObject(parsePayload(json), ['r', 'k', 'h'], ['x']);
    const page = rangeFromJson(obj['r']);
    const x = obj['x'];
    if (x !== undefined && (!Array.isArray(x) || x.length === 0)) reject();
    const more = x === undefined ? undefined : (x as unknown[]).map(rangeFromJson);
    const total = count(obj['k']);
    const digest = string(obj['h'], true);
    const all = [page, ...(more ?? [])].sort((a, b) => a.start - b.start);
    // issued pages never overlap and lie within the answer: anything else was edited
    if (all.some((r, i) => r.end > total || (i > 0 && all[i - 1]!.end > r.start))) reject();
    return { ...refFromJson(obj), page, ...(more && { more }), total, digest };
  });
}
