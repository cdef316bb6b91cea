/**
 * The REST scan-planning protocol over the in-process planner (REST spec planTableScan,
 * fetchPlanningResult, cancelPlanning, fetchScanTasks; Gravitino design §5 and §8.5):
 * - /plan pins the snapshot, plans, answers `completed` with the first batch inline and one
 *   stateless plan task per further batch (manifest entry ranges);
 * - /tasks redeems a plan task by reading only its manifest slices plus the snapshot's delete index;
 * - GET /plan/{id} re-plans the pinned scan a plan id carries; DELETE answers 204.
 */
import { createComputeCache, type ComputeCache } from '../../cache/index.js';
import type { Catalog, LoadedTable } from '../../catalogs/index.js';
import { fail, isIcefrontError } from '../../errors/index.js';
import type { Logger, Metrics } from '../../observability/index.js';
import { LRUCache } from 'lru-cache';
import { parseScanRequest, resolveScanTarget, type RangeToRead, type ScanRequest } from '../../planner/index.js';
import {
  canonicalScanJson,
  decodePlanId,
  decodePlanTask,
  encodePlanId,
  encodePlanTask,
  NO_SNAPSHOT,
  planRefOf,
  planTaskMatches,
  type ListFacts,
  type PlanRef,
  type PlanTask,
  type TableBinding,
} from '../../tokens/index.js';
import { currentSchema, type ManifestRange, type TableIdentifier } from '../../iceberg/index.js';
import { RawJson } from '../../json/index.js';
import type { FetchPlanningResult, FetchScanTasksResult, PlanTableScanResult } from '../wire-types.js';
import { pruningOf, type OutcomeSink, type ScanOutcome } from '../scan-outcome.js';
import { cutBatches, type SizedManifest } from '../engine/batches.js';
import { fitStrings } from '../engine/fit-strings.js';
import type { PlanEngine, PlanJob, WrittenTasks } from '../engine/plan-engine.js';
import { requestOf, scanOf } from '../engine/scan-codec.js';

export interface ScanPlanningOptions {
  /** Tasks per response at most; 0 = no count bound (pages are still cut by bytes). */
  readonly batchSize: number;
  readonly maxResponseBytes: number;
  /**
   * The bound of a page's JSON for a caller that takes gzip (its answers go compressed, at 2-3% of
   * that for task JSON): fewer, larger pages, so fewer round trips for a far client. Default: maxResponseBytes.
   */
  readonly gzipPageBytes?: number;
  /** HMAC key shared by replicas; unsigned strings when absent. */
  readonly tokenKey?: Buffer;
  /** Does the manifest work: on this thread, or in planning workers. */
  readonly engine: PlanEngine;
  readonly metrics?: Metrics;
  readonly logger?: Logger;
  /** /plan and /tasks answers kept whole (`planning.cache-bytes`' share for answers); without it, concurrent ones are still computed once. */
  readonly answerCache?: ComputeCache<KeptAnswer>;
}

/**
 * A planning answer as it goes out, with what it held. A plan task's answer depends only on the
 * string and the snapshot it pins, and a /plan answer only on the pinned scan and the table's
 * metadata, so a repeated scan (a dashboard re-running its query plans the same pinned scan and
 * redeems the same strings) is answered with this object again: nothing read, decoded or
 * serialised anew, and the HTTP layer's compressed form of it (http/compression.ts) made once.
 */
export interface KeptAnswer<A extends FetchScanTasksResult = FetchScanTasksResult> {
  readonly answer: A;
  readonly outcome: ScanOutcome;
  /** Its JSON's length (an upper bound). */
  readonly bytes: number;
}

/**
 * What a kept answer costs: its JSON, and room for the compressed form kept beside it (gzip takes
 * task JSON to 2-3% of its size and plan-task strings to about 20%, measured on 100,000-file and
 * real 10,000-file tables; a tenth covers both).
 */
export function keptAnswerBytes(kept: KeptAnswer): number {
  return Math.ceil(kept.bytes * 1.1) + 256;
}

