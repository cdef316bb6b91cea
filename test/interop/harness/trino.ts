/**
 * Trino 476 as a child process of a test file: tools/interop/trino.sh installs the server into the
 * user's cache (once per machine: an ~820 MB Maven tarball) and names a Java 24+; the server gets
 * its own etc/ in a temp folder (one coordinator that also works, on 127.0.0.1 and a free port,
 * `catalog.management=dynamic` with an in-memory catalog store, only the Iceberg plugin loaded)
 * and is ready when `GET /v1/info` says `"starting": false`. Catalogs are created by the client
 * (clients/trino_client.py: `CREATE CATALOG … USING iceberg`).
 *
 * Like harness/toolchain.ts: a missing prerequisite (Java 24+, or mvn for the first install) or a
 * failed install skips what needs Trino with a message naming it, except when `CI` is set: then it
 * fails. `ICEFRONT_INTEROP_TRINO=off` skips Trino outside CI.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Test } from 'tap';
import { stopProcess, Tail } from './processes.js';
import { REPO, runInstallScript } from './toolchain.js';
import { freePort } from '../../helpers/free-port.js';

export const TRINO_SCRIPT = path.join(REPO, 'tools/interop/trino.sh');

export interface TrinoInstall {
  /** The unpacked server (bin/launcher, lib/, plugin/). */
  readonly home: string;
  /** A JDK 24+ (Trino 476 refuses older ones); only Trino's launcher is pointed at it. */
  readonly javaHome: string;
  /** trino.sh's output (install or reuse time), for the test log. */
  readonly output: string;
}

export type TrinoInstallResult = ({ readonly ok: true } & TrinoInstall) | { readonly ok: false; readonly missing: string };

let memo: Promise<TrinoInstallResult> | undefined;

/** Runs trino.sh once per process (it is idempotent and `flock`ed across processes). */
export function ensureTrino(): Promise<TrinoInstallResult> {
  memo ??= install();
  return memo;
}

async function install(): Promise<TrinoInstallResult> {
  const ran = await runInstallScript(TRINO_SCRIPT, { offVar: 'ICEFRONT_INTEROP_TRINO', what: 'Trino', prefix: 'trino: missing ', timeoutMs: 20 * 60_000 });
  if (!ran.ok) return ran;
  const stdout = ran.stdout;
  const lines = stdout.trim().split('\n');
  const home = lines.at(-1)!.trim();
  const javaHome = /^java-home: (.+?) \(Java \d+\)$/m.exec(stdout)?.[1];
  if (!javaHome || !fs.existsSync(path.join(home, 'bin/launcher'))) return { ok: false, missing: `a usable Trino install (trino.sh printed:\n${stdout.trim()})` };
  return { ok: true, home, javaHome, output: stdout.trim() };
}

export interface TrinoServer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly pid: number;
  /** How long the server took to become ready, in ms. */
  readonly startMs: number;
  /** The server's log so far (the launcher writes it to stdout), for failure messages. */
  log(): string;
  close(): Promise<void>;
}

/**
 * Installs (trino.sh) and starts a Trino server for a test file, or returns undefined after
 * recording why not: a skip outside CI, a failure when `CI` is set. The caller stops it at
 * teardown (`close`).
 */
export async function startTrinoFor(t: Test, options: StartOptions = {}): Promise<TrinoServer | undefined> {
  const inst = await ensureTrino();
  if (!inst.ok) {
    const why = `Trino missing: ${inst.missing}`;
    if (process.env['CI']) t.fail(`${why} (CI is set, so this fails instead of skipping)`);
    else t.skip(why, () => {});
    return undefined;
  }
  for (const line of inst.output.split('\n')) t.comment(line);
  try {
    const server = await startTrino(inst, options);
    t.comment(`trino: server ready at ${server.url} in ${(server.startMs / 1000).toFixed(1)} s`);
    return server;
  } catch (e) {
    // Installed but not starting is a failure everywhere (what else the file tests still runs).
    t.fail((e as Error).message);
    return undefined;
  }
}

export interface StartOptions {
  /** The JVM's -Xmx (default 2G). */
  readonly heap?: string;
  /** Bounded wait for `starting: false` (default 240 s: ~25 s on an idle 2-core machine, more under load). */
  readonly startTimeoutMs?: number;
}

