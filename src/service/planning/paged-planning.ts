/**
 * The REST scan-planning protocol for `upstream-paged` catalogs: the upstream plans (`/plan`),
 * Icefront pages (`/tasks`). Issue #11; Gravitino design §5 (stateless tasks) and §8.5 (total
 * order, snapshot pinning), applied to an upstream's answer instead of Icefront's own plan:
 * - /plan pins the snapshot a request leaves open (from load-table, as the caller), asks the
 *   upstream for the pinned plan as the caller, orders its tasks, answers the first page inline
 *   and one page task (tokens/page-task.ts) per further page;
 * - /tasks asks the upstream for the same pinned plan again, as the caller of that request (the
 *   upstream authorizes it), and answers the page's range. Plans are kept per (pinned scan,
 *   caller) in the compute cache with single-flight, so concurrent redemptions of one plan by one
 *   caller on one replica call the upstream once, and a replica that never saw the /plan answers
 *   the same bytes;
 * - GET /plan/{id} re-plans the pinned scan a plan id carries; DELETE answers 204.
 * For an upstream that pages (`upstream-or-paged`), `planOrPage` asks it the client's request
 * once and relays the answer, unless it lists more than one of Icefront's pages inline with no
 * plan task: then that answer is paged as above (issue #29: judge an upstream by what its /plan
 * answers; Rustberg advertises /tasks but answers up to 25,000 tasks inline).
 */
import type { ComputeCache } from '../../cache/index.js';
import { fail } from '../../errors/index.js';
import type { TableIdentifier, TableMetadata } from '../../iceberg/index.js';
import { jsonLength, stringifyJson } from '../../json/index.js';
import type { Metrics } from '../../observability/index.js';
import { parseScanRequest, resolveScanTarget } from '../../planner/index.js';
import {
  canonicalScanJson,
  decodePageTask,
  decodePlanId,
  encodePageTask,
  encodePlanId,
  NO_SNAPSHOT,
  planRefOf,
  planTaskMatches,
  type PageRange,
  type PlanRef,
  type TableBinding,
} from '../../tokens/index.js';
import type { FetchPlanningResult, FetchScanTasksResult, PlanTableScanResult } from '../wire-types.js';
import type { OutcomeSink } from '../scan-outcome.js';
import { planRequestJson, requestOf, scanOf } from '../engine/scan-codec.js';
import { encodeRuns, fitStrings } from '../engine/fit-strings.js';
import { planTaskOf } from './scan-planning.js';
import { cutPages, orderPlan, pageOf, type OrderedPlan } from './upstream-pages.js';

/** The upstream of one catalog, as one caller reaches it. */
export interface UpstreamPlanner {
  /** The table's current metadata, loaded through the upstream as the caller. */
  loadMetadata(id: TableIdentifier): Promise<TableMetadata>;
  /** The upstream's completed plan for a PlanTableScanRequest body, asked as the caller. */
  plan(id: TableIdentifier, body: string): Promise<Readonly<Record<string, unknown>>>;
  /** The upstream's first answer to a PlanTableScanRequest body (`submitted` unpolled) and its size in bytes. */
  ask(id: TableIdentifier, body: string): Promise<{ readonly answer: Readonly<Record<string, unknown>>; readonly bytes: number }>;
  /** Who asks: a digest of the caller's credentials ('' for none), keying what is cached for them. */
  readonly callerKey: string;
}

export interface PagedPlanningOptions {
  readonly batchSize: number;
  readonly maxResponseBytes: number;
  readonly tokenKey?: Buffer;
  /** Ordered upstream plans, shared by concurrent askers; without it every request asks the upstream. */
  readonly cache?: ComputeCache<OrderedPlan>;
  /** How long a cached upstream plan is served before it is asked for again. */
  readonly ttlMs?: number;
  readonly metrics?: Metrics;
  readonly now?: () => number;
}

/** `onOutcome` is told what each answer held (status page, audit stream). */
export interface PagedPlanning {
  plan(prefix: string, planner: UpstreamPlanner, id: TableIdentifier, body: unknown, onOutcome?: OutcomeSink): Promise<PlanTableScanResult>;
  planOrPage(prefix: string, planner: UpstreamPlanner, id: TableIdentifier, body: unknown, onOutcome?: OutcomeSink): Promise<PlanTableScanResult>;
  /** Whether a plan-task string or plan id is one this paging issued (signed with its key, when it has one). */
  issued(kind: 'plan-task' | 'plan-id', text: string): boolean;
  fetchPlan(prefix: string, planner: UpstreamPlanner, id: TableIdentifier, planId: string, onOutcome?: OutcomeSink): Promise<FetchPlanningResult>;
  fetchTasks(prefix: string, planner: UpstreamPlanner, id: TableIdentifier, body: unknown, onOutcome?: OutcomeSink): Promise<FetchScanTasksResult>;
}