/** `onOutcome` is told what each answer held (status page, audit stream). */
export interface ScanPlanning {
  /** `takesGzip`: the caller takes gzip, so its pages are cut at `gzipPageBytes`. */
  plan(prefix: string, catalog: Catalog, id: TableIdentifier, body: unknown, onOutcome?: OutcomeSink, takesGzip?: boolean): Promise<PlanTableScanResult>;
  fetchPlan(prefix: string, catalog: Catalog, id: TableIdentifier, planId: string, onOutcome?: OutcomeSink, takesGzip?: boolean): Promise<FetchPlanningResult>;
  fetchTasks(prefix: string, catalog: Catalog, id: TableIdentifier, body: unknown, onOutcome?: OutcomeSink): Promise<FetchScanTasksResult>;
}


/** Files already logged for contradictory metrics (bounded, so a huge table cannot grow it). */
const LOGGED_FILES = 10_000;
/** Plans remembered as too large to keep the pages of (each a short key). */
const UNKEPT_PLANS = 1_000;

/** The JSON bytes of every task a sized plan keeps, all pages together. */
function pagesBytes(manifests: readonly SizedManifest[]): number {
  let bytes = 0;
  for (const m of manifests) for (let i = 0; i < m.bytes.length; i++) bytes += m.bytes[i]!;
  return bytes;
}

