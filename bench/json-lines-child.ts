/**
 * A long-lived Python driver of the bench (bench/json_lines.py's protocol): one JSON job per line
 * on its stdin, one JSON reply per line on its stdout, `{"ok": false, "error", "traceback"}` when
 * a job failed. Its stderr is kept for failure messages (echoed with BENCH_PEER_VERBOSE).
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { stopProcess, Tail } from '../test/interop/harness/processes.js';

export interface JsonLinesChild {
  /** The reply to `job`; throws, naming `what`, when the job failed or the process has gone. */
  ask<T>(job: object, what: string): Promise<T>;
  close(): Promise<void>;
}

export function startJsonLinesChild(python: string, script: string, env: NodeJS.ProcessEnv): JsonLinesChild {
  const name = path.basename(script);
  const child = spawn(python, [script], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ...env, PYTHONUNBUFFERED: '1' } });
  const err = new Tail(32_000);
  child.stderr.on('data', (c: Buffer) => {
    err.push(c);
    if (process.env['BENCH_PEER_VERBOSE']) process.stderr.write(c);
  });
  const waiting: ((line: string) => void)[] = [];
  readline.createInterface({ input: child.stdout }).on('line', (line) => waiting.shift()?.(line));
  let exited = false;
  child.once('exit', () => {
    exited = true;
    for (const w of waiting.splice(0)) w(JSON.stringify({ ok: false, error: `${name} exited\n${err.toString().slice(-4000)}` }));
  });
  return {
    async ask<T>(job: object, what: string): Promise<T> {
      if (exited) throw new Error(`${name} has exited\n${err.toString().slice(-4000)}`);
      const line = await new Promise<string>((resolve) => {
        waiting.push(resolve);
        child.stdin.write(JSON.stringify(job) + '\n');
      });
      const reply = JSON.parse(line) as T & { ok: boolean; error?: string; traceback?: string };
      if (!reply.ok) throw new Error(`${what}: ${reply.error}\n${reply.traceback ?? ''}`);
      return reply;
    },
    async close() {
      child.stdin.end();
      await stopProcess(child, 20_000);
    },
  };
}
