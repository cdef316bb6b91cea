/**
 * deploy/compose: three Icefront replicas behind nginx (compose.yaml, nginx.conf, config.yaml).
 *
 * Neither `docker compose` nor `podman compose` is available here (podman 4.3 has no compose, and
 * nothing may be downloaded), so: the files are read with the yaml package and checked against
 * docs/deployment.md (three identical replicas, one shared token secret, only nginx published,
 * health checks, a stop grace above the drain, an upstream listing exactly the replicas); nginx
 * itself checks nginx.conf (`nginx -t`, Debian's nginx, installed by tools/bench/setup.sh); and the
 * replicas are run as compose.yaml describes them (its environment, volumes and settings, with
 * podman and the image tools/deploy/build-image.sh builds), behind Debian's nginx running this
 * nginx.conf: a plan made through nginx is fetched again through it, landing on every replica,
 * which answers only when all three share the key. Outside CI a missing prerequisite skips with a
 * message, with `CI` set it fails.
 */
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t, { type Test } from 'tap';
import { parse as parseYaml } from 'yaml';
import { parseConfig } from '../../src/config/index.js';
import { DEFAULT_SHUTDOWN_GRACE_MS } from '../../src/main.js';
import { buildImage, eventually, missingPrerequisite, REPO, run, tail } from './helpers.js';
import { freePort } from '../helpers/free-port.js';

t.setTimeout(20 * 60_000);

const DIR = path.join(REPO, 'deploy/compose');
const composeText = fs.readFileSync(path.join(DIR, 'compose.yaml'), 'utf8');
const nginxText = fs.readFileSync(path.join(DIR, 'nginx.conf'), 'utf8');
const NGINX = '/usr/sbin/nginx';
const TAG = 'icefront:test';

interface Service {
  image?: string;
  environment?: Record<string, string>;
  volumes?: string[];
  ports?: string[];
  expose?: string[];
  read_only?: boolean;
  tmpfs?: string[];
  cap_drop?: string[];
  security_opt?: string[];
  stop_grace_period?: string;
  healthcheck?: { test?: string[]; interval?: string };
  depends_on?: Record<string, { condition?: string }>;
}
const compose = parseYaml(composeText, { merge: true }) as { services: Record<string, Service> };
const replicaNames = Object.keys(compose.services)
  .filter((name) => name.startsWith('icefront'))
  .sort();
const replicas = replicaNames.map((name) => compose.services[name]!);
const nginxService = compose.services['nginx'];

/** Compose's interpolation: `${VAR}`, `${VAR:-default}`, `${VAR-default}`, `${VAR:?error}`, `$$`. */
function interpolate(text: string, env: Record<string, string | undefined>): string {
  return text.replace(/\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])([^}]*))?\}/g, (whole, name: string | undefined, op: string | undefined, arg: string | undefined) => {
    if (whole === '$$') return '$';
    const value = env[name!];
    const unset = op?.startsWith(':') ? !value : value === undefined;
    if (op?.endsWith('?') && unset) throw new Error(`${name}: ${arg}`);
    if (op?.endsWith('-') && unset) return arg ?? '';
    return value ?? '';
  });
}

/** Compose's durations ("20s", "1m30s"), in milliseconds. */
function durationMs(text: string): number {
  const units: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  let total = 0;
  for (const [, n, u] of text.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)) total += Number(n) * units[u!]!;
  return total;
}

/** The `upstream icefront { … }` servers of nginx.conf, and the rest of it. */
const upstreamBlock = /upstream\s+icefront\s*\{([^}]*)\}/.exec(nginxText)?.[1] ?? '';
const upstreamServers = [...upstreamBlock.matchAll(/^\s*server\s+([^\s;]+)/gm)].map((m) => m[1]!);

