/**
 * Rustberg 0.3.0 (a Rust Iceberg REST catalog from crates.io) as a second, independent upstream:
 * tools/interop/rustberg.sh builds it into the user's cache once per machine (a long build: CI
 * starts it in the background first, and this waits on the script's lock) and prints the binary.
 * It runs with a `file://` warehouse and an embedded catalog file in a temp folder, in `--dev`
 * mode over plain HTTP on loopback, with authentication on (and its per-address rate limit off):
 * with no key configured it mints an admin API key and prints it in its log; it accepts that key
 * as `X-API-Key` or as a bearer token.
 *
 * Like harness/iceberg-go.ts: no `cargo` or a failed build skips with a message naming it,
 * except when `CI` is set: then it fails. `ICEFRONT_INTEROP_RUSTBERG=off` skips it outside CI.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Test } from 'tap';
import { freePort } from '../../helpers/free-port.js';
import { stopProcess, Tail } from './processes.js';
import { REPO, runInstallScript } from './toolchain.js';

export const RUSTBERG_SCRIPT = path.join(REPO, 'tools/interop/rustberg.sh');

export interface Rustberg {
  /** `http://127.0.0.1:<port>`: Rustberg serves unprefixed `/v1/...`. */
  readonly url: string;
  /** The admin key it minted: `Authorization: Bearer <key>` (or `X-API-Key`). */
  readonly apiKey: string;
  /** The warehouse folder (its `file://` URI is Rustberg's warehouse). */
  readonly warehouseDir: string;
  /** Its log so far, colours stripped, for failure messages. */
  log(): string;
  close(): Promise<void>;
}

/**
 * A running Rustberg for a test file, or undefined after recording why not: a skip outside CI, a
 * failure when `CI` is set. Waits for a build another process started (the script's lock).
 */
export async function startRustbergFor(t: Test): Promise<Rustberg | undefined> {
  const built = await runInstallScript(RUSTBERG_SCRIPT, { offVar: 'ICEFRONT_INTEROP_RUSTBERG', what: 'Rustberg', prefix: 'rustberg: missing ', timeoutMs: 55 * 60_000 });
  if (!built.ok) {
    const why = `Rustberg missing: ${built.missing}`;
    if (process.env['CI']) t.fail(`${why} (CI is set, so this fails instead of skipping)`);
    else t.skip(why, () => {});
    return undefined;
  }
  return startRustberg(built.stdout.trim().split('\n').at(-1)!.trim());
}

// ANSI colour codes around its log's words
// eslint-disable-next-line no-control-regex
const ANSI = /\x1b\[[0-9;]*m/g;

export async function startRustberg(binary: string, startTimeoutMs = 30_000): Promise<Rustberg> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'icefront-interop-rustberg-'));
  const warehouseDir = path.join(dir, 'warehouse');
  fs.mkdirSync(warehouseDir);
  const port = await freePort();
  // Its default limit is 1,000 requests a minute per client address: every client here comes
  // through one address (Icefront's), and a suite's reads pass that.
  const config = path.join(dir, 'rustberg.toml');
  fs.writeFileSync(config, '[rate_limit]\nenabled = false\n');
  const args = ['--config', config, '--dev', '--insecure-http', '--host', '127.0.0.1', '--port', String(port), '--warehouse', `file://${warehouseDir}`, '--catalog-url', `file://${path.join(dir, 'catalog')}`];
  const child = spawn(binary, args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
  const out = new Tail(64_000);
  child.stdout.on('data', (c: Buffer) => out.push(c));
  child.stderr.on('data', (c: Buffer) => out.push(c));
  const log = () => out.toString().replace(ANSI, '');
  const close = async () => {
    await stopProcess(child);
    fs.rmSync(dir, { recursive: true, force: true });
  };
  const url = `http://127.0.0.1:${port}`;
  try {
    const deadline = Date.now() + startTimeoutMs;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`Rustberg exited with ${child.exitCode}`);
      const apiKey = /X-API-Key: (rb_[A-Za-z0-9_-]+)/.exec(log())?.[1];
      const ready = apiKey !== undefined && (await fetch(`${url}/v1/config`, { headers: { authorization: `Bearer ${apiKey}` } }).then((r) => r.ok, () => false));
      if (ready) return { url, apiKey, warehouseDir, log, close };
      if (Date.now() > deadline) throw new Error('Rustberg did not answer /v1/config with its minted key in time');
      await new Promise((r) => setTimeout(r, 200));
    }
  } catch (err) {
    const tail = log().split('\n').slice(-20).join('\n');
    await close();
    throw new Error(`${(err as Error).message}\n${tail}`);
  }
}
