/**
 * The scan-planning protocol as a client walks it: `POST …/plan` (no filter, every column), then
 * `POST …/tasks` for every plan task, following plan tasks that answers themselves return (the
 * fixture chains them: each answer holds 100 file-scan-tasks and the next key), and finally
 * `DELETE …/plan/{plan-id}` as the Java client does on close (outside the timed part; it frees
 * the fixture's in-memory planning state). Two walks, as the clients' sources do it:
 * - `java`: Iceberg Java's ScanTaskIterable, `fetchers` workers (max(2, cores): 4 on the machines
 *   it is tuned for) taking plan tasks from one queue, each on its own keep-alive connection;
 *   Apache HttpClient 5 asks `Accept-Encoding: gzip, deflate`;
 * - `pyiceberg`: one request at a time on one connection; requests asks `gzip, deflate` too.
 * `gzip: false` leaves Accept-Encoding out (what the bench measured before, and what a client
 * behind a proxy that strips it gets). `bytes` counts the answers' bytes as they crossed the
 * wire; `jsonBytes`, the JSON once decoded.
 */
import { gunzipSync, inflateSync } from 'node:zlib';
import { Agent, request } from 'undici';

export type Walk = 'java' | 'pyiceberg';

export interface WalkOptions {
  readonly walk: Walk;
  /** Ask for compressed answers, as both clients do. */
  readonly gzip: boolean;
  /** Concurrent /tasks fetchers of the `java` walk (default 4). */
  readonly fetchers?: number;
}

export interface ProtocolRun {
  readonly ms: number;
  /** `data-file.file-path` of every file-scan-task, in answer order. */
  readonly files: string[];
  /** Delete files attached across all tasks (none in the synthetic table). */
  readonly deletes: number;
  readonly planTasks: number;
  readonly requests: number;
  /** Answer bytes of /plan and every /tasks as they crossed the wire (compressed when they were). */
  readonly bytes: number;
  /** The same answers' JSON bytes. */
  readonly jsonBytes: number;
  /** Answers that came compressed. */
  readonly compressed: number;
  /** The largest answer's JSON bytes (each must stay within the server's max-response-bytes). */
  readonly largestJson: number;
}

interface PlanningAnswer {
  readonly status?: string;
  readonly 'plan-id'?: string;
  readonly 'plan-tasks'?: string[];
  readonly 'file-scan-tasks'?: { 'data-file': { 'file-path': string }; 'delete-file-references'?: number[] }[];
  readonly 'delete-files'?: unknown[];
}

/** `tableUrl` is `<base>/v1[/<prefix>]/namespaces/<ns>/tables/<table>`. */
export async function runProtocol(tableUrl: string, options: WalkOptions): Promise<ProtocolRun> {
  const fetchers = options.walk === 'java' ? (options.fetchers ?? 4) : 1;
  const dispatcher = new Agent({ connections: fetchers, pipelining: 1 });
  const accept = options.gzip ? { 'accept-encoding': 'gzip, deflate' } : {};
  let bytes = 0;
  let jsonBytes = 0;
  let requests = 0;
  let compressed = 0;
  let largestJson = 0;
  const post = async (route: string, body: unknown): Promise<PlanningAnswer> => {
    requests++;
    const res = await request(`${tableUrl}${route}`, { method: 'POST', headers: { 'content-type': 'application/json', ...accept }, body: JSON.stringify(body), dispatcher });
    const raw = Buffer.from(await res.body.arrayBuffer());
    bytes += raw.length;
    const encoding = res.headers['content-encoding'];
    if (encoding !== undefined && !options.gzip) throw new Error(`POST ${tableUrl}${route}: answered ${String(encoding)} though no encoding was accepted`);
    const decoded = encoding === 'gzip' ? gunzipSync(raw) : encoding === 'deflate' ? inflateSync(raw) : raw;
    if (encoding !== undefined) compressed++;
    jsonBytes += decoded.length;
    largestJson = Math.max(largestJson, decoded.length);
    const text = decoded.toString('utf8');
    if (res.statusCode !== 200) throw new Error(`POST ${tableUrl}${route}: ${res.statusCode} ${text.slice(0, 500)}`);
    return JSON.parse(text) as PlanningAnswer;
  };
  try {
    const started = performance.now();
    const plan = await post('/plan', {});
    if (plan.status !== 'completed') throw new Error(`plan status ${plan.status} (this bench expects synchronous planning)`);
    const files: string[] = [];
    let deletes = 0;
    const take = (a: PlanningAnswer): void => {
      for (const t of a['file-scan-tasks'] ?? []) files.push(t['data-file']['file-path']);
      deletes += a['delete-files']?.length ?? 0;
    };
    take(plan);
    const queue = [...(plan['plan-tasks'] ?? [])];
    let planTasks = 0;
    // Workers take tasks from the one queue; one that finds it empty waits while others may add to it.
    let busy = 0;
    let wake: (() => void)[] = [];
    const worker = async (): Promise<void> => {
      for (;;) {
        const task = queue.shift();
        if (task === undefined) {
          if (busy === 0) break;
          await new Promise<void>((r) => wake.push(r));
          continue;
        }
        busy++;
        planTasks++;
        try {
          const answer = await post('/tasks', { 'plan-task': task });
          take(answer);
          queue.push(...(answer['plan-tasks'] ?? []));
        } finally {
          busy--;
          const waiting = wake;
          wake = [];
          for (const w of waiting) w();
        }
      }
    };
    await Promise.all(Array.from({ length: fetchers }, worker));
    const ms = performance.now() - started;
    const planId = plan['plan-id'];
    if (planId) {
      const res = await request(`${tableUrl}/plan/${encodeURIComponent(planId)}`, { method: 'DELETE', dispatcher });
      await res.body.dump();
    }
    return { ms, files, deletes, planTasks, requests, bytes, jsonBytes, compressed, largestJson };
  } finally {
    await dispatcher.close();
  }
}
