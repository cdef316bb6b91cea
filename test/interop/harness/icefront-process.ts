/**
 * Icefront as an operator runs it: `icefront serve --config FILE --port 0` in a process of its
 * own, ready when it prints the URL it listens on. The CLI runs from src/cli.ts through tsx (the
 * development path), so the test never depends on a build output being current. Output is kept
 * (and always read, so a chatty log never blocks the child on a full pipe) for failure messages.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { stopProcess, Tail } from './processes.js';

const REPO = path.resolve(import.meta.dirname, '../../..');
const CLI = path.join(REPO, 'src/cli.ts');

export interface IcefrontProcess {
  /** `http://127.0.0.1:<port>` (`https://` with `server.tls`), as the process printed it. */
  readonly url: string;
  readonly port: number;
  readonly pid: number;
  /** Settles when the process has exited, however. */
  readonly exited: Promise<void>;
  /** Its stdout and stderr so far (the last 64 KB). */
  log(): string;
  /** Sends a signal to this process only (by its pid). */
  signal(signal: NodeJS.Signals): void;
  /** SIGTERM (after SIGCONT, should it be stopped), SIGKILL after a grace period; resolves when it has exited. */
  close(): Promise<void>;
}

export async function startIcefrontProcess(configFile: string, options: { env?: Readonly<Record<string, string>>; startTimeoutMs?: number } = {}): Promise<IcefrontProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, 'serve', '--config', configFile, '--port', '0'], {
    cwd: REPO,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...options.env },
  });
  killAtExit.add(child);
  const out = new Tail(64_000);
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      killAtExit.delete(child);
      resolve();
    }),
  );
  child.stderr!.on('data', (c: Buffer) => out.push(c));
  const timeoutMs = options.startTimeoutMs ?? 60_000;
  const url = await new Promise<string>((resolve, reject) => {
    let started = false;
    const timer = setTimeout(() => reject(new Error(`Icefront printed no URL within ${timeoutMs} ms:\n${out.toString()}`)), timeoutMs);
    child.stdout!.on('data', (c: Buffer) => {
      out.push(c);
      // cli.ts: "Icefront is listening on http://127.0.0.1:<port>" (https:// with server.tls)
      const m = started ? null : /listening on (https?:\/\/127\.0\.0\.1:\d+)/.exec(out.toString());
      if (m) {
        started = true;
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (!started) reject(new Error(`Icefront exited (${code ?? signal}) before listening:\n${out.toString()}`));
    });
  }).catch(async (err: unknown) => {
    await stopProcess(child);
    throw err;
  });
  return {
    url,
    port: Number(new URL(url).port),
    pid: child.pid!,
    exited,
    log: () => out.toString(),
    signal: (signal) => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    },
    close: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGCONT');
      await stopProcess(child);
    },
  };
}

// A test that dies before its teardown must not leave servers behind.
const killAtExit = new Set<ChildProcess>();
process.once('exit', () => {
  for (const c of killAtExit) c.kill('SIGKILL');
});
