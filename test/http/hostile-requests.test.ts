/**
 * The hostile-request corpus: every path, body, header, plan-task string and raw HTTP framing of
 * test/http/hostile/inputs.ts is answered within a bound, by an Iceberg ErrorModel (or, for an
 * input that is valid in disguise, a success), and the server keeps serving.
 */
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import t, { type Test } from 'tap';
import { decodePlanTask, encodePlanTask } from '../../src/tokens/index.js';
import { appWith, demoCatalog, parse, post } from '../service/planning/helpers.js';
import { hostileBodies, hostileHeaders, hostilePaths, RAW_FRAMINGS, TABLE, type HostileRequest } from './hostile/inputs.js';
import { rawExchange, readRawAnswer } from './hostile/raw-exchange.js';
import { errorModelProblem, Tally } from './hostile/tally.js';

const BOUND_MS = 5000;
const SECRET = 'a-plan-token-secret-for-the-corpus';
const total = new Tally();

async function within<T>(ms: number, what: string, p: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms)));
  try {
    return await Promise.race([p, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

async function run(t: Test, app: FastifyInstance, inputs: readonly HostileRequest[], tally: Tally): Promise<void> {
  for (const input of inputs) {
    const started = performance.now();
    const res = await within(BOUND_MS, input.label, app.inject({ method: input.method, url: input.url, headers: input.headers ?? {}, ...(input.payload !== undefined && { payload: input.payload }) }));
    const ms = performance.now() - started;
    tally.add({ label: input.label, outcome: String(res.statusCode), ms });
    if (res.statusCode >= 500) t.fail(`${input.label}: ${res.statusCode} ${res.body.slice(0, 200)}`);
    else if (res.statusCode >= 400) {
      // HEAD carries no body: its status is the answer
      const problem = input.method === 'HEAD' ? undefined : errorModelProblem(res.statusCode, res.body);
      if (problem) t.fail(`${input.label}: ${problem}`);
    } else if (!input.mayPass) t.fail(`${input.label}: answered ${res.statusCode} to an invalid input: ${res.body.slice(0, 200)}`);
  }
  const health = await app.inject({ url: '/healthz' });
  t.equal(health.statusCode, 200, 'still healthy afterwards');
}

t.teardown(() => {
  console.log(`# ${total.summary('hostile requests (all)')}`);
});

t.test('hostile paths, bodies and headers get 4xx ErrorModels, never a crash or a 5xx', async (t) => {
  const app = appWith([demoCatalog()], { batchSize: 2, tokenSecret: SECRET });
  t.teardown(() => app.close());
  for (const [what, inputs] of [['paths', hostilePaths()], ['bodies', hostileBodies()], ['headers', hostileHeaders()]] as const) {
    const tally = new Tally();
    await run(t, app, inputs, tally);
    t.comment(tally.summary(`hostile ${what}`));
    total.merge(tally);
  }
});

/** Mutations of a real plan-task string: truncations, bit flips, prefix swaps, garbage, huge. */
function mutations(task: string): { label: string; text: string }[] {
  const out: { label: string; text: string }[] = [];
  for (const n of [0, 1, 2, 3, 10, task.length >> 1, task.length - 44, task.length - 1]) out.push({ label: `truncated to ${n}`, text: task.slice(0, n) });
  for (let i = 0; i < task.length; i += Math.max(1, Math.floor(task.length / 40))) {
    const c = task.charCodeAt(i);
    out.push({ label: `bit flip at ${i}`, text: task.slice(0, i) + String.fromCharCode(c ^ 1) + task.slice(i + 1) });
  }
  const dot = task.lastIndexOf('.');
  out.push(
    { label: 'signature removed', text: task.slice(0, dot) },
    { label: 'signature emptied', text: `${task.slice(0, dot)}.` },
    { label: 'signature of another task', text: `${task.slice(0, dot)}.${'A'.repeat(task.length - dot - 1)}` },
    { label: 'the other plan-task format', text: `${task.startsWith('t1.') ? 't2' : 't1'}${task.slice(2)}` },
    { label: 'prefix t3', text: `t3${task.slice(2)}` },
    { label: 'prefix p1 (a plan id)', text: `p1${task.slice(2)}` },
    { label: 'no prefix', text: task.slice(3) },
    { label: 'doubled', text: task + task },
    { label: 'base64 garbage', text: `t1.${Buffer.from('garbage that is not deflate').toString('base64url')}` },
    { label: 'standard base64 alphabet', text: task.replace(/-/g, '+').replace(/_/g, '/') },
    { label: 'huge', text: `t1.${'A'.repeat(200000)}` },
    { label: 'unicode', text: `t1.${'é'.repeat(50)}` },
    { label: 'NUL', text: `t1.\u0000` },
  );
  return out;
}

t.test('mutated, forged and foreign plan tasks are 404 NoSuchPlanTask (or 400), never redeemed', async (t) => {
  const signed = appWith([demoCatalog()], { batchSize: 1, tokenSecret: SECRET });
  const unsigned = appWith([demoCatalog()], { batchSize: 1 });
  t.teardown(() => Promise.all([signed.close(), unsigned.close()]));
  const tally = new Tally();
  const tasksOf = async (app: FastifyInstance) => {
    const plan = parse((await post(app, `${TABLE}/plan`, {})).body);
    return plan['plan-tasks'] ?? [];
  };
  const signedTasks = await tasksOf(signed);
  const unsignedTasks = await tasksOf(unsigned);
  t.ok(signedTasks.length > 1 && unsignedTasks.length > 1, 'plans have several tasks');

  const attempt = async (app: FastifyInstance, label: string, text: string, url = `${TABLE}/tasks`, mayPass = false) => {
    const started = performance.now();
    const res = await within(BOUND_MS, label, post(app, url, { 'plan-task': text }));
    tally.add({ label, outcome: String(res.statusCode), ms: performance.now() - started });
    if (res.statusCode === 200 && !mayPass) t.fail(`${label}: a mutated plan task was redeemed`);
    else if (res.statusCode >= 500) t.fail(`${label}: ${res.statusCode} ${res.body.slice(0, 200)}`);
    else if (res.statusCode !== 200) {
      const problem = errorModelProblem(res.statusCode, res.body);
      if (problem) t.fail(`${label}: ${problem}`);
      if (res.statusCode !== 404 && res.statusCode !== 400) t.fail(`${label}: ${res.statusCode}`);
    }
  };
  for (const task of signedTasks.slice(0, 3)) for (const m of mutations(task)) await attempt(signed, `signed: ${m.label}`, m.text);
  // a bit flip inside an unsigned deflate stream may still inflate to a valid task: only 5xx and malformed answers fail there
  for (const m of mutations(unsignedTasks[0]!)) await attempt(unsigned, `unsigned: ${m.label}`, m.text, `${TABLE}/tasks`, true);
  // a real task redeemed under another table, or another catalog prefix
  for (const url of ['/v1/demo/namespaces/sales/tables/returns/tasks', '/v1/demo/namespaces/events/tables/clicks/tasks', '/v1/nope/namespaces/sales/tables/orders/tasks'])
    await attempt(signed, `foreign route ${url}`, signedTasks[0]!, url);
  // forged ranges on an unsigned task: repeated, overlapping, inverted, past the manifest, huge counts
  const real = decodePlanTask(unsignedTasks[0]!)!;
  const r = real.ranges[0]!;
  const forged: [string, object[]][] = [
    ['one range 5,000 times', Array.from({ length: 5000 }, () => r)],
    ['one range twice', [r, r]],
    ['overlapping ranges', [r, { ...r, start: r.start, end: r.end + 1 }]],
    ['past the end of the manifest', [{ ...r, start: r.start + 1000, end: r.end + 2000 }]],
    ['a huge end', [{ ...r, end: Number.MAX_SAFE_INTEGER }]],
    ['a foreign manifest', [{ ...r, manifest: 's3://icefront-demo/warehouse/sales/orders/metadata/nope.avro' }]],
    ['a manifest outside the warehouse', [{ ...r, manifest: 'file:///etc/passwd' }]],
    ['a lying block offset', [{ ...r, offset: 999999, length: 10 }]],
  ];
  for (const [label, ranges] of forged) {
    let text: string;
    try {
      text = encodePlanTask({ ...real, ranges } as typeof real);
    } catch {
      continue; // the codec itself refuses to write it
    }
    await attempt(unsigned, `forged: ${label}`, text, `${TABLE}/tasks`, label === 'a huge end');
  }
  t.comment(tally.summary('hostile plan tasks'));
  total.merge(tally);
});

t.test('raw framings (CR/LF, duplicate lengths, smuggling) get one ErrorModel answer or a closed socket', async (t) => {
  const app = appWith([demoCatalog()]);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  t.teardown(() => app.close());
  const tally = new Tally();
  for (const { label, bytes, lenient } of RAW_FRAMINGS) {
    const started = performance.now();
    const { answer } = await rawExchange(port, bytes);
    const ms = performance.now() - started;
    const { answers, status, problem } = readRawAnswer(answer);
    tally.add({ label, outcome: status === undefined ? 'no answer' : String(status), ms });
    t.ok(answers <= 1, `${label}: at most one answer (nothing smuggled), got ${answers}`);
    if (!lenient) t.ok(status !== undefined && status >= 400 && status < 500, `${label}: refused (${status ?? 'no answer'})`);
    if (status !== undefined && status >= 400) {
      t.notOk(problem, `${label}: ${status} ErrorModel ${problem ?? ''}`);
      t.ok(status < 500, `${label}: a client error, not ${status}`);
    }
  }
  t.equal((await app.inject({ url: '/healthz' })).statusCode, 200);
  t.comment(tally.summary('raw framings'));
  total.merge(tally);
});
