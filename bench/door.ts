/**
 * The front door against its peers (issue #12), all measured in this run, each server in its own
 * process and the load generator (wrk) in its own:
 *   - a static upstream: nginx serving a load-table body and a /v1/config from files;
 *   - nginx `proxy_pass` to it (the peer proxy), the smallest http-proxy-3 proxy and the smallest
 *     undici proxy (bench/door-peers.ts): the floor of our own stack;
 *   - Icefront's front door to it (`type: rest`, `planning: upstream`): a load-table (Icefront's
 *     own call, read whole) and a namespace load (streamed by http-proxy-3 through the upstream's
 *     transport); Icefront's /healthz, and Icefront's load-table of its own filesystem table (demo
 *     `sales.orders`), one Icefront process;
 *   - the same upstream as a `bearer` catalog and as a `sigv4` catalog (issue #42), in alternating
 *     pairs: what signing every request with AWS Signature Version 4 costs.
 * Throughput: wrk, 64 connections, best of two runs; /healthz and load-table of one process, and
 * http-proxy-3 and the front door, each also in three alternating pairs (a ratio is the median of
 * the pairs' ratios). Added latency: bench/latency-probe.ts at 1,000 req/s, the median through
 * each proxy minus the upstream's own median measured just before it, in three alternating
 * pairs (the median of their differences).
 * Needs Debian's nginx and wrk (tools/bench/setup.sh); says so and stops when they are missing.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { median } from './median.js';
import { procCpuMs } from './proc-cpu.js';
import { freePort, waitFor, which } from './servers.js';

const REPO = path.resolve(import.meta.dirname, '..');
const SECONDS = Number(process.env.BENCH_DOOR_SECONDS ?? 5);
const CONNECTIONS = 64;
const TABLE = 'namespaces/sales/tables/orders';
const NAMESPACE = 'namespaces/bench';

const children: ChildProcess[] = [];
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'icefront-door-bench-'));
// nginx's workers run as another user when started by root: they must read the static files
fs.chmodSync(dir, 0o755);
function start(cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env): ChildProcess {
  const child = spawn(cmd, args, { stdio: ['ignore', 'ignore', 'inherit'], env });
  children.push(child);
  return child;
}
process.on('exit', () => {
  // SIGTERM: nginx's master stops its workers on it (after SIGKILL they would live on, orphaned)
  for (const c of children) c.kill('SIGTERM');
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Static AWS keys for the sigv4 catalog, and nothing else for AWS's chain to look up (no files, no metadata endpoint). */
const AWS_ENV = {
  AWS_ACCESS_KEY_ID: 'AKIDBENCHDOOR',
  AWS_SECRET_ACCESS_KEY: 'bench-door-secret',
  AWS_SHARED_CREDENTIALS_FILE: '/nonexistent',
  AWS_CONFIG_FILE: '/nonexistent',
  AWS_EC2_METADATA_DISABLED: 'true',
};

/** BENCH_DOOR_NODE_ARGS (space-separated): extra Node and V8 flags for Icefront's process only, to weigh a heap setting. */
const NODE_ARGS = (process.env.BENCH_DOOR_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);

function startIcefront(config: string, port: number): ChildProcess {
  return start(process.execPath, [...NODE_ARGS, path.join(REPO, 'bin/icefront.js'), 'serve', '--config', config, '--port', String(port)], { ...process.env, ...AWS_ENV });
}

interface Throughput {
  rps: number;
  p50: string;
  p99: string;
  /** CPU time the serving process spent per answered request, in µs (undefined: not measured). */
  cpuUs?: number;
}

/**
 * wrk against url, best of `times` runs. With `pid`, also the CPU that process spent per request:
 * unlike req/s, it hardly moves when something else takes the other core, so it shows what a
 * change to the proxy itself costs or saves.
 */
function wrk(url: string, times = 2, pid?: number): Throughput {
  const runs = Array.from({ length: times }, () => {
    const before = pid === undefined ? 0 : procCpuMs(pid);
    const out = execFileSync(which('wrk')!, ['-t1', `-c${CONNECTIONS}`, `-d${SECONDS}s`, '--latency', url], { encoding: 'utf8' });
    const requests = Number(/(\d+) requests in/.exec(out)?.[1] ?? 0);
    const cpuUs = pid === undefined || requests === 0 ? undefined : ((procCpuMs(pid) - before) * 1000) / requests;
    const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? 0);
    const errors = /Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1];
    if (errors) throw new Error(`${url}: ${errors} non-2xx answers`);
    return { rps, p50: /\s50%\s+(\S+)/.exec(out)?.[1] ?? '?', p99: /\s99%\s+(\S+)/.exec(out)?.[1] ?? '?', ...(cpuUs !== undefined && { cpuUs }) };
  });
  return runs.sort((a, b) => b.rps - a.rps)[0]!;
}

