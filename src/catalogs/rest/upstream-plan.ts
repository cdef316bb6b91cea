/**
 * Asking an upstream to plan a scan (REST spec planTableScan), for catalogs whose upstream plans
 * but cannot page. The answer is read whole: `completed` is returned as parsed JSON (int64-exact);
 * `submitted` is polled with GET …/plan/{plan-id} (spec fetchPlanningResult) until it completes,
 * backing off from 100 ms to 2 s, within the catalog's request timeout, and the finished plan is
 * then released with DELETE …/plan/{plan-id} (spec cancelPlanning), as Java's client does. A
 * `failed` plan surfaces the upstream's ErrorModel with its code; `cancelled` is a 502.
 * `askUpstreamPlan` asks once and returns the answer as it is (`submitted` included), for a caller
 * that relays it unless it must page it. An upstream's refusal keeps its status and type, its
 * message prefixed with the catalog's name: a client reading it knows which planner refused.
 */
import { fail } from '../../errors/index.js';
import { parseJson } from '../../json/index.js';
import { isObject } from './upstream-config.js';
import { isUpstreamResponseError, UpstreamResponseError, type UpstreamResponse } from './upstream-error.js';
import { encodeNamespace, encodeSegment } from './paths.js';
import type { RestUpstream } from './rest-upstream.js';

/** A completed plan as the upstream answered it (PlanTableScanResult / FetchPlanningResult). */
export interface UpstreamPlanAnswer {
  readonly 'file-scan-tasks'?: unknown;
  readonly 'delete-files'?: unknown;
  readonly 'plan-tasks'?: unknown;
  readonly [key: string]: unknown;
}

export interface UpstreamPlanOptions {
  /** Overall bound on planning, polls included. */
  readonly timeoutMs: number;
  /** For tests: waits between polls. */
  readonly sleep?: (ms: number) => Promise<void>;
}

const FIRST_POLL_MS = 100;
const MAX_POLL_MS = 2000;

export async function planOnUpstream(
  upstream: RestUpstream,
  namespace: readonly string[],
  table: string,
  body: string,
  callerAuthorization: string | undefined,
  options: UpstreamPlanOptions,
): Promise<UpstreamPlanAnswer> {
  const { base, headers } = await planRoute(upstream, namespace, table, callerAuthorization);
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const deadline = Date.now() + options.timeoutMs;
  let answer = readAnswer(upstream.name, await postPlan(upstream, base, await headers(true), body));
  const planId = answer['plan-id'];
  let wait = FIRST_POLL_MS;
  while (answer['status'] === 'submitted') {
    if (typeof planId !== 'string' || planId === '') throw bad(upstream.name, 'answered `submitted` without a plan-id');
    if (Date.now() + wait > deadline) throw fail('UPSTREAM_TIMEOUT', `Catalog '${upstream.name}': the upstream's plan did not complete within ${options.timeoutMs} ms`);
    await sleep(wait);
    wait = Math.min(wait * 2, MAX_POLL_MS);
    answer = readAnswer(upstream.name, await upstream.request('GET', `${base}/${encodeSegment(planId)}`, { headers: await headers(false) }));
    if (answer['status'] !== 'submitted') {
      // the upstream held state for this plan: release it, without making the client wait
      void headers(false)
        .then((h) => upstream.request('DELETE', `${base}/${encodeSegment(planId)}`, { headers: h }))
        .catch(() => undefined);
    }
  }
  const status = answer['status'];
  if (status === 'completed') return answer;
  if (status === 'failed') {
    const error = isObject(answer['error']) ? answer['error'] : undefined;
    const code = typeof error?.['code'] === 'number' && error['code'] >= 400 && error['code'] <= 599 ? error['code'] : 500;
    // the upstream's ErrorModel, relayed as if it had answered with it (wire-format §7)
    const response: UpstreamResponse = { status: code, headers: { 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify({ error })) };
    throw new UpstreamResponseError(upstream.name, 'the scan plan', response);
  }
  if (status === 'cancelled') throw bad(upstream.name, 'cancelled the scan plan');
  throw bad(upstream.name, `answered the scan plan with status ${JSON.stringify(status)}`);
}

/** One POST …/plan: the upstream's answer as it gave it (a `submitted` one is not polled), and its size in bytes. */
export async function askUpstreamPlan(
  upstream: RestUpstream,
  namespace: readonly string[],
  table: string,
  body: string,
  callerAuthorization: string | undefined,
): Promise<{ readonly answer: UpstreamPlanAnswer; readonly bytes: number }> {
  const { base, headers } = await planRoute(upstream, namespace, table, callerAuthorization);
  const response = await postPlan(upstream, base, await headers(true), body);
  return { answer: readAnswer(upstream.name, response), bytes: response.body.length };
}

/** The upstream path of a table's /plan, and the headers of a request to it as the caller. */
async function planRoute(upstream: RestUpstream, namespace: readonly string[], table: string, callerAuthorization: string | undefined) {
  await upstream.fetchConfig(callerAuthorization);
  const base = upstream.upstreamPath(`/namespaces/${encodeNamespace(namespace)}/tables/${encodeSegment(table)}/plan`);
  const headers = async (json: boolean) => ({
    accept: 'application/json',
    ...(json && { 'content-type': 'application/json' }),
    ...(await upstream.authHeaders(callerAuthorization)),
  });
  return { base, headers };
}

/** POST …/plan; an ErrorModel refusal is relayed with the catalog named in its message. */
async function postPlan(upstream: RestUpstream, base: string, headers: Record<string, string>, body: string): Promise<UpstreamResponse> {
  try {
    return await upstream.request('POST', base, { headers, body });
  } catch (err) {
    if (!isUpstreamResponseError(err) || !err.errorModel) throw err;
    const error = { ...err.errorModel, message: `Catalog '${upstream.name}': the upstream could not plan this scan: ${err.errorModel.message}` };
    const response: UpstreamResponse = { status: err.upstream.status, headers: { 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify({ error })) };
    throw new UpstreamResponseError(upstream.name, 'the scan plan', response);
  }
}

function readAnswer(catalog: string, response: UpstreamResponse): Record<string, unknown> {
  let json: unknown;
  try {
    json = parseJson(response.body.toString('utf8'));
  } catch {
    throw bad(catalog, 'answered the scan plan with a body that is not JSON');
  }
  if (!isObject(json)) throw bad(catalog, 'answered the scan plan with something other than a JSON object');
  return json;
}

function bad(catalog: string, what: string) {
  return fail('UPSTREAM_BAD_GATEWAY', `Catalog '${catalog}': the upstream ${what}`);
}