export function createScanPlanning(options: ScanPlanningOptions): ScanPlanning {
  const key = options.tokenKey;
  const logged = new LRUCache<string, true>({ max: LOGGED_FILES });
  const answers = options.answerCache ?? createComputeCache<KeptAnswer>({ name: 'answers', maxBytes: 0, sizeOf: keptAnswerBytes });

  /**
   * A kept answer, or `make`'s, joined by concurrent askers. Only called once the caller's load of
   * the table succeeded and the request matched it, so what is kept is never a way past access
   * checks. Keys start with the answer's kind, so a key only ever holds what its `make` makes.
   */
  function kept<A extends FetchScanTasksResult>(key: readonly unknown[], make: () => Promise<KeptAnswer<A>>, store = true): Promise<KeptAnswer<A>> {
    return answers.get(JSON.stringify(key), make, { store }) as Promise<KeptAnswer<A>>;
  }

  /**
   * Plans (by planKey) whose pages together would not fit in the answer cache: their pages are
   * answered and coalesced but not kept. An LRU smaller than a scan only churns: each page of a
   * 1,000,000-file plan (about 340 MB of JSON) evicted an earlier one, and every other table's
   * kept answers with it, for nothing a repeat could use. A replica that did not plan it keeps them.
   */
  const unkeptPlans = new LRUCache<string, true>({ max: UNKEPT_PLANS });
  const planKey = (prefix: string, table: LoadedTable, ref: PlanRef) => JSON.stringify([prefix, ...metadataIdentity(table), String(ref.snapshotId), canonicalScanJson(ref.scan)]);

  /** Counts every file whose metrics were ignored; logs each file once (debug). */
  function contradictoryMetrics(prefix: string, table: LoadedTable) {
    return (filePath: string, fieldIds: readonly number[]): void => {
      options.metrics?.contradictoryMetrics.inc();
      const fileKey = JSON.stringify([prefix, filePath]);
      if (!options.logger || logged.has(fileKey)) return;
      logged.set(fileKey, true);
      const schema = currentSchema(table.metadata);
      const columns = fieldIds.map((id) => schema.findField(id)?.name ?? String(id));
      options.logger.debug({ catalog: prefix, table: [...table.identifier.namespace, table.identifier.name].join('.'), filePath, columns }, 'column metrics contradict themselves; ignored for pruning');
    };
  }

  const engine = options.engine;

  function jobOf(prefix: string, table: LoadedTable, request: ScanRequest): PlanJob {
    return { prefix, table, request, onContradiction: contradictoryMetrics(prefix, table) };
  }

  function binding(prefix: string, table: LoadedTable): TableBinding {
    const { namespace, name } = table.identifier;
    return { catalog: prefix, namespace: [...namespace], table: name, ...(table.metadata.tableUuid && { tableUuid: table.metadata.tableUuid }) };
  }

  /** The bound of each page's JSON for a caller (REST spec ScanTasks pages; docs/configuration.md "Page size"). */
  const pageBytesFor = (takesGzip: boolean | undefined): number => (takesGzip ? (options.gzipPageBytes ?? options.maxResponseBytes) : options.maxResponseBytes);

  /** Plans a pinned scan and cuts it into the inline batch and plan tasks of at most `pageBytes` of JSON each, with what the answer holds and its JSON's length (an upper bound). */
  async function planPinned(prefix: string, table: LoadedTable, request: ScanRequest, ref: PlanRef, pageBytes: number) {
    const job = jobOf(prefix, table, request);
    const sized = await engine.size(job, request.minRowsRequested !== undefined ? { minRows: request.minRowsRequested } : {});
    const [first, ...rest] = await cutBatches(sized.manifests, {
      batchSize: options.batchSize,
      maxBytes: pageBytes,
      ...(request.minRowsRequested !== undefined && { minRows: request.minRowsRequested }),
    });
    // The inline batch is written as its plan task would be redeemed: the tasks of its ranges
    // (their files' metrics were judged, and any contradiction counted, while sizing), only the
    // entries sizing kept (a selective filter's inline batch spans whole manifests).
    const written = first!.count === 0 ? undefined : await engine.write({ prefix, table, request }, withKept(first!.ranges, sized.manifests));
    if (first!.count > 0 && written?.count !== first!.count)
      throw fail('INTERNAL', `The first batch of a plan of ${[...table.identifier.namespace, table.identifier.name].join('.')} did not read back as planned`);
    const inline = tasksJson(written);
    const budget = pageBytes - (written ? written.fileScanTasks.length + (written.deleteFiles?.length ?? 0) : 2) - ENVELOPE_BYTES;
    // What the plan knew of the manifest list, for tasks a MAC vouches for (plan-task.ts `f`, `z`)
    const facts: ListFacts | undefined =
      key === undefined ? undefined : { manifests: new Map(sized.manifests.map((m) => [m.path, m.listed] as const)), noDeletes: sized.stats.deleteFilesIndexed === 0 };
    const tasks = { ref: { ...ref, ...(facts && { facts }) }, batches: rest.map((b) => b.ranges), ...(key && { key }) };
    if (pagesBytes(sized.manifests) > answers.maxBytes) unkeptPlans.set(planKey(prefix, table, ref), true);
    const planTasks = await fitStrings(budget, (run) => engine.planTasks(job, tasks, run));
    const outcome: ScanOutcome = { snapshotId: ref.snapshotId, files: first!.count, planTasks: planTasks.length, tasks: sized.stats.dataFilesKept, plannedBy: 'icefront', pruning: pruningOf(sized.stats) };
    const bytes = ENVELOPE_BYTES + (written ? written.fileScanTasks.length + (written.deleteFiles?.length ?? 0) : 2) + planTasks.reduce((n, t) => n + t.length + 3, 0);
    return { inline, planTasks, outcome, bytes };
  }

  /** The answer to a plan task that decoded and matched `table`. */
  async function writePage(prefix: string, table: LoadedTable, task: PlanTask): Promise<KeptAnswer> {
    const request = pinnedRequest(table, task, 'NO_SUCH_PLAN_TASK');
    // A range's block hint lets the reader fetch only those bytes (Gravitino design §8.5); its
    // manifest's list entry, carried by a task whose MAC verified, spares reading the list.
    const facts = task.facts;
    const ranges = task.ranges.map((r): RangeToRead => {
      const listed = facts?.manifests.get(r.manifest);
      return listed ? { ...r, listed: { ...listed, content: 0 } } : r;
    });
    let written: WrittenTasks | undefined;
    try {
      written = await engine.write(jobOf(prefix, table, request), ranges, { ...(facts?.noDeletes && { noDeletes: true }) });
    } catch (err) {
      // A hint that does not land on a block (only an unsigned, edited string can carry one) is not the table's fault.
      if (!isIcefrontError(err, 'INVALID_METADATA') || !ranges.some((r) => r.offset !== undefined)) throw err;
      throw noSuchPlanTask();
    }
    if (!written) throw noSuchPlanTask();
    // A fan-out task hands its further batches out as plan tasks of their own.
    const fanned = (task.more ?? []).map((batch) => encodePlanTask({ ...planRefOf(task), ranges: batch, ...(facts && { facts }) }, key));
    const answer = { ...tasksJson(written), ...(fanned.length > 0 && { 'plan-tasks': fanned }) };
    const bytes = written.fileScanTasks.length + (written.deleteFiles?.length ?? 0) + fanned.reduce((n, s) => n + s.length + 3, 0);
    return { answer, outcome: { snapshotId: task.snapshotId, files: written.count, planTasks: fanned.length }, bytes };
  }

  return {
    async plan(prefix, catalog, id, body, onOutcome, takesGzip) {
      options.metrics?.planRequests.inc();
      const request = parseScanRequest(body);
      const table = await catalog.loadTable(id);
      // Pin the snapshot a request leaves open, so a commit between /plan and /tasks changes nothing.
      const target = resolveScanTarget(table.metadata, request);
      if (target.kind === 'empty') {
        const none: PlanRef = { ...binding(prefix, table), snapshotId: NO_SNAPSHOT, scan: scanOf(request) };
        onOutcome?.({ files: 0, planTasks: 0, tasks: 0, plannedBy: 'icefront' });
        return { status: 'completed', 'plan-id': encodePlanId(none, key), 'file-scan-tasks': [] };
      }
      const pinned: ScanRequest = target.kind === 'incremental' ? request : { ...request, snapshotId: target.snapshot.snapshotId };
      const ref: PlanRef = { ...binding(prefix, table), snapshotId: target.snapshot.snapshotId, scan: scanOf(pinned) };
      // The same pinned scan of the same table and metadata plans the same: its answer is kept
      // (issue #31). The name is part of it: the plan id and strings name the table they were issued for.
      const pageBytes = pageBytesFor(takesGzip);
      const plan = await kept(['plan', prefix, ref.namespace, ref.table, ...metadataIdentity(table), String(ref.snapshotId), canonicalScanJson(ref.scan), pageBytes], async () => {
        const { inline, planTasks, outcome, bytes } = await planPinned(prefix, table, pinned, ref, pageBytes);
        const planId = encodePlanId(ref, key);
        const answer: PlanTableScanResult = { status: 'completed', 'plan-id': planId, ...inline, ...(planTasks.length > 0 && { 'plan-tasks': planTasks }) };
        return { answer, outcome, bytes: bytes + planId.length };
      });
      onOutcome?.(plan.outcome);
      return plan.answer;
    },

    async fetchPlan(prefix, catalog, id, planId, onOutcome, takesGzip) {
      const table = await catalog.loadTable(id);
      const ref = decodePlanId(planId, key);
      if (!ref || !planTaskMatches(ref, binding(prefix, table)))
        throw fail('NO_SUCH_PLAN_ID', `Unknown plan id for table ${[...id.namespace, id.name].join('.')}`);
      if (ref.snapshotId === NO_SNAPSHOT && table.metadata.snapshots.length === 0) {
        onOutcome?.({ files: 0, planTasks: 0, tasks: 0, plannedBy: 'icefront' });
        return { status: 'completed', 'file-scan-tasks': [] };
      }
      const current = await withPinnedSnapshot(catalog, id, table, ref.snapshotId);
      const request = pinnedRequest(current, ref, 'NO_SUCH_PLAN_ID');
      const { inline, planTasks, outcome } = await planPinned(prefix, current, request, ref, pageBytesFor(takesGzip));
      onOutcome?.(outcome);
      return { status: 'completed', ...inline, ...(planTasks.length > 0 && { 'plan-tasks': planTasks }) };
    },

    async fetchTasks(prefix, catalog, id, body, onOutcome) {
      options.metrics?.taskRequests.inc();
      const text = planTaskOf(body);
      // A missing table is reported as such, before the plan task is looked at. The string pins
      // its snapshot, so a load made for this caller moments ago serves (Catalog.loadTable `pinned`).
      const loaded = await catalog.loadTable(id, { pinned: true });
      const task = decodePlanTask(text, key);
      if (!task || !planTaskMatches(task, binding(prefix, loaded))) throw noSuchPlanTask();
      const table = await withPinnedSnapshot(catalog, id, loaded, task.snapshotId);
      // Looked up only now: the caller's access to the table was checked by loading it, and the
      // string matched the table. The metadata location keys a table replaced under its name apart.
      const page = await kept(['tasks', prefix, ...metadataIdentity(table), text], () => writePage(prefix, table, task), !unkeptPlans.has(planKey(prefix, table, task)));
      onOutcome?.(page.outcome);
      return page.answer;
    },
  };
}