/** Default lifetime of a cached upstream plan: long enough for a scan's redemptions, short enough that revoked access is seen. */
export const UPSTREAM_PLAN_TTL_MS = 60_000;
const ENVELOPE_BYTES = 1024;

export function createPagedPlanning(options: PagedPlanningOptions): PagedPlanning {
  const key = options.tokenKey;
  const now = options.now ?? Date.now;
  const ttl = options.ttlMs ?? UPSTREAM_PLAN_TTL_MS;
  const limits = { batchSize: options.batchSize, maxBytes: options.maxResponseBytes };

  /**
   * The upstream's plan of a pinned scan, ordered: cached per (plan, caller), one upstream call for
   * concurrent askers; `known`, the upstream's answer to this very scan when it is already in hand.
   */
  async function orderedPlan(prefix: string, planner: UpstreamPlanner, id: TableIdentifier, ref: PlanRef, known?: Readonly<Record<string, unknown>>): Promise<OrderedPlan> {
    const ask = async () => {
      if (known) return orderPlan(prefix, known, now());
      options.metrics?.upstreamPlans.inc();
      const answer = await planner.plan(id, planRequestJson(ref.scan, ref.snapshotId));
      return orderPlan(prefix, answer, now());
    };
    const cache = options.cache;
    if (!cache) return ask();
    const cacheKey = JSON.stringify([prefix, ref.namespace, ref.table, String(ref.snapshotId), canonicalScanJson(ref.scan), planner.callerKey]);
    const held = cache.peek(cacheKey);
    if (held && now() - held.fetchedAt > ttl) cache.delete(cacheKey);
    return cache.get(cacheKey, ask);
  }

  /** The first page inline and page tasks for the rest, within max-response-bytes (fanning out when the strings alone would not fit). */
  async function answer(plan: OrderedPlan, ref: PlanRef, onOutcome: OutcomeSink | undefined) {
    const [first, ...rest] = cutPages(plan, limits);
    const inline = pageOf(plan, first!);
    const budget = options.maxResponseBytes - jsonLength(inline) - ENVELOPE_BYTES;
    const pageTasks = await fitPages(ref, plan, rest, budget, key);
    onOutcome?.({ snapshotId: ref.snapshotId, files: inline['file-scan-tasks'].length, planTasks: pageTasks.length, tasks: plan.tasks.length, plannedBy: 'upstream' });
    return { inline, pageTasks };
  }

  /** The plan paged; `known`, the upstream's answer to the client's own request, used when that request pinned what Icefront pins. */
  async function pagedPlan(prefix: string, planner: UpstreamPlanner, id: TableIdentifier, body: unknown, onOutcome: OutcomeSink | undefined, known?: Readonly<Record<string, unknown>>): Promise<PlanTableScanResult> {
    const request = parseScanRequest(body);
    const metadata = await planner.loadMetadata(id);
    // Pin the snapshot a request leaves open, so every page comes from the same snapshot.
    const target = resolveScanTarget(metadata, request);
    const binding: TableBinding = { catalog: prefix, namespace: [...id.namespace], table: id.name, ...(metadata.tableUuid && { tableUuid: metadata.tableUuid }) };
    if (target.kind === 'empty') {
      const none: PlanRef = { ...binding, snapshotId: NO_SNAPSHOT, scan: scanOf(request) };
      onOutcome?.({ files: 0, planTasks: 0, tasks: 0, plannedBy: 'upstream' });
      return { status: 'completed', 'plan-id': encodePlanId(none, key), 'file-scan-tasks': [] };
    }
    const incremental = target.kind === 'incremental';
    const pinned = incremental ? request : { ...request, snapshotId: target.snapshot.snapshotId };
    const ref: PlanRef = { ...binding, snapshotId: target.snapshot.snapshotId, scan: scanOf(pinned) };
    const same = incremental || request.snapshotId === target.snapshot.snapshotId;
    const { inline, pageTasks } = await answer(await orderedPlan(prefix, planner, id, ref, same ? known : undefined), ref, onOutcome);
    return { status: 'completed', 'plan-id': encodePlanId(ref, key), ...inline, ...(pageTasks.length > 0 && { 'plan-tasks': pageTasks }) };
  }

  return {
    async plan(prefix, planner, id, body, onOutcome) {
      options.metrics?.planRequests.inc();
      return pagedPlan(prefix, planner, id, body, onOutcome);
    },

    async planOrPage(prefix, planner, id, body, onOutcome) {
      options.metrics?.planRequests.inc();
      const { answer: given, bytes } = await planner.ask(id, stringifyJson(body));
      const tasks = given['file-scan-tasks'];
      const planTasks = given['plan-tasks'];
      const listed = Array.isArray(planTasks) ? planTasks.length : 0;
      const inline = given['status'] === 'completed' && listed === 0 && Array.isArray(tasks);
      const beyondPage = inline && ((limits.batchSize > 0 && tasks.length > limits.batchSize) || bytes > limits.maxBytes);
      if (beyondPage) return pagedPlan(prefix, planner, id, body, onOutcome, given);
      onOutcome?.({ files: Array.isArray(tasks) ? tasks.length : 0, planTasks: listed, plannedBy: 'upstream' });
      return given as unknown as PlanTableScanResult;
    },

    issued(kind, text) {
      return (kind === 'plan-task' ? decodePageTask(text, key) : decodePlanId(text, key)) !== undefined;
    },

    async fetchPlan(prefix, planner, id, planId, onOutcome) {
      const ref = decodePlanId(planId, key);
      if (!ref || !issuedFor(ref, prefix, id)) throw fail('NO_SUCH_PLAN_ID', 'Unknown plan id for this table');
      if (ref.snapshotId === NO_SNAPSHOT) {
        onOutcome?.({ files: 0, planTasks: 0, tasks: 0, plannedBy: 'upstream' });
        return { status: 'completed', 'file-scan-tasks': [] };
      }
      checkScan(ref, 'NO_SUCH_PLAN_ID');
      const { inline, pageTasks } = await answer(await orderedPlan(prefix, planner, id, ref), ref, onOutcome);
      return { status: 'completed', ...inline, ...(pageTasks.length > 0 && { 'plan-tasks': pageTasks }) };
    },

    async fetchTasks(prefix, planner, id, body, onOutcome) {
      options.metrics?.taskRequests.inc();
      const task = decodePageTask(planTaskOf(body), key);
      if (!task || !issuedFor(task, prefix, id)) throw noSuchPlanTask();
      checkScan(task, 'NO_SUCH_PLAN_TASK');
      const plan = await orderedPlan(prefix, planner, id, task);
      // The upstream's plan of this pinned scan is no longer the one the page was cut from.
      if (plan.tasks.length !== task.total || plan.digest !== task.digest)
        throw fail('NO_SUCH_PLAN_TASK', "Plan task expired: the upstream's plan for this snapshot changed since the task was issued");
      const fanned = (task.more ?? []).map((page) => encodePageTask({ ...planRefOf(task), page, total: task.total, digest: task.digest }, key));
      const page = pageOf(plan, task.page);
      onOutcome?.({ snapshotId: task.snapshotId, files: page['file-scan-tasks'].length, planTasks: fanned.length });
      return { ...page, ...(fanned.length > 0 && { 'plan-tasks': fanned }) };
    },
  };
}

