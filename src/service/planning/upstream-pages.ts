/**
 * An upstream's completed plan in a total order, and the pages cut from it (issue #11: /tasks on
 * top of an upstream's /plan). Pure: no I/O.
 *
 * The upstream answers ScanTasks (REST spec): `file-scan-tasks` whose `delete-file-references`
 * index its `delete-files`. Icefront orders the tasks by data file path, then by the task's JSON
 * with references written as delete file paths (so the order does not depend on the order the
 * upstream listed its delete files in), cuts the order into pages under `batch-size` and
 * `max-response-bytes`, and gives each page exactly the delete files its tasks reference,
 * re-indexed (spec ScanTasks: "delete-file-references … indexes into delete-files").
 */
import { createHash } from 'node:crypto';
import { fail } from '../../errors/index.js';
import { stringifyJson } from '../../json/index.js';
import type { PageRange } from '../../tokens/index.js';

export interface OrderedTask {
  /** The task as the upstream sent it (parsed int64-exact). */
  readonly json: Readonly<Record<string, unknown>>;
  /** Indexes into the plan's `deleteFiles`. */
  readonly deletes: readonly number[];
  /** Bytes of the task's JSON. */
  readonly bytes: number;
}

export interface OrderedPlan {
  readonly tasks: readonly OrderedTask[];
  readonly deleteFiles: readonly Readonly<Record<string, unknown>>[];
  /** Bytes of each delete file's JSON. */
  readonly deleteBytes: readonly number[];
  /** Digest of the order (base64url): pages are cut from exactly this answer. */
  readonly digest: string;
  /** When the upstream answered (ms since epoch). */
  readonly fetchedAt: number;
}

export interface Page {
  readonly 'delete-files'?: readonly Record<string, unknown>[];
  readonly 'file-scan-tasks': readonly Record<string, unknown>[];
}

const REFERENCES = 'delete-file-references';

/** The answer's tasks in total order; a malformed answer is a 502 naming the catalog. */
export function orderPlan(catalog: string, answer: Readonly<Record<string, unknown>>, fetchedAt: number): OrderedPlan {
  const bad = (what: string) => fail('UPSTREAM_BAD_GATEWAY', `Catalog '${catalog}': the upstream's scan plan ${what}`);
  const planTasks = answer['plan-tasks'];
  if (Array.isArray(planTasks) && planTasks.length > 0)
    throw bad('came back with plan tasks, which this upstream cannot redeem (it does not advertise /tasks); set `planning: local` or `upstream` for this catalog');
  const rawDeletes = answer['delete-files'] ?? [];
  const rawTasks = answer['file-scan-tasks'] ?? [];
  if (!Array.isArray(rawDeletes) || !Array.isArray(rawTasks)) throw bad('has a `file-scan-tasks` or `delete-files` that is not an array');
  const deleteFiles = rawDeletes.map((d) => {
    if (!isRecord(d) || typeof d['file-path'] !== 'string') throw bad('has a delete file without a file-path');
    return d;
  });
  const deletePaths = deleteFiles.map((d) => d['file-path'] as string);
  const keyed = rawTasks.map((t) => {
    if (!isRecord(t) || !isRecord(t['data-file']) || typeof t['data-file']['file-path'] !== 'string') throw bad('has a file scan task without a data-file path');
    const refs = t[REFERENCES] ?? [];
    if (!Array.isArray(refs) || refs.some((r) => !Number.isSafeInteger(r) || (r as number) < 0 || (r as number) >= deleteFiles.length))
      throw bad('has a delete-file-references entry that names no delete file');
    const deletes = refs as number[];
    const text = stringifyJson(t);
    const canonical = stringifyJson({ ...t, [REFERENCES]: deletes.map((i) => deletePaths[i]).sort() });
    return { key: `${t['data-file']['file-path'] as string}\0${canonical}`, task: { json: t, deletes, bytes: text.length } };
  });
  keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const hash = createHash('sha256').update(String(keyed.length));
  for (const k of keyed) hash.update('\n').update(k.key);
  return {
    tasks: keyed.map((k) => k.task),
    deleteFiles,
    deleteBytes: deleteFiles.map((d) => stringifyJson(d).length),
    digest: hash.digest('base64url').slice(0, 22),
    fetchedAt,
  };
}

/** Room in a response for its status, plan id and punctuation. */
const ENVELOPE_BYTES = 1024;

/**
 * The plan cut into pages: at most `batchSize` tasks each (0: one page), and JSON (tasks plus the
 * delete files they bring) under `maxBytes`; a task larger than that still gets a page of its own.
 * There is always at least one page (possibly empty).
 */
export function cutPages(plan: OrderedPlan, limits: { readonly batchSize: number; readonly maxBytes: number }): PageRange[] {
  const pages: PageRange[] = [];
  let start = 0;
  let bytes = ENVELOPE_BYTES;
  let seen = new Set<number>();
  plan.tasks.forEach((task, i) => {
    const fresh = task.deletes.filter((d) => !seen.has(d));
    const size = task.bytes + 2 + fresh.reduce((n, d) => n + plan.deleteBytes[d]! + 1, 0);
    const count = i - start;
    if (count > 0 && ((limits.batchSize > 0 && count >= limits.batchSize) || bytes + size > limits.maxBytes)) {
      pages.push({ start, end: i });
      start = i;
      bytes = ENVELOPE_BYTES;
      seen = new Set();
      return add(task.deletes, task.bytes + 2 + task.deletes.reduce((n, d) => n + plan.deleteBytes[d]! + 1, 0));
    }
    add(fresh, size);
  });
  function add(deletes: readonly number[], size: number): void {
    for (const d of deletes) seen.add(d);
    bytes += size;
  }
  if (start < plan.tasks.length || pages.length === 0) pages.push({ start, end: plan.tasks.length });
  return pages;
}

/** The tasks of one page and exactly the delete files they reference, re-indexed. */
export function pageOf(plan: OrderedPlan, range: PageRange): Page {
  const index = new Map<number, number>();
  const deleteFiles: Record<string, unknown>[] = [];
  const tasks = plan.tasks.slice(range.start, range.end).map((task) => {
    if (!Object.hasOwn(task.json, REFERENCES)) return { ...task.json };
    const refs = task.deletes.map((d) => {
      let at = index.get(d);
      if (at === undefined) {
        at = deleteFiles.length;
        index.set(d, at);
        deleteFiles.push({ ...plan.deleteFiles[d] });
      }
      return at;
    });
    return { ...task.json, [REFERENCES]: refs };
  });
  return { ...(deleteFiles.length > 0 && { 'delete-files': deleteFiles }), 'file-scan-tasks': tasks };
}

/** Rough retained size of an ordered plan, for the cache budget (over-estimated: JS strings are UTF-16). */
export function orderedPlanBytes(plan: OrderedPlan): number {
  let bytes = 256;
  for (const t of plan.tasks) bytes += 3 * t.bytes + 64;
  for (const b of plan.deleteBytes) bytes += 3 * b + 64;
  return bytes;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
