/** Child processes the harness starts: stopped by their own pid, output kept for messages. */
import type { ChildProcess } from 'node:child_process';

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