function probe(url: string): { p50: number; p99: number } {
  const out = execFileSync(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'latency-probe.ts'), url, '1000', String(SECONDS)], { encoding: 'utf8' });
  return JSON.parse(out.trim().split('\n').pop()!) as { p50: number; p99: number };
}

const nginx = which('nginx');
if (!nginx || !which('wrk')) {
  console.log('door: needs nginx and wrk from Debian\'s packages (bash tools/bench/setup.sh); skipped');
  process.exit(0);
}

// The bodies the static upstream serves: the demo table as Icefront loads it, and a config.
const icePort = await freePort();
const wh = path.join(REPO, 'fixtures/warehouse');
const [staticPort, nginxPort] = [await freePort(), await freePort()];
const staticDir = path.join(dir, 'static');
fs.mkdirSync(path.join(staticDir, 'v1/namespaces/sales/tables'), { recursive: true });
const iceCfg = path.join(dir, 'icefront.yaml');
fs.writeFileSync(
  iceCfg,
  `catalogs:\n  demo: { type: filesystem, read-only: true, warehouse: ${JSON.stringify(wh)}, locations: { "s3://icefront-demo/warehouse": ${JSON.stringify(wh)} } }\n  up: { type: rest, uri: "http://127.0.0.1:${staticPort}", planning: upstream }\n` +
    `  bearer: { type: rest, uri: "http://127.0.0.1:${staticPort}", planning: upstream, auth: { mode: bearer, token: bench-token } }\n` +
    `  signed: { type: rest, uri: "http://127.0.0.1:${staticPort}", planning: upstream, auth: { mode: sigv4, signing-name: glue, region: us-east-1 } }\n`,
);
const icefrontProcess = startIcefront(iceCfg, icePort);
const ice = `http://127.0.0.1:${icePort}`;
await waitFor(`${ice}/healthz`);
const body = await (await fetch(`${ice}/v1/demo/${TABLE}`)).text();
fs.writeFileSync(path.join(staticDir, 'v1', TABLE), body);
fs.writeFileSync(path.join(staticDir, 'v1', NAMESPACE), JSON.stringify({ namespace: ['bench'], properties: { owner: 'bench', location: 's3://icefront-demo/warehouse/bench' } }));
fs.writeFileSync(
  path.join(staticDir, 'v1/config'),
  JSON.stringify({ defaults: {}, overrides: {}, endpoints: ['GET /v1/{prefix}/namespaces', 'GET /v1/{prefix}/namespaces/{namespace}', 'GET /v1/{prefix}/namespaces/{namespace}/tables', 'GET /v1/{prefix}/namespaces/{namespace}/tables/{table}'] }),
);

const temp = (name: string) => path.join(dir, name);
fs.writeFileSync(
  temp('nginx.conf'),
  `worker_processes 1; daemon off; pid ${temp('nginx.pid')}; error_log ${temp('error.log')};
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path ${temp('body')}; proxy_temp_path ${temp('proxy')}; fastcgi_temp_path ${temp('fcgi')}; uwsgi_temp_path ${temp('uwsgi')}; scgi_temp_path ${temp('scgi')};
  keepalive_requests 1000000;
  server { listen 127.0.0.1:${staticPort}; root ${staticDir}; default_type application/json; location / { try_files $uri =404; } }
  upstream static { server 127.0.0.1:${staticPort}; keepalive 64; }
  server {
    listen 127.0.0.1:${nginxPort};
    location /v1/up/ {
      proxy_pass http://static/v1/; proxy_http_version 1.1; proxy_set_header Connection "";
      proxy_set_header X-Forwarded-For $remote_addr; proxy_set_header X-Forwarded-Proto $scheme; proxy_set_header X-Forwarded-Host $host;
    }
  }
}
`,
);
start(nginx, ['-c', temp('nginx.conf'), '-p', dir]);
const peers = path.join(import.meta.dirname, 'door-peers.ts');
const hp3Process = start(process.execPath, ['--import', 'tsx', peers, 'http-proxy-3', `http://127.0.0.1:${staticPort}`, temp('hp3.port')]);
const undiciProcess = start(process.execPath, ['--import', 'tsx', peers, 'undici', `http://127.0.0.1:${staticPort}`, temp('undici.port')]);
for (const f of ['hp3.port', 'undici.port']) for (let i = 0; i < 200 && !fs.existsSync(temp(f)); i++) await new Promise((r) => setTimeout(r, 50));
const hp3 = `http://127.0.0.1:${fs.readFileSync(temp('hp3.port'), 'utf8')}`;
const und = `http://127.0.0.1:${fs.readFileSync(temp('undici.port'), 'utf8')}`;

