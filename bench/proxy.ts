/**
 * Pass-through throughput and p99 latency (autocannon, GET table, 64 connections): an upstream
 * Icefront straight, through nginx `proxy_pass` (where nginx is installed), and through an
 * Icefront front door with the upstream as a `rest` catalog — all in this run, each server in its
 * own process. The figure that matters: front ÷ nginx throughput (target ≥ 0.9).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';

const REPO = path.resolve(import.meta.dirname, '..');
const SECONDS = Number(process.env.BENCH_PROXY_SECONDS ?? 5);
const CONNECTIONS = 64;

function startIcefront(config: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [path.join(REPO, 'bin/icefront.js'), 'serve', '--config', config, '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve({ url: m[1]!, child });
    });
    child.once('exit', (code) => reject(new Error(`icefront exited ${code}: ${out}`)));
  });
}

function nginxPath(): string | undefined {
  for (const p of ['/usr/sbin/nginx', '/usr/bin/nginx']) if (fs.existsSync(p)) return p;
  return undefined;
}

async function startNginx(bin: string, upstream: string, dir: string): Promise<{ url: string; stop: () => void }> {
  const port = 20000 + Math.floor(Math.random() * 20000);
  const conf = path.join(dir, 'nginx.conf');
  fs.writeFileSync(
    conf,
    `worker_processes 1; daemon off; pid ${dir}/nginx.pid; error_log ${dir}/error.log;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${dir}/body; proxy_temp_path ${dir}/proxy; fastcgi_temp_path ${dir}/fcgi; uwsgi_temp_path ${dir}/uwsgi; scgi_temp_path ${dir}/scgi;
  upstream icefront { server ${new URL(upstream).host}; keepalive 64; }
  server { listen 127.0.0.1:${port}; location / { proxy_pass http://icefront; proxy_http_version 1.1; proxy_set_header Connection ""; } }
}
`,
  );
  const child = spawn(bin, ['-c', conf, '-p', dir], { stdio: 'ignore' });
  await new Promise((r) => setTimeout(r, 500));
  return { url: `http://127.0.0.1:${port}`, stop: () => child.kill() };
}

async function load(url: string): Promise<{ rps: number; p99: number; errors: number }> {
  const r = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS });
  return { rps: r.requests.average, p99: r.latency.p99, errors: r.errors + r.non2xx };
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'icefront-proxy-bench-'));
const wh = path.join(REPO, 'fixtures/warehouse');
const upCfg = path.join(dir, 'up.yaml');
fs.writeFileSync(upCfg, `logging: { level: warn }\ncatalogs:\n  demo: { type: filesystem, warehouse: ${JSON.stringify(wh)}, locations: { "s3://icefront-demo/warehouse": ${JSON.stringify(wh)} } }\n`);
const upstream = await startIcefront(upCfg);
const frontCfg = path.join(dir, 'front.yaml');
fs.writeFileSync(frontCfg, `logging: { level: warn }\ncatalogs:\n  up: { type: rest, uri: ${JSON.stringify(upstream.url)}, warehouse: demo }\n`);
const front = await startIcefront(frontCfg);
const bin = nginxPath();
const nginx = bin ? await startNginx(bin, upstream.url, dir) : undefined;
try {
  const table = '/v1/demo/namespaces/sales/tables/orders';
  execFileSync('curl', ['-sf', '-o', '/dev/null', `${front.url}/v1/up/namespaces/sales/tables/orders`]);
  const direct = await load(upstream.url + table);
  const viaNginx = nginx ? await load(nginx.url + table) : undefined;
  const viaFront = await load(`${front.url}/v1/up/namespaces/sales/tables/orders`);
  const row = (label: string, r: { rps: number; p99: number; errors: number }) =>
    console.log(`  ${label.padEnd(22)} ${r.rps.toFixed(0).padStart(8)} req/s   p99 ${String(r.p99).padStart(4)} ms   errors ${r.errors}`);
  console.log(`pass-through: GET table, ${CONNECTIONS} connections, ${SECONDS} s each (2 cores shared by servers and load generator)`);
  row('upstream directly', direct);
  if (viaNginx) row('nginx proxy_pass', viaNginx);
  row('Icefront front door', viaFront);
  if (viaNginx) console.log(`  ratio Icefront ÷ nginx throughput: ${(viaFront.rps / viaNginx.rps).toFixed(2)}   (target >= 0.9)`);
  else console.log('  nginx not installed (Debian package nginx): no comparison');
} finally {
  nginx?.stop();
  front.child.kill();
  upstream.child.kill();
  fs.rmSync(dir, { recursive: true, force: true });
}
