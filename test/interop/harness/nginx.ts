/**
 * Debian's nginx as the load balancer in front of several Icefronts, or as a TLS terminator in
 * front of one plain-HTTP server (an HTTPS upstream). tools/bench/setup.sh installs
 * it (idempotent: it does nothing when nginx is there); each balancer is a master that is not a
 * daemon, with its own prefix, pid file, logs and temp folders in a temp folder, on a free loopback
 * port, stopped by its pid with SIGTERM (the master then stops its workers; after a SIGKILL they
 * would live on, orphaned).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { stopProcess, Tail } from './processes.js';
import { run } from './toolchain.js';
import { freePort } from '../../helpers/free-port.js';

const REPO = path.resolve(import.meta.dirname, '../../..');
export const NGINX = '/usr/sbin/nginx';
const SETUP = path.join(REPO, 'tools/bench/setup.sh');

export type NginxInstall = { readonly ok: true; readonly version: string } | { readonly ok: false; readonly why: string };

/** Runs tools/bench/setup.sh (it also installs wrk, which is not needed here) and says whether nginx is now there. */
export async function ensureNginx(timeoutMs = 10 * 60_000): Promise<NginxInstall> {
  const setup = await run('bash', [SETUP], timeoutMs);
  if (!fs.existsSync(NGINX)) {
    const said = `${setup.stdout}${setup.stderr}`.trim().split('\n').slice(-5).join('\n');
    return { ok: false, why: `${NGINX} is missing and tools/bench/setup.sh (exit ${setup.code}) could not install it: ${said || 'no output'}` };
  }
  const version = (await run(NGINX, ['-v'], 10_000)).stderr.trim();
  return { ok: true, version };
}

export interface NginxBalancer {
  /** `http://127.0.0.1:<port>` (a TLS terminator's: `https://`): where clients reach it. */
  readonly url: string;
  readonly port: number;
  /** The nginx.conf it runs. */
  readonly config: string;
  /** One line per request: `METHOD URI STATUS upstream=<addr[, addr]> upstream_status=<status[, status]>` (a TLS terminator's: see startNginxTlsTerminator). */
  accessLog(): string[];
  errorLog(): string;
  close(): Promise<void>;
}

/**
 * The `upstream` and `location` blocks docs/deployment.md shows: round robin (nginx's default)
 * over the replicas, kept-alive HTTP/1.1 connections to them (nginx speaks HTTP/1.0 and closes
 * each connection unless told otherwise), and a request passed to the next replica only when it could not be sent to
 * the one chosen. nginx's `proxy_next_upstream error timeout` covers a refused or timed-out
 * connect, but a non-idempotent request (POST: /plan, /tasks, commits) that was already sent is
 * never passed on without the `non_idempotent` flag: when its replica dies before answering,
 * nginx answers 502 and the client retries. `resendTasks` adds the deployment doc's location
 * that sets that flag for `…/tasks` only (a plan-task redemption gives the same answer however
 * often it is sent). Each answer names the replicas tried in `X-Upstream-Addr` and their
 * statuses in `X-Upstream-Status` (nginx's `$upstream_addr`, `$upstream_status`: "a, b" when it
 * moved on).
 */
function balancerBlocks(listenPort: number, replicaPorts: readonly number[], options: { resendTasks?: boolean } = {}): string {
  const proxy = (nextUpstream: string) => `      proxy_pass http://icefront;
      proxy_next_upstream ${nextUpstream};
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Host $http_host;
      proxy_set_header X-Forwarded-Proto $scheme;
      add_header X-Upstream-Addr $upstream_addr always;
      add_header X-Upstream-Status $upstream_status always;`;
  const tasks = options.resendTasks ? `\n    location ~ /tasks$ {\n${proxy('error timeout non_idempotent')}\n    }` : '';
  return `  upstream icefront {
${replicaPorts.map((p) => `    server 127.0.0.1:${p};`).join('\n')}
    keepalive 32;
  }
  server {
    listen 127.0.0.1:${listenPort};
    location / {
${proxy('error timeout')}
    }${tasks}
  }`;
}

export async function startNginxBalancer(
  replicaPorts: readonly number[],
  options: { port?: number; resendTasks?: boolean; startTimeoutMs?: number } = {},
): Promise<NginxBalancer> {
  const port = options.port ?? (await freePort());
  return runNginx(
    port,
    'http',
    (file) => ({
      log: `  log_format replicas '$request_method $uri $status upstream=$upstream_addr upstream_status=$upstream_status';
  access_log ${file('access.log')} replicas;`,
      blocks: balancerBlocks(port, replicaPorts, { resendTasks: options.resendTasks ?? false }),
    }),
    options.startTimeoutMs ?? 30_000,
  );
}

