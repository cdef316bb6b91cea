/**
 * The scan-planning protocol as a client walks it: `POST …/plan` (no filter, every column), then
 * `POST …/tasks` for every plan task, following plan tasks that answers themselves return (the
 * fixture chains them: each answer holds 100 file-scan-tasks and the next key), and finally
 * `DELETE …/plan/{plan-id}` as the Java client does on close (outside the timed part; it frees
 * the fixture's in-memory planning state). One keep-alive connection, one request at a time (the
 * fixture's chain allows nothing else); no compression asked for.
 */
import { Agent, request } from 'undici';

export interface ProtocolRun {
  readonly ms: number;
  /** `data-file.file-path` of every file-scan-task, in answer order. */
  readonly files: string[];
  /** Delete files attached across all tasks (none in the synthetic table). */
  readonly deletes: number;
  readonly planTasks: number;
  readonly requests: number;
  /** Response bytes of /plan and every /tasks. */
  readonly bytes: number;
}

interface PlanningAnswer {
  readonly status?: string;
  readonly 'plan-id'?: string;
  readonly 'plan-tasks'?: string[];
  readonly 'file-scan-tasks'?: { 'data-file': { 'file-path': string }; 'delete-file-references'?: number[] }[];
  readonly 'delete-files'?: unknown[];
}

/** `tableUrl` is `<base>/v1[/<prefix>]/namespaces/<ns>/tables/<table>`. */
export async function runProtocol(tableUrl: string): Promise<ProtocolRun> {
  const dispatcher = new Agent({ connections: 1, pipelining: 1 });
  let bytes = 0;
  let requests = 0;
  const post = async (route: string, body: unknown): Promise<PlanningAnswer> => {
    requests++;
    const res = await request(`${tableUrl}${route}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), dispatcher });
    const text = await res.body.text();
    bytes += Buffer.byteLength(text);
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
    for (let task = queue.shift(); task !== undefined; task = queue.shift()) {
      planTasks++;
      const answer = await post('/tasks', { 'plan-task': task });
      take(answer);
      queue.push(...(answer['plan-tasks'] ?? []));
    }
    const ms = performance.now() - started;
    const planId = plan['plan-id'];
    if (planId) {
      const res = await request(`${tableUrl}/plan/${encodeURIComponent(planId)}`, { method: 'DELETE', dispatcher });
      await res.body.dump();
    }
    return { ms, files, deletes, planTasks, requests, bytes };
  } finally {
    await dispatcher.close();
  }
}
