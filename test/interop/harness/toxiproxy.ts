/**
 * Toxiproxy (the Go module github.com/Shopify/toxiproxy/v2, built by tools/interop/toxiproxy.sh
 * into the user's cache) as a child process on loopback: proxies created, taken down (the upstream
 * unreachable: the listener closed, its connections cut) and up again, and toxics added, through
 * its HTTP API (toxiproxy README, "HTTP API").
 *
 * Like harness/iceberg-go.ts: no `go` or a failed build skips with a message naming it, except
 * when `CI` is set: then it fails. `ICEFRONT_INTEROP_TOXIPROXY=off` skips outside CI.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import type { Test } from 'tap';
import { freePort } from '../../helpers/free-port.js';
import { stopProcess, Tail } from './processes.js';
import { REPO, runInstallScript } from './toolchain.js';

export const TOXIPROXY_SCRIPT = path.join(REPO, 'tools/interop/toxiproxy.sh');

/** A toxic as the API takes it (`type`: latency, bandwidth, timeout, reset_peer, slow_close, slicer, limit_data). */
export interface Toxic {
  readonly name: string;
  readonly type: string;
  /** `downstream` (upstream → client, the default) or `upstream`. */
  readonly stream?: 'upstream' | 'downstream';
  readonly attributes: Readonly<Record<string, number>>;
}

export interface ToxiProxy {
  /** `http://127.0.0.1:<port>`: where clients reach the upstream through the proxy. */
  readonly url: string;
  /**
   * Down: the proxy deleted (its listener closed, every connection cut, its toxics gone), so the
   * upstream's address refuses connections; up: made again on the same address, with no toxic.
   * (Deleting rather than disabling: removing a latency toxic waits on the data it holds, up to
   * toxiproxy's own 15 s API timeout.)
   */
  down(): Promise<void>;
  up(): Promise<void>;
  addToxic(toxic: Toxic): Promise<void>;
}

export interface Toxiproxy {
  /** A proxy named `name` on a free loopback port, forwarding to `upstream` (`host:port`). */
  proxy(name: string, upstream: string): Promise<ToxiProxy>;
  log(): string;
  close(): Promise<void>;
}

let memo: Promise<{ ok: true; binary: string } | { ok: false; missing: string }> | undefined;

/** The server's binary for a test file, or undefined after recording why not (a skip, or a failure in CI). */
export async function toxiproxyFor(t: Test): Promise<string | undefined> {
  memo ??= runInstallScript(TOXIPROXY_SCRIPT, { offVar: 'ICEFRONT_INTEROP_TOXIPROXY', what: 'Toxiproxy', prefix: 'toxiproxy: missing ', timeoutMs: 20 * 60_000 }).then((ran) =>
    ran.ok ? { ok: true as const, binary: ran.stdout.trim().split('\n').at(-1)!.trim() } : ran,
  );
  const built = await memo;
  if (built.ok) return built.binary;
  const why = `Toxiproxy missing: ${built.missing}`;
  if (process.env['CI']) t.fail(`${why} (CI is set, so this fails instead of skipping)`);
  else t.skip(why, () => {});
  return undefined;
}

export async function startToxiproxy(binary: string): Promise<Toxiproxy> {
  const port = await freePort();
  const child = spawn(binary, ['-host', '127.0.0.1', '-port', String(port)], { stdio: ['ignore', 'pipe', 'pipe'] });
  const out = new Tail();
  child.stdout.on('data', (c: Buffer) => out.push(c));
  child.stderr.on('data', (c: Buffer) => out.push(c));
  const api = `http://127.0.0.1:${port}`;
  const call = async (method: string, route: string, body?: unknown): Promise<unknown> => {
    const res = await fetch(`${api}${route}`, { method, ...(body !== undefined && { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }) });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`toxiproxy ${method} ${route}: ${res.status} ${text}`);
    return text === '' ? undefined : (JSON.parse(text) as unknown);
  };
  for (let i = 0; ; i++) {
    try {
      await call('GET', '/version');
      break;
    } catch (err) {
      if (child.exitCode !== null || i > 200) throw new Error(`toxiproxy did not start (${(err as Error).message}):\n${out.toString()}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return {
    async proxy(name, upstream) {
      const listen = `127.0.0.1:${await freePort()}`;
      const up = async () => void (await call('POST', '/proxies', { name, listen, upstream, enabled: true }));
      await up();
      return {
        url: `http://${listen}`,
        down: async () => void (await call('DELETE', `/proxies/${name}`)),
        up,
        addToxic: async (toxic) => void (await call('POST', `/proxies/${name}/toxics`, { stream: 'downstream', toxicity: 1, ...toxic })),
      };
    },
    log: () => out.toString(),
    close: () => stopProcess(child),
  };
}