/**
 * Whether a plan id or page task was issued for the table the route names. Redemption does not
 * load the table (that would be a second upstream call per page), so a UUID the string carries
 * cannot be compared; the upstream plans the pinned snapshot id, which a re-created table lacks,
 * and the digest check refuses any other answer.
 */
function issuedFor(ref: PlanRef, prefix: string, id: TableIdentifier): boolean {
  return planTaskMatches(ref, { catalog: prefix, namespace: [...id.namespace], table: id.name, ...(ref.tableUuid !== undefined && { tableUuid: ref.tableUuid }) });
}

/** The pinned scan must parse as a request (a signed string always does; an edited one may not). */
function checkScan(ref: PlanRef, code: 'NO_SUCH_PLAN_ID' | 'NO_SUCH_PLAN_TASK'): void {
  try {
    requestOf(ref.scan, ref.snapshotId);
  } catch {
    throw fail(code, code === 'NO_SUCH_PLAN_ID' ? 'Unknown or expired plan id' : 'Unknown or expired plan task');
  }
}

/** Page-task strings for `pages` within `budget` bytes (fit-strings.ts). */
function fitPages(ref: PlanRef, plan: OrderedPlan, pages: readonly PageRange[], budget: number, key: Buffer | undefined): Promise<string[]> {
  const base = { ...planRefOf(ref), total: plan.tasks.length, digest: plan.digest };
  return fitStrings(budget, (run) => encodeRuns(pages, run, (page, more) => encodePageTask({ ...base, page, ...(more.length > 0 && { more }) }, key)));
}

function noSuchPlanTask() {
  return fail('NO_SUCH_PLAN_TASK', 'Unknown or expired plan task');
}