/** PEM files of the certificate a TLS terminator serves (test/helpers/certificates.ts makes them). */
export interface TerminatorTls {
  /** The server certificate (PEM chain), for the names clients use (127.0.0.1). */
  readonly certFile: string;
  readonly keyFile: string;
}

/**
 * nginx as a TLS terminator in front of one plain-HTTP backend (`http://127.0.0.1:<port>`): a
 * `listen … ssl` server on a free loopback port serving `tls`'s certificate, `proxy_pass` to the
 * backend, the caller's Host passed on. Its `url` is `https://127.0.0.1:<port>`. The access log
 * has one line per request that got through the handshake: `METHOD URI STATUS ssl=<protocol>
 * upstream_status=<status>`; a handshake the client gave up on is in the error log (level info).
 */
export async function startNginxTlsTerminator(backend: string, tls: TerminatorTls, options: { port?: number; startTimeoutMs?: number } = {}): Promise<NginxBalancer> {
  const target = new URL(backend);
  if (target.protocol !== 'http:') throw new Error(`the TLS terminator's backend is plain http://, got ${backend}`);
  const port = options.port ?? (await freePort());
  return runNginx(
    port,
    'https',
    (file) => ({
      log: `  log_format tls '$request_method $uri $status ssl=$ssl_protocol upstream_status=$upstream_status';
  access_log ${file('access.log')} tls;`,
      blocks: `  client_max_body_size 64m;
  server {
    listen 127.0.0.1:${port} ssl;
    ssl_certificate ${tls.certFile};
    ssl_certificate_key ${tls.keyFile};
    location / {
      proxy_pass http://${target.host};
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-Proto $scheme;
    }
  }`,
    }),
    options.startTimeoutMs ?? 30_000,
  );
}

/**
 * One nginx master (not a daemon) in a temp prefix of its own, on 127.0.0.1:`port`; `http` gives
 * what goes inside `http { }` (given where the prefix's files are): the log lines, then (after
 * the temp paths) the blocks.
 */
async function runNginx(
  port: number,
  scheme: 'http' | 'https',
  http: (file: (name: string) => string) => { readonly log: string; readonly blocks: string },
  startTimeoutMs: number,
): Promise<NginxBalancer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'icefront-nginx-'));
  // started by root, nginx's workers run as another user: they must reach the temp folders
  fs.chmodSync(dir, 0o755);
  const file = (name: string) => path.join(dir, name);
  const body = http(file);
  const config = `worker_processes 1;
daemon off;
pid ${file('nginx.pid')};
error_log ${file('error.log')} info;
events { worker_connections 256; }
http {
${body.log}
  client_body_temp_path ${file('body')}; proxy_temp_path ${file('proxy')};
  fastcgi_temp_path ${file('fastcgi')}; uwsgi_temp_path ${file('uwsgi')}; scgi_temp_path ${file('scgi')};
${body.blocks}
}
`;
  fs.writeFileSync(file('nginx.conf'), config);
  const out = new Tail();
  // -e: the start-up error log too, before nginx has read the config that names it
  const child = spawn(NGINX, ['-p', dir, '-c', file('nginx.conf'), '-e', file('error.log')], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.on('data', (c: Buffer) => out.push(c));
  child.stderr!.on('data', (c: Buffer) => out.push(c));
  stopAtExit.add(child);
  child.once('exit', () => stopAtExit.delete(child));
  const read = (name: string) => (fs.existsSync(file(name)) ? fs.readFileSync(file(name), 'utf8') : '');
  const url = `${scheme}://127.0.0.1:${port}`;
  const close = async () => {
    await stopProcess(child);
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    await listening(child, port, startTimeoutMs);
  } catch (err) {
    const log = `${out.toString()}${read('error.log')}`;
    await close();
    throw new Error(`nginx did not start on ${url}: ${(err as Error).message}\n${log}`);
  }
  return {
    url,
    port,
    config,
    accessLog: () => read('access.log').split('\n').filter((l) => l !== ''),
    errorLog: () => read('error.log'),
    close,
  };
}

// A test that dies before its teardown must not leave a balancer behind.
const stopAtExit = new Set<ChildProcess>();
process.once('exit', () => {
  for (const c of stopAtExit) c.kill('SIGTERM');
});

/** Resolves once something accepts connections on 127.0.0.1:port; rejects if the child exits first. */
async function listening(child: ChildProcess, port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`nginx exited (${child.exitCode ?? child.signalCode})`);
    const open = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1', () => {
        s.destroy();
        resolve(true);
      });
      s.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`nothing listened within ${timeoutMs} ms`);
}