const paths = {
  upstream: `http://127.0.0.1:${staticPort}/v1/${TABLE}`,
  nginx: `http://127.0.0.1:${nginxPort}/v1/up/${TABLE}`,
  hp3: `${hp3}/v1/up/${TABLE}`,
  undici: `${und}/v1/up/${TABLE}`,
  door: `${ice}/v1/up/${TABLE}`,
  hp3Namespace: `${hp3}/v1/up/${NAMESPACE}`,
  doorNamespace: `${ice}/v1/up/${NAMESPACE}`,
  bearer: `${ice}/v1/bearer/${TABLE}`,
  signed: `${ice}/v1/signed/${TABLE}`,
  bearerNamespace: `${ice}/v1/bearer/${NAMESPACE}`,
  signedNamespace: `${ice}/v1/signed/${NAMESPACE}`,
  healthz: `${ice}/healthz`,
  loadTable: `${ice}/v1/demo/${TABLE}`,
};
for (const url of Object.values(paths)) await waitFor(url);

console.log(`door: ${os.cpus().length} cores shared by every server and the load generator; wrk -t1 -c${CONNECTIONS} -d${SECONDS}s, best of two; body ${body.length} bytes`);
const rows: Array<[string, keyof typeof paths, number | undefined]> = [
  ['upstream served directly (nginx static)', 'upstream', undefined],
  ['nginx proxy_pass', 'nginx', undefined],
  ['smallest http-proxy-3 proxy', 'hp3', hp3Process.pid],
  ['smallest undici proxy', 'undici', undiciProcess.pid],
  ['Icefront front door (rest, upstream)', 'door', icefrontProcess.pid],
];
const measured = new Map<keyof typeof paths, Throughput>();
const show = (label: string, r: Throughput) =>
  console.log(`  ${label.padEnd(42)} ${r.rps.toFixed(0).padStart(7)} req/s   p50 ${r.p50.padStart(8)}   p99 ${r.p99.padStart(8)}${r.cpuUs === undefined ? '' : `   ${r.cpuUs.toFixed(0).padStart(4)} µs CPU/req`}`);
