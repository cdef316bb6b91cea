/**
 * The project's own scan-planning client (not an engine): it plays the REST protocol as Iceberg
 * Java 1.11's RESTTableScan does, so a test can watch every exchange.
 *   - `plan`: POST …/plan with the request RESTTableScan.planFiles builds for a plain scan
 *     (`select` of the projected columns, `filter`, `case-sensitive`; no `snapshot-id` for the
 *     current snapshot, which the server pins); a `completed` answer only (Icefront never
 *     answers `submitted`).
 *   - `redeem`: ScanTaskIterable's fixed workers, each taking the next plan task from one shared
 *     queue, POSTing `{"plan-task": …}` to …/tasks and putting any plan tasks of the answer back
 *     on the queue; the first failure fails the scan.
 *   - every request goes through HTTPClient's retry strategy (ExponentialHttpRequestRetryStrategy,
 *     `rest.client.max-retries` 5): an answer 429, 502, 503 or 504 is retried, POST included,
 *     after `Retry-After` or 1 s · 2^(n-1) plus up to 10% jitter; a transport error on a POST is
 *     not (POST is not idempotent), and neither is any other status.
 *   - `cancel`: DELETE …/plan/{plan-id}, which RESTTableScan sends when its task iterable closes.
 */

/** One HTTP exchange, as the balancer in front described it. */
export interface Exchange {
  readonly method: string;
  readonly route: 'plan' | 'tasks' | 'cancel';
  /** 1 for the first try, 2 for the first retry… */
  readonly attempt: number;
  readonly status: number;
  /** nginx's `X-Upstream-Addr` (the replicas tried, "a, b" when it moved on); '' without one. */
  readonly upstreams: string;
  /** The replica that answered (the last one tried); '' without one. */
  readonly answeredBy: string;
  readonly planTask?: string;
}

export interface FileScanTask {
  readonly 'data-file': { readonly 'file-path': string };
}

interface ScanTasksAnswer {
  readonly 'file-scan-tasks'?: readonly FileScanTask[];
  readonly 'plan-tasks'?: readonly string[];
}

export interface PlanAnswer extends ScanTasksAnswer {
  readonly status: string;
  readonly 'plan-id'?: string;
}

export class RemoteScanClient {
  readonly exchanges: Exchange[] = [];

  /** `tableUrl`: `…/v1/{prefix}/namespaces/{namespace}/tables/{table}`. */
  constructor(
    private readonly tableUrl: string,
    private readonly options: { workers: number; maxRetries?: number } = { workers: 3 },
  ) {}

  async plan(select: readonly string[]): Promise<PlanAnswer> {
    const body = { select, filter: true, 'case-sensitive': true };
    const answer = (await this.send('POST', 'plan', `${this.tableUrl}/plan`, body)) as PlanAnswer;
    if (answer.status !== 'completed') throw new Error(`/plan answered status ${answer.status}`);
    return answer;
  }

  /** Redeems `planTasks` (and any plan tasks their answers hand out); the file scan tasks of all of them. */
  async redeem(planTasks: readonly string[]): Promise<FileScanTask[]> {
    const queue = [...planTasks];
    const tasks: FileScanTask[] = [];
    let failed = false;
    const worker = async () => {
      for (let next = queue.shift(); next !== undefined && !failed; next = queue.shift()) {
        try {
          const answer = (await this.send('POST', 'tasks', `${this.tableUrl}/tasks`, { 'plan-task': next }, next)) as ScanTasksAnswer;
          queue.push(...(answer['plan-tasks'] ?? []));
          tasks.push(...(answer['file-scan-tasks'] ?? []));
        } catch (err) {
          failed = true;
          throw err;
        }
      }
    };
    await Promise.all(Array.from({ length: this.options.workers }, worker));
    return tasks;
  }

  /** DELETE …/plan/{plan-id}: the status. */
  async cancel(planId: string): Promise<number> {
    await this.send('DELETE', 'cancel', `${this.tableUrl}/plan/${encodeURIComponent(planId)}`);
    return this.exchanges.at(-1)!.status;
  }

  private async send(method: string, route: Exchange['route'], url: string, body?: unknown, planTask?: string): Promise<unknown> {
    const maxRetries = this.options.maxRetries ?? 5;
    for (let attempt = 1; ; attempt++) {
      const res = await fetch(url, {
        method,
        ...(body !== undefined && { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
      });
      const text = await res.text();
      const upstreams = res.headers.get('x-upstream-addr') ?? '';
      this.exchanges.push({
        method,
        route,
        attempt,
        status: res.status,
        upstreams,
        answeredBy: upstreams.split(',').at(-1)!.trim(),
        ...(planTask !== undefined && { planTask }),
      });
      if (res.ok) return text === '' ? undefined : (JSON.parse(text) as unknown);
      if (!RETRIED.has(res.status) || attempt > maxRetries) throw new Error(`${method} ${url} answered ${res.status}: ${text.slice(0, 500)}`);
      await new Promise((r) => setTimeout(r, retryInterval(res.headers.get('retry-after'), attempt)));
    }
  }
}

/** ExponentialHttpRequestRetryStrategy's retriable statuses. */
const RETRIED = new Set([429, 502, 503, 504]);

/** ExponentialHttpRequestRetryStrategy.getRetryInterval: a positive Retry-After, else 1 s · 2^(n-1) (at most 64 s) + jitter. */
function retryInterval(retryAfter: string | null, attempt: number): number {
  const seconds = retryAfter === null ? NaN : Number(retryAfter);
  if (seconds > 0) return seconds * 1000;
  const delay = 1000 * Math.min(2 ** (attempt - 1), 64);
  return delay + Math.floor(Math.random() * Math.max(1, delay * 0.1));
}