t.test('compose.yaml: three identical replicas sharing one secret, config and warehouse, behind nginx', async (t) => {
  t.equal(replicas.length, 3, `three replicas (${replicaNames.join(', ')})`);
  for (const r of replicas.slice(1)) t.same(r, replicas[0], 'every replica has the same settings');
  const r = replicas[0]!;
  t.equal(r.environment?.['ICEFRONT_TOKEN_SECRET']?.startsWith('${ICEFRONT_TOKEN_SECRET:?'), true, 'ICEFRONT_TOKEN_SECRET from one variable, required (`:?`): compose refuses to start without it');
  t.throws(() => interpolate(r.environment!['ICEFRONT_TOKEN_SECRET']!, {}), /ICEFRONT_TOKEN_SECRET/, 'unset, interpolation fails naming it');
  t.equal(interpolate(r.environment!['ICEFRONT_TOKEN_SECRET']!, { ICEFRONT_TOKEN_SECRET: 'k'.repeat(20) }), 'k'.repeat(20));
  t.ok(r.volumes?.some((v) => v.endsWith(':/etc/icefront/config.yaml:ro')), 'the config file mounted read-only where the image reads it');
  t.ok(r.volumes?.some((v) => v.endsWith(':/var/lib/icefront/warehouse:ro')), 'the warehouse folder shared read-only');
  t.notOk(r.ports, 'replicas publish no port: only nginx reaches them');
  t.same(r.expose, ['8181']);
  t.equal(r.read_only, true, 'read-only root filesystem');
  t.same(r.cap_drop, ['ALL']);
  t.match(r.healthcheck?.test?.join(' ') ?? '', /^CMD node -e .*http:\/\/127\.0\.0\.1:8181\/healthz/, 'a health check on /healthz (node: no curl in the image)');
  const stopMs = durationMs(r.stop_grace_period ?? '10s');
  t.ok(stopMs > DEFAULT_SHUTDOWN_GRACE_MS + 2_000, `stop_grace_period (${stopMs} ms) exceeds the drain (${DEFAULT_SHUTDOWN_GRACE_MS} ms) + 2 s`);

  t.ok(nginxService, 'an nginx service');
  t.same(Object.keys(nginxService?.depends_on ?? {}).sort(), replicaNames, 'nginx waits for every replica');
  for (const name of replicaNames) t.equal(nginxService?.depends_on?.[name]?.condition, 'service_healthy', `until ${name} is healthy`);
  t.ok(nginxService?.volumes?.some((v) => v.startsWith('./nginx.conf:')), 'nginx runs ./nginx.conf');
  const published = (nginxService?.ports ?? []).map((p) => interpolate(p, {}));
  t.same(published, ['8181:8181'], 'nginx is published on 8181 by default');
  t.match(nginxText, /^\s*listen 8181;/m, 'and listens there');

  // The default config file is valid for Icefront and takes the key from the environment.
  const configVolume = r.volumes!.find((v) => v.endsWith(':/etc/icefront/config.yaml:ro'))!;
  const configFile = path.resolve(DIR, interpolate(configVolume, {}).split(':')[0]!);
  const key = crypto.randomBytes(18).toString('base64url');
  const config = parseConfig(fs.readFileSync(configFile, 'utf8'), '/etc/icefront/config.yaml', { ICEFRONT_TOKEN_SECRET: key, ICEFRONT_PUBLIC_URL: 'http://localhost:8181' });
  t.equal(config.planning.tokenSecret, key, 'config.yaml signs with ICEFRONT_TOKEN_SECRET');
  t.equal(config.server.publicUrl, 'http://localhost:8181', "server.public-url is nginx's URL");
});