for (const [label, key, pid] of rows) {
  const r = wrk(paths[key], 2, pid);
  measured.set(key, r);
  show(label, r);
}
// /healthz and load-table of one process, measured in alternating pairs (one after the other on
// a shared core, a single pair swings widely): the median of three pairs' ratios.
const pairs = [0, 1, 2].map(() => [wrk(paths.healthz, 1), wrk(paths.loadTable, 1)] as const);
const byRps = (a: Throughput, b: Throughput) => a.rps - b.rps;
measured.set('healthz', [...pairs.map((p) => p[0])].sort(byRps)[1]!);
measured.set('loadTable', [...pairs.map((p) => p[1])].sort(byRps)[1]!);
show('Icefront /healthz (median of 3)', measured.get('healthz')!);
show('Icefront load-table, warm (median of 3)', measured.get('loadTable')!);
const pairRatios = pairs.map(([h, l]) => l.rps / h.rps).sort((a, b) => a - b);
const ratio = (a: keyof typeof paths, b: keyof typeof paths) => (measured.get(a)!.rps / measured.get(b)!.rps).toFixed(2);
// The goal's ratio again, from three alternating pairs (http-proxy-3, then the door, one run
// each): this machine's speed drifts within a run (the same proxy's CPU per request moved by half
// between rows), and a pair measured back to back shares the drift that separate rows do not.
const doorPairs = [0, 1, 2].map(() => [wrk(paths.hp3, 1, hp3Process.pid), wrk(paths.door, 1, icefrontProcess.pid)] as const);
const doorRps = doorPairs.map(([h, d]) => d.rps / h.rps);
const doorCpu = doorPairs.map(([h, d]) => h.cpuUs! / d.cpuUs!);
console.log(`  ratio front door ÷ http-proxy-3 proxy       ${ratio('door', 'hp3')} in the rows above; ${median(doorRps).toFixed(2)} median of three alternating pairs (${doorRps.map((r) => r.toFixed(2)).join(', ')})   (goal >= 0.9)`);
console.log(`  ratio front door ÷ nginx proxy_pass         ${ratio('door', 'nginx')}`);
const cpu = (key: keyof typeof paths) => measured.get(key)!.cpuUs!;
console.log(
  `  CPU per request, http-proxy-3 ÷ front door  ${(cpu('hp3') / cpu('door')).toFixed(2)} in the rows above; ${median(doorCpu).toFixed(2)} median of the pairs (${doorCpu.map((r) => r.toFixed(2)).join(', ')})   (the throughput ratio the door would have on a quiet core)`,
);
// The streamed path (a namespace load passes through as bytes), against http-proxy-3 on the same path.
const streamPairs = [0, 1, 2].map(() => [wrk(paths.hp3Namespace, 1, hp3Process.pid), wrk(paths.doorNamespace, 1, icefrontProcess.pid)] as const);
const streamRps = streamPairs.map(([h, d]) => d.rps / h.rps);
const streamCpu = streamPairs.map(([h, d]) => h.cpuUs! / d.cpuUs!);
console.log(
  `  streamed (GET namespace): front door ÷ http-proxy-3 ${median(streamRps).toFixed(2)} req/s, CPU per request http-proxy-3 ÷ front door ${median(streamCpu).toFixed(2)} (medians of three alternating pairs: ${streamRps.map((r) => r.toFixed(2)).join(', ')}; ${streamCpu.map((r) => r.toFixed(2)).join(', ')})`,
);
// What signing costs: the same upstream as a bearer catalog and as a sigv4 one, alternating pairs,
// for Icefront's own call (load-table, read whole) and a streamed one (namespace).
for (const [label, bearerKey, signedKey] of [['load-table', 'bearer', 'signed'], ['streamed GET namespace', 'bearerNamespace', 'signedNamespace']] as const) {
  const signPairs = [0, 1, 2].map(() => [wrk(paths[bearerKey], 1, icefrontProcess.pid), wrk(paths[signedKey], 1, icefrontProcess.pid)] as const);
  const signRps = signPairs.map(([b, s]) => s.rps / b.rps);
  const signCpu = signPairs.map(([b, s]) => s.cpuUs! - b.cpuUs!);
  console.log(
    `  sigv4 ÷ bearer, ${label.padEnd(23)} ${median(signRps).toFixed(2)} req/s (pairs ${signRps.map((r) => r.toFixed(2)).join(', ')})   (goal >= 0.9); signing adds ${median(signCpu).toFixed(0)} µs CPU per request (${signCpu.map((c) => c.toFixed(0)).join(', ')})`,
  );
}
console.log(`  ratio load-table ÷ /healthz (one process)   ${median(pairRatios).toFixed(2)}   (goal >= 0.7; median of three alternating pairs: ${pairRatios.map((r) => r.toFixed(2)).join(', ')})`);

// Added latency from alternating pairs (the upstream served directly, then the path, one probe
// each), the median of three pairs' differences: one probe per row drifted with the machine by
// more than the goal between rows of the same run.
console.log("door: added median latency at 1,000 req/s (open loop, 16 connections): p50 over the upstream's own p50 measured just before, median of three alternating pairs");
for (const [label, key] of [['nginx proxy_pass', 'nginx'], ['smallest http-proxy-3 proxy', 'hp3'], ['Icefront front door', 'door']] as const) {
  const added: number[] = [];
  let p99 = 0;
  for (let i = 0; i < 3; i++) {
    const base = probe(paths.upstream);
    const l = probe(paths[key]);
    added.push(l.p50 - base.p50);
    p99 = Math.max(p99, l.p99);
  }
  const signed = (ms: number) => `${ms < 0 ? '' : '+'}${ms.toFixed(3)}`;
  const pairs = added.map(signed).join(', ');
  console.log(`  ${label.padEnd(42)} ${signed(median(added))} ms   (pairs ${pairs}; worst p99 ${p99.toFixed(2)} ms)${key === 'door' ? '   (goal <= 0.3 ms)' : ''}`);
}
process.exit(0);