/** ScanTasks members from the engine's serialised arrays (embedded verbatim when the response is written). */
function tasksJson(written: WrittenTasks | undefined): Pick<FetchScanTasksResult, 'delete-files' | 'file-scan-tasks'> {
  if (!written) return { 'file-scan-tasks': [] };
  const tasks = new RawJson(written.fileScanTasks);
  // Spec ScanTasks: delete-files only alongside non-empty file-scan-tasks in the same response.
  return written.deleteFiles ? { 'delete-files': new RawJson(written.deleteFiles), 'file-scan-tasks': tasks } : { 'file-scan-tasks': tasks };
}

/**
 * Which metadata a kept answer was made from: its location, and its last-updated-ms, which every
 * metadata change moves (spec: table metadata fields), for a `rest` upstream that leaves the
 * optional metadata-location out of its load-table answer.
 */
function metadataIdentity(table: LoadedTable): [string, number] {
  return [table.metadataLocation, table.metadata.lastUpdatedMs];
}

/** Room for a response's status, plan id and JSON punctuation. */
const ENVELOPE_BYTES = 1024;

/**
 * The table with the snapshot a plan id or task pins. A catalog may answer from a resolution it
 * reuses for a while (filesystem `refresh-ms`): a replica that resolved the table before the
 * commit another replica planned on would not know the snapshot yet, and call a valid string
 * expired. So a missing snapshot is looked for once more in the current metadata. Only strings
 * that decoded and matched the table get here (a forged one costs no read).
 */