t.test('nginx.conf: the upstream lists exactly the replicas, with the settings docs/deployment.md recommends', async (t) => {
  t.same(upstreamServers.sort(), replicaNames.map((name) => `${name}:8181`), 'one server line per replica');
  const root = /location \/ \{([^}]*)\}/.exec(nginxText)?.[1] ?? '';
  t.match(root, /proxy_pass http:\/\/icefront;/);
  t.match(root, /proxy_next_upstream error timeout;/, 'location /: a request moves on only while it could not be sent');
  t.notMatch(root, /non_idempotent/, 'a POST already sent (a commit) is never resent');
  for (const header of ['Host $http_host', 'X-Forwarded-For $proxy_add_x_forwarded_for', 'X-Forwarded-Host $http_host', 'X-Forwarded-Proto $scheme'])
    t.ok(root.includes(`proxy_set_header ${header};`), `proxy_set_header ${header}`);
  const tasks = /location ~ \/tasks\$ \{([^}]*)\}/.exec(nginxText)?.[1] ?? '';
  t.match(tasks, /proxy_next_upstream error timeout non_idempotent;/, '/tasks may be resent (the same answer however often)');
  // RFC 9112 §6.3: over nginx's default HTTP/1.0 a cut body would look whole to nginx
  for (const [name, block] of [['location /', root], ['location ~ /tasks$', tasks]] as const) {
    t.match(block, /proxy_http_version 1\.1;/, `${name}: HTTP/1.1 to the replicas`);
    t.match(block, /proxy_set_header Connection "";/, `${name}: no Connection: close, so connections are kept`);
  }
  t.match(upstreamBlock, /^\s*keepalive \d+;/m, 'connections to the replicas kept open');
  t.notMatch(nginxText, /^\s*(ip_hash|hash|sticky)\b/m, 'no affinity: not needed (docs/deployment.md)');
});


/** nginx.conf inside a whole configuration Debian's nginx can run, the replicas at `addresses`. */
function runnableNginx(dir: string, listen: number, addresses: Record<string, string>): string {
  let blocks = nginxText.replace(/^(\s*)listen 8181;/m, `$1listen 127.0.0.1:${listen};`);
  for (const [name, address] of Object.entries(addresses)) blocks = blocks.replace(new RegExp(`server ${name}:8181\\b`), `server ${address}`);
  const file = (name: string) => path.join(dir, name);
  return `worker_processes 1;
daemon off;
pid ${file('nginx.pid')};
error_log ${file('error.log')} info;
events { worker_connections 256; }
http {
  access_log ${file('access.log')};
  client_body_temp_path ${file('body')}; proxy_temp_path ${file('proxy')};
  fastcgi_temp_path ${file('fastcgi')}; uwsgi_temp_path ${file('uwsgi')}; scgi_temp_path ${file('scgi')};
${blocks}
}
`;
}

async function ensureNginx(t: Test): Promise<boolean> {
  if (!fs.existsSync(NGINX)) await run('bash', [path.join(REPO, 'tools/bench/setup.sh')], { timeoutMs: 10 * 60_000 });
  if (fs.existsSync(NGINX)) return true;
  missingPrerequisite(t, `compose test: missing ${NGINX} (Debian's nginx; tools/bench/setup.sh could not install it)`);
  return false;
}

t.test('nginx -t accepts nginx.conf', async (t) => {
  if (!(await ensureNginx(t))) return;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'icefront-compose-nginx-'));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  const addresses = Object.fromEntries(replicaNames.map((name, i) => [name, `127.0.0.1:${18_000 + i}`]));
  fs.writeFileSync(path.join(dir, 'nginx.conf'), runnableNginx(dir, 18_100, addresses));
  const test = await run(NGINX, ['-t', '-p', dir, '-c', path.join(dir, 'nginx.conf'), '-e', path.join(dir, 'error.log')]);
  t.equal(test.code, 0, `nginx -t${test.code === 0 ? '' : `:\n${test.stderr}`}`);
  t.match(test.stderr, /syntax is ok/);
});

