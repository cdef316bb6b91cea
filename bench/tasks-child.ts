/**
 * One scan-planning measurement in a fresh process (run by bench/run.ts):
 *   tasks-child.ts plan WAREHOUSE NS TABLE OUT        → POST /plan (first request: cold), signed as
 *     replicas sign (planning.token-secret); writes the middle plan task to OUT, and to OUT.unsigned
 *     the same task as a server without a secret issues it
 *   tasks-child.ts tasks WAREHOUSE NS TABLE TOKENFILE → POST /tasks cold (first request), then warm
 *     (again), with the secret, or without it when TOKENFILE ends in .unsigned
 * Prints one JSON line, with the process's peak RSS (its planning workers are threads of it).
 */
import fs from 'node:fs';
import { buildIcefront } from '../src/main.js';
import type { Config } from '../src/config/index.js';
import { decodePlanTask, encodePlanTask, tokenKey } from '../src/tokens/index.js';

const [mode, warehouse, ns, table, file] = process.argv.slice(2) as [string, string, string, string, string];
const SECRET = 'bench-replicas-share-this-secret';
const signed = !file.endsWith('.unsigned');
const config: Config = {
  source: '',
  server: { host: '127.0.0.1', port: 0, bodyLimit: 1 << 20 },
  planning: { batchSize: 100, maxResponseBytes: 1 << 20, cacheBytes: Number(process.env.BENCH_CACHE_BYTES ?? 256 << 20), ...(signed && { tokenSecret: SECRET }) },
  catalogs: new Map([['bench', { type: 'filesystem', name: 'bench', warehouse, locations: [{ prefix: 's3://bench/warehouse', dir: warehouse }], planning: 'on' }]]),
  logLevel: 'silent',
};
const icefront = buildIcefront(config);
const { app } = icefront;
// a process up and ready (its planning workers loaded): "cold" is about the caches
await icefront.ready();
const base = `/v1/bench/namespaces/${ns}/tables/${table}`;
const post = (url: string, body: string) => app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload: body });
const timed = async (f: () => Promise<{ statusCode: number; body: string }>) => {
  const t0 = performance.now();
  const res = await f();
  if (res.statusCode !== 200) throw new Error(`${res.statusCode}: ${res.body.slice(0, 300)}`);
  return { ms: performance.now() - t0, bytes: Buffer.byteLength(res.body), body: res.body };
};

if (mode === 'plan') {
  const plan = await timed(() => post(`${base}/plan`, '{}'));
  const tasks = (JSON.parse(plan.body) as { 'plan-tasks'?: string[] })['plan-tasks'] ?? [];
  const task = tasks[Math.floor(tasks.length / 2)] ?? '';
  fs.writeFileSync(file, task);
  // what a server without the secret would have issued: the same ranges, format 1, no list entries
  const { facts: _facts, ...plain } = decodePlanTask(task, tokenKey(config.planning))!;
  fs.writeFileSync(`${file}.unsigned`, encodePlanTask(plain));
  console.log(JSON.stringify({ planMs: plan.ms, planBytes: plan.bytes, planTasks: tasks.length, maxRssMB: process.resourceUsage().maxRSS / 1024 }));
} else {
  const token = JSON.stringify({ 'plan-task': fs.readFileSync(file, 'utf8') });
  const cold = await timed(() => post(`${base}/tasks`, token));
  const warm = await timed(() => post(`${base}/tasks`, token));
  console.log(JSON.stringify({ coldMs: cold.ms, warmMs: warm.ms, tasksBytes: cold.bytes, maxRssMB: process.resourceUsage().maxRSS / 1024 }));
}
await app.close();
