/**
 * Asking an upstream to plan a scan (REST spec planTableScan), for catalogs whose upstream plans
 * but cannot page. The answer is read whole: `completed` is returned as parsed JSON (int64-exact);
 * `submitted` is polled with GET …/plan/{plan-id} (spec fetchPlanningResult) until it completes,
 * backing off from 100 ms to 2 s, within the catalog's request timeout, and the finished plan is
 * then released with DELETE …/plan/{plan-id} (spec cancelPlanning), as Java's client does. A
 * `failed` plan surfaces the upstream's ErrorModel with its code; `cancelled` is a 502.
 */
import { fail } from '../../errors/index.js';
import { parseJson } from '../../iceberg/index.js';
import { isObject } from './upstream-config.js';
import { UpstreamResponseError, type UpstreamResponse } from './upstream-error.js';
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
  await upstream.fetchConfig(callerAuthorization);
  const base = upstream.upstreamPath(`/namespaces/${encodeNamespace(namespace)}/tables/${encodeSegment(table)}/plan`);
  const headers = async (json: boolean) => ({
    accept: 'application/json',
    ...(json && { 'content-type': 'application/json' }),
    ...(await upstream.authHeaders(callerAuthorization)),
  });
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const deadline = Date.now() + options.timeoutMs;
  let answer = readAnswer(upstream.name, await upstream.request('POST', base, { headers: await headers(true), body }));
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
