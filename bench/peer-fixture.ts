/**
 * The Iceberg REST fixture for bench/peer.ts: the same launcher and environment as
 * test/interop/harness/rest-fixture.ts (a temp warehouse, a SQLite catalog file, a free port on
 * 127.0.0.1), but with JVM options of the bench's choosing and the JVM's pid exposed, so its
 * memory can be read from /proc. Kept here so the interop harness stays as it is.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stopProcess, Tail } from '../test/interop/harness/processes.js';
import type { InteropEnv } from '../test/interop/harness/toolchain.js';

export interface BenchFixture {
  /** `http://127.0.0.1:<port>`; the fixture serves unprefixed `/v1/...`. */
  readonly url: string;
  readonly pid: number;
  log(): string;
  close(): Promise<void>;
}

/** The heap and collector a JVM started with `jvmOptions` gets (its -XX:+PrintFlagsFinal). */
export function jvmSettings(jvmOptions: readonly string[]): string {
  const out = execFileSync('java', [...jvmOptions, '-XX:+PrintFlagsFinal', '-version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  const flag = (name: string): string | undefined => new RegExp(`^\\s*\\S+\\s+${name}\\s+:?=\\s+(\\S+)`, 'm').exec(out)?.[1];
  const mib = (name: string): string => `${(Number(flag(name)) / 2 ** 20).toFixed(0)} MiB`;
  const gc = ['UseG1GC', 'UseParallelGC', 'UseSerialGC', 'UseZGC', 'UseShenandoahGC'].find((g) => flag(g) === 'true') ?? 'unknown GC';
  return `${jvmOptions.length ? jvmOptions.join(' ') : 'JVM defaults'}: max heap ${mib('MaxHeapSize')}, initial heap ${mib('InitialHeapSize')}, ${gc.replace(/^Use/, '')}`;
}

export async function startBenchFixture(env: InteropEnv, jvmOptions: readonly string[]): Promise<BenchFixture> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'icefront-bench-fixture-'));
  const warehouseDir = path.join(dir, 'warehouse');
  fs.mkdirSync(warehouseDir);
  // stdin stays an open pipe: the launcher exits when it closes, i.e. when this process dies.
  const child = spawn('java', [...jvmOptions, '-cp', env.fixtureClasspath.join(path.delimiter), env.fixtureMain, '--exit-on-stdin-eof'], {
    cwd: dir,
    stdio: ['pipe', 'pipe', 'pipe'],
    env: {
      ...process.env,
      CATALOG_WAREHOUSE: `file://${warehouseDir}`,
      CATALOG_URI: `jdbc:sqlite:${path.join(dir, 'catalog.db')}`,
      CATALOG_REST_PORT: '0',
    },
  });
  const out = new Tail();
  const err = new Tail();
  child.stderr.on('data', (c: Buffer) => err.push(c));
  const close = async (): Promise<void> => {
    await stopProcess(child);
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no LISTENING line within 60 s')), 60_000);
      child.stdout.on('data', (c: Buffer) => {
        out.push(c);
        const m = /^LISTENING 127\.0\.0\.1:(\d+)$/m.exec(out.toString());
        if (m) {
          clearTimeout(timer);
          resolve(Number(m[1]));
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`exited with ${code}`));
      });
      child.once('error', reject);
    });
    return { url: `http://127.0.0.1:${port}`, pid: child.pid!, log: () => err.toString(), close };
  } catch (e) {
    await close();
    throw new Error(`REST fixture did not start: ${(e as Error).message}\n${err.toString().slice(-3000)}`);
  }
}

/** `POST /v1/namespaces` then `POST /v1/namespaces/{ns}/register` (REST spec: registerTable). */
export async function registerTable(url: string, namespace: string, name: string, metadataLocation: string): Promise<void> {
  const post = async (route: string, body: unknown, ok: (status: number) => boolean): Promise<void> => {
    const res = await fetch(`${url}${route}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const text = await res.text();
    if (!ok(res.status)) throw new Error(`POST ${route}: ${res.status} ${text.slice(0, 500)}`);
  };
  await post('/v1/namespaces', { namespace: [namespace] }, (s) => s === 200 || s === 409);
  await post(`/v1/namespaces/${encodeURIComponent(namespace)}/register`, { name, 'metadata-location': metadataLocation }, (s) => s === 200);
}
