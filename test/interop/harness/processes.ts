/** Child processes the harness starts: stopped by their own pid, output kept for messages. */
import { spawn, type ChildProcess } from 'node:child_process';

/** Keeps the last `limit` characters of a stream. */
export class Tail {
  private text = '';
  constructor(private readonly limit = 16_000) {}
  push(chunk: Buffer | string): void {
    this.text = (this.text + chunk.toString()).slice(-this.limit);
  }
  toString(): string {
    return this.text;
  }
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves when the process has exited. */
export async function stopProcess(child: ChildProcess, graceMs = 5000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

/** The port of a child's `LISTENING 127.0.0.1:<port>` stdout line (the harness launchers print one). */
export function listeningPort(child: ChildProcess, out: Tail, timeoutMs: number): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no LISTENING line')), timeoutMs);
    child.stdout!.on('data', (c: Buffer) => {
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
}

/** A launcher of the interop venv (moto-server.py, sigv4-gateway.py) once it has said where it listens. */
export interface StdinBoundServer {
  readonly port: number;
  /** Its stdout so far (the launcher's own lines: LISTENING, STS, …). */
  readonly out: Tail;
  /** Its stderr so far, for failure messages. */
  readonly err: Tail;
  close(): Promise<void>;
}

/**
 * Starts `python args…` with stdin an open pipe (the launcher serves until it closes, i.e. until
 * this process dies) and waits for its LISTENING line; a launcher that does not get there is
 * stopped and told as `<what> did not start`, with its stderr.
 */
export async function startStdinBoundServer(python: string, args: readonly string[], what: string, options: { startTimeoutMs: number; errLimit?: number }): Promise<StdinBoundServer> {
  const child = spawn(python, args, { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, PYTHONUNBUFFERED: '1' } });
  const out = new Tail();
  const err = new Tail(options.errLimit);
  child.stderr.on('data', (c: Buffer) => err.push(c));
  const close = async () => {
    child.stdin.end();
    await stopProcess(child);
  };
  try {
    return { port: await listeningPort(child, out, options.startTimeoutMs), out, err, close };
  } catch (e) {
    await stopProcess(child);
    throw new Error(`${what} did not start: ${(e as Error).message}\n${err.toString().slice(-3000)}`);
  }
}