async function withPinnedSnapshot(catalog: Catalog, id: TableIdentifier, table: LoadedTable, snapshotId: bigint | number): Promise<LoadedTable> {
  if (snapshotId === NO_SNAPSHOT || table.metadata.snapshots.some((s) => s.snapshotId === snapshotId)) return table;
  return catalog.loadTable(id, { fresh: true });
}

/** The scan a plan id or task pins, if its snapshot still exists (else the string has expired). */
function pinnedRequest(table: LoadedTable, ref: PlanRef, code: 'NO_SUCH_PLAN_ID' | 'NO_SUCH_PLAN_TASK'): ScanRequest {
  const gone = () => fail(code, code === 'NO_SUCH_PLAN_ID' ? 'Unknown or expired plan id' : 'Unknown or expired plan task');
  if (!table.metadata.snapshots.some((s) => s.snapshotId === ref.snapshotId)) throw gone();
  try {
    return requestOf(ref.scan, ref.snapshotId);
  } catch {
    throw gone();
  }
}

/** The `plan-task` string of a FetchScanTasksRequest body. */
export function planTaskOf(body: unknown): string {
  // REST spec FetchScanTasksRequest: { "plan-task": string }
  if (body === null || typeof body !== 'object' || Object.getPrototypeOf(body) !== Object.prototype)
    throw fail('BAD_REQUEST', 'Invalid fetch-tasks request: the body must be a JSON object');
  const text = (body as Record<string, unknown>)['plan-task'];
  if (typeof text !== 'string') throw fail('BAD_REQUEST', "Invalid fetch-tasks request: 'plan-task' must be a string");
  return text;
}

function noSuchPlanTask() {
  return fail('NO_SUCH_PLAN_TASK', 'Unknown or expired plan task');
}

/** `ranges` with the entries each keeps, from the sizing of the same scan (ascending positions per manifest). */
function withKept(ranges: readonly ManifestRange[], sized: readonly SizedManifest[]): RangeToRead[] {
  const byPath = new Map(sized.map((m) => [m.path, m.positions] as const));
  return ranges.map((r) => {
    const positions = byPath.get(r.manifest);
    return positions ? { ...r, kept: positions.subarray(lowerBound(positions, r.start), lowerBound(positions, r.end)) } : r;
  });
}

/** The first index of `sorted` whose value is at least `value`. */
function lowerBound(sorted: Int32Array, value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