export async function startTrino(inst: TrinoInstall, options: StartOptions = {}): Promise<TrinoServer> {
  let last: Error | undefined;
  // The port is chosen free, then handed to Trino: another process may take it in between; then
  // Trino exits at bind and a second port is tried.
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await startOnce(inst, await freePort(), options);
    } catch (e) {
      last = e as Error;
      if (!/Address already in use|BindException/.test(last.message)) throw last;
    }
  }
  throw last!;
}

async function startOnce(inst: TrinoInstall, port: number, options: StartOptions): Promise<TrinoServer> {
  const started = Date.now();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'icefront-interop-trino-'));
  const etc = path.join(dir, 'etc');
  const data = path.join(dir, 'data');
  const plugins = path.join(dir, 'plugin');
  for (const d of [etc, data, plugins]) fs.mkdirSync(d);
  // Only the Iceberg connector: Trino loads every plugin folder at start (~60 in the tarball).
  fs.symlinkSync(path.join(inst.home, 'plugin/iceberg'), path.join(plugins, 'iceberg'));
  const url = `http://127.0.0.1:${port}`;
  const properties = (entries: Record<string, string>): string => Object.entries(entries).map(([k, v]) => `${k}=${v}\n`).join('');
  fs.writeFileSync(
    path.join(etc, 'node.properties'),
    properties({
      'node.environment': 'icefront_interop',
      'node.id': randomUUID(),
      'node.data-dir': data,
      'node.bind-ip': '127.0.0.1',
      'node.internal-address': '127.0.0.1',
    }),
  );
  fs.writeFileSync(
    path.join(etc, 'jvm.config'),
    [
      '-server',
      `-Xmx${options.heap ?? '2G'}`,
      '-XX:+UseG1GC',
      '-XX:+ExitOnOutOfMemoryError',
      '-XX:-OmitStackTraceInFastThrow',
      '-XX:ReservedCodeCacheSize=256M',
      '-Djdk.attach.allowAttachSelf=true',
      '-Dfile.encoding=UTF-8',
      '-XX:+EnableDynamicAgentLoading',
      '--enable-native-access=ALL-UNNAMED',
      '',
    ].join('\n'),
  );
  fs.writeFileSync(
    path.join(etc, 'config.properties'),
    properties({
      coordinator: 'true',
      'node-scheduler.include-coordinator': 'true',
      'http-server.http.port': String(port),
      'discovery.uri': url,
      'catalog.management': 'dynamic',
      'catalog.store': 'memory',
      'plugin.dir': plugins,
      'http-server.log.enabled': 'false',
    }),
  );
  const java = path.join(inst.javaHome, 'bin');
  // `launcher run` stays in the foreground and execs Java: the child's pid is the JVM's. JAVA_HOME
  // and PATH point it at Java 24+ for this process only (the suite's own Java stays 17).
  const child = spawn(path.join(inst.home, 'bin/launcher'), ['run', `--etc-dir=${etc}`, `--data-dir=${data}`], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, JAVA_HOME: inst.javaHome, PATH: `${java}${path.delimiter}${process.env['PATH'] ?? ''}` },
  });
  const log = new Tail(64_000);
  child.stdout.on('data', (c: Buffer) => log.push(c));
  child.stderr.on('data', (c: Buffer) => log.push(c));
  const close = async (): Promise<void> => {
    await stopProcess(child, 10_000);
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitReady(url, child, options.startTimeoutMs ?? 240_000);
  } catch (e) {
    await close();
    const tail = log.toString().split('\n').slice(-40).join('\n');
    throw new Error(`Trino did not start at ${url}: ${(e as Error).message}\nlast lines of its log:\n${tail}`);
  }
  return { url, pid: child.pid!, startMs: Date.now() - started, log: () => log.toString(), close };
}

/** Ready when `GET /v1/info` says `"starting": false`; fails early when the process exits. */
async function waitReady(url: string, child: ReturnType<typeof spawn>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exited: string | undefined;
  child.once('exit', (code, signal) => (exited = `exited with ${code ?? signal}`));
  let last = 'no answer yet';
  while (Date.now() < deadline) {
    if (exited) throw new Error(`the server ${exited}`);
    try {
      const res = await fetch(`${url}/v1/info`, { signal: AbortSignal.timeout(5000) });
      const body = (await res.json().catch(() => ({}))) as { starting?: boolean };
      if (res.status === 200 && body.starting === false) return;
      last = `status ${res.status}, starting: ${String(body.starting)}`;
    } catch (e) {
      last = (e as Error).message;
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`GET ${url}/v1/info did not say "starting": false within ${timeoutMs / 1000} s (${last})`);
}

