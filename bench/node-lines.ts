/**
 * `npm run bench:node-lines` (issue #39): what a newer Node.js line gives Icefront, measured in one
 * run on the official binaries of each line (tools/node/install.sh: 20, end of life and
 * unsupported, as the baseline; 22 and 24, the supported LTS lines), interleaved round by round so
 * that whatever else the machine does falls on every line alike:
 *   - planner: a cold unfiltered plan of the 100,000-file synthetic table in a fresh process
 *     (bench/plan-child.ts: Avro decoding, pruning, the delete index), milliseconds;
 *   - door: the built server (`bin/icefront.js`, dist/) on that line, wrk (1 thread, 64
 *     connections) against /healthz, a load-table of its own filesystem table (fastify and V8's
 *     JSON), and a load-table relayed from a `rest` upstream (undici's client, the body read and
 *     rewritten); the upstream is another Icefront, on Node 24 for every line. Requests per second.
 * Prints each line's medians and its ratio to Node 20's. Needs wrk (tools/bench/setup.sh) and a
 * build (`npm run build`).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { median } from './median.js';
import { ensureSyntheticTable } from './synthetic-table.js';
import { freePort, waitFor, which } from './servers.js';

const REPO = path.resolve(import.meta.dirname, '..');
const ROUNDS = Number(process.env.BENCH_RUNS ?? 3);
const SECONDS = Number(process.env.BENCH_DOOR_SECONDS ?? 5);
const LINES = ['20', '22', '24'] as const;
type Line = (typeof LINES)[number];

if (!which('wrk')) {
  console.log("node-lines: needs wrk from Debian's packages (bash tools/bench/setup.sh); skipped");
  process.exit(0);
}
if (!fs.existsSync(path.join(REPO, 'dist/cli.js'))) {
  console.log('node-lines: needs a build (npm run build); skipped');
  process.exit(0);
}

/** Each line's node binary, installed (once) into the user's cache. */
const nodes = Object.fromEntries(
  LINES.map((line) => [line, path.join(execFileSync('bash', [path.join(REPO, 'tools/node/install.sh'), line], { encoding: 'utf8' }).trim().split('\n').at(-1)!, 'node')]),
) as Record<Line, string>;
const versions = Object.fromEntries(LINES.map((line) => [line, execFileSync(nodes[line], ['--version'], { encoding: 'utf8' }).trim()])) as Record<Line, string>;

const children: ChildProcess[] = [];
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'icefront-node-lines-'));
process.on('exit', () => {
  for (const c of children) c.kill('SIGTERM');
  fs.rmSync(dir, { recursive: true, force: true });
});

/** `icefront serve` from dist/ on `node`, ready once /healthz answers. */
async function serve(node: string, config: string): Promise<{ base: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(node, [path.join(REPO, 'bin/icefront.js'), 'serve', '--config', config, '--port', String(port)], { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, NODE_OPTIONS: '' } });
  children.push(child);
  const base = `http://127.0.0.1:${port}`;
  await waitFor(`${base}/healthz`);
  return { base, child };
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** Requests per second from wrk against `url`. */
function wrk(url: string): number {
  const out = execFileSync(which('wrk')!, ['-t1', '-c64', `-d${SECONDS}s`, url], { encoding: 'utf8' });
  const errors = /Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1];
  if (errors) throw new Error(`${url}: ${errors} non-2xx answers`);
  return Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? 0);
}

/** A cold unfiltered plan in a fresh process on `node`, in ms (plan-child.ts, through tsx). */
function coldPlan(node: string, args: string[]): number {
  const out = execFileSync(node, ['--import', 'tsx', path.join(import.meta.dirname, 'plan-child.ts'), 'plan', ...args], { encoding: 'utf8', cwd: REPO, env: { ...process.env, NODE_OPTIONS: '' } });
  return (JSON.parse(out.trim().split('\n').pop()!) as { ms: number }).ms;
}

const table = ensureSyntheticTable({ manifests: 100, entriesPerManifest: 1000, columns: 20 });
const planArgs = [table.warehouse, table.namespace[0]!, table.name];
const wh = path.join(REPO, 'fixtures/warehouse');
const demo = `demo: { type: filesystem, read-only: true, warehouse: ${JSON.stringify(wh)}, locations: { "s3://icefront-demo/warehouse": ${JSON.stringify(wh)} } }`;
const upstreamConfig = path.join(dir, 'upstream.yaml');
fs.writeFileSync(upstreamConfig, `logging: { level: warn }\ncatalogs:\n  ${demo}\n`);
const upstream = await serve(nodes['24'], upstreamConfig);
const doorConfig = path.join(dir, 'door.yaml');
fs.writeFileSync(doorConfig, `logging: { level: warn }\ncatalogs:\n  ${demo}\n  up: { type: rest, uri: "${upstream.base}", warehouse: demo, planning: upstream }\n`);

interface Round {
  planMs: number;
  healthz: number;
  loadTable: number;
  relayed: number;
}
const rounds: Record<Line, Round[]> = { '20': [], '22': [], '24': [] };
for (let round = 0; round < ROUNDS; round++) {
  for (const line of LINES) {
    const planMs = coldPlan(nodes[line], planArgs);
    const door = await serve(nodes[line], doorConfig);
    const healthz = wrk(`${door.base}/healthz`);
    const loadTable = wrk(`${door.base}/v1/demo/namespaces/sales/tables/orders`);
    const relayed = wrk(`${door.base}/v1/up/namespaces/sales/tables/orders`);
    await stop(door.child);
    rounds[line].push({ planMs, healthz, loadTable, relayed });
  }
}

const med = (line: Line, key: keyof Round) => median(rounds[line].map((r) => r[key]));
const rows: Array<[string, keyof Round, string, boolean]> = [
  ['cold plan, 100,000 files', 'planMs', 'ms', false],
  ['/healthz', 'healthz', 'req/s', true],
  ['load-table, filesystem', 'loadTable', 'req/s', true],
  ['load-table, relayed', 'relayed', 'req/s', true],
];
console.log(`node lines: ${LINES.map((l) => versions[l]).join(', ')}; medians of ${ROUNDS} interleaved rounds, wrk ${SECONDS} s at 64 connections`);
for (const [label, key, unit, higherIsBetter] of rows) {
  const base = med('20', key);
  const cells = LINES.map((line) => {
    const value = med(line, key);
    const ratio = line === '20' ? '' : ` (${(value / base).toFixed(2)}× 20's${higherIsBetter ? '' : ' time'})`;
    return `${line}: ${value.toFixed(0)} ${unit}${ratio}`;
  });
  console.log(`  ${label.padEnd(26)} ${cells.join('   ')}`);
}