t.test('the replicas as compose.yaml runs them, behind nginx.conf: every replica answers for a plan made on another', async (t) => {
  const built = await buildImage(TAG);
  if (built.missing) return missingPrerequisite(t, `compose test: missing ${built.missing}`);
  if (built.failed || !built.flags) return t.fail(built.failed ?? 'no flags');
  if (!(await ensureNginx(t))) return;

  // compose.yaml's defaults, but for the image (the one just built) and the key (a fresh one)
  const env: Record<string, string | undefined> = { ICEFRONT_TOKEN_SECRET: crypto.randomBytes(24).toString('base64url'), ICEFRONT_IMAGE: TAG };
  const suffix = `${process.pid}-${crypto.randomBytes(3).toString('hex')}`;
  const addresses: Record<string, string> = {};
  const names: string[] = [];
  t.teardown(async () => {
    for (const name of names) await run('podman', ['rm', '--force', '--time', '0', name]);
  });
  for (const service of replicaNames) {
    const spec = compose.services[service]!;
    const name = `${service}-${suffix}`;
    names.push(name);
    const args = ['run', '--detach', '--name', name, ...built.flags, '-p', '127.0.0.1::8181'];
    for (const [k, v] of Object.entries(spec.environment ?? {})) args.push('--env', `${k}=${interpolate(v, env)}`);
    for (const volume of spec.volumes ?? []) {
      const [host, ...rest] = interpolate(volume, env).split(':');
      args.push('-v', [path.resolve(DIR, host!), ...rest].join(':'));
    }
    if (spec.read_only) args.push('--read-only');
    for (const dir of spec.tmpfs ?? []) args.push('--tmpfs', dir);
    for (const cap of spec.cap_drop ?? []) args.push(`--cap-drop=${cap}`);
    for (const opt of spec.security_opt ?? []) args.push(`--security-opt=${opt.replace(':true', '')}`);
    args.push(interpolate(spec.image!, env));
    const started = await run('podman', args, { timeoutMs: 120_000 });
    if (started.code !== 0) return t.fail(`podman ${args.join(' ')}:\n${tail(started.stderr)}`);
    const port = await run('podman', ['port', name, '8181/tcp']);
    addresses[service] = port.stdout.trim().split('\n')[0]!;
  }
  const logs = async (name: string) => {
    const res = await run('podman', ['logs', name]);
    return res.stdout + res.stderr;
  };
  for (const [service, address] of Object.entries(addresses)) {
    const name = `${service}-${suffix}`;
    try {
      await eventually(`${name} answers /healthz`, async () => (await fetch(`http://${address}/healthz`)).status === 200, 60_000);
    } catch (err) {
      return t.fail(`${(err as Error).message}:\n${tail(await logs(name))}`);
    }
  }

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'icefront-compose-'));
  fs.chmodSync(dir, 0o755);
  const listen = await freePort();
  fs.writeFileSync(path.join(dir, 'nginx.conf'), runnableNginx(dir, listen, addresses));
  const nginx = spawn(NGINX, ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-e', path.join(dir, 'error.log')], { stdio: 'ignore' });
  const nginxExited = new Promise((resolve) => nginx.once('exit', resolve));
  t.teardown(async () => {
    if (nginx.exitCode === null) {
      nginx.kill('SIGTERM');
      await nginxExited;
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const balancer = `http://127.0.0.1:${listen}`;
  try {
    await eventually('nginx answers', async () => (await fetch(`${balancer}/healthz`)).status === 200, 30_000);
  } catch (err) {
    const log = fs.existsSync(path.join(dir, 'error.log')) ? fs.readFileSync(path.join(dir, 'error.log'), 'utf8') : '';
    return t.fail(`${(err as Error).message}:\n${tail(log)}`);
  }

  const table = `${balancer}/v1/demo/namespaces/sales/tables/orders`;
  const load = await fetch(table);
  t.equal(load.status, 200, 'load-table through nginx');
  const plan = await fetch(`${table}/plan`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  t.equal(plan.status, 200, 'POST …/plan through nginx');
  const planId = ((await plan.json()) as { 'plan-id': string })['plan-id'];
  t.match(planId, /^p1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/, 'a signed plan id');
  // Round robin: six fetches of the plan land twice on each replica; each answers only if it
  // checks the id with the same key as the replica that issued it.
  for (let i = 0; i < 6; i++) {
    const res = await fetch(`${table}/plan/${encodeURIComponent(planId)}`);
    t.equal(res.status, 200, `GET …/plan/{plan-id} #${i + 1} through nginx`);
    t.equal(((await res.json()) as { status: string }).status, 'completed');
  }
  for (const service of replicaNames) {
    const name = `${service}-${suffix}`;
    const served = async () => (await logs(name)).split('\n').filter((line) => /"operation":"plan-result"/.test(line) && /"status":200\b/.test(line)).length;
    await eventually(`${name} logs a plan-result`, async () => (await served()) > 0, 5_000).catch(() => undefined);
    t.ok((await served()) > 0, `${service} answered GET …/plan/{plan-id} with 200 (audit log)`);
  }
});
