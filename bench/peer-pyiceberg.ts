/** bench/peer_pyiceberg.py in one long-lived Python process: pyiceberg planning through a server that plans. */
import { spawn } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { stopProcess, Tail } from '../test/interop/harness/processes.js';
import type { InteropEnv } from '../test/interop/harness/toolchain.js';

export interface PyicebergPlanning {
  /** load_table and plan_files. */
  readonly ms: number;
  /** plan_files alone: POST /plan, then every /tasks one at a time. */
  readonly planMs: number;
  readonly files: number;
}

export interface PyicebergPlanner {
  plan(uri: string, warehouse: string, table: string): Promise<PyicebergPlanning>;
  close(): Promise<void>;
}

const SCRIPT = path.resolve(import.meta.dirname, 'peer_pyiceberg.py');

export function startPyicebergPlanner(env: InteropEnv): PyicebergPlanner {
  const child = spawn(env.python, [SCRIPT], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, PYTHONUNBUFFERED: '1' } });
  const err = new Tail(32_000);
  child.stderr.on('data', (c: Buffer) => err.push(c));
  const waiting: ((line: string) => void)[] = [];
  readline.createInterface({ input: child.stdout }).on('line', (line) => waiting.shift()?.(line));
  let exited = false;
  child.once('exit', () => {
    exited = true;
    for (const w of waiting.splice(0)) w(JSON.stringify({ ok: false, error: `peer_pyiceberg.py exited\n${err.toString().slice(-4000)}` }));
  });
  return {
    async plan(uri, warehouse, table) {
      if (exited) throw new Error(`peer_pyiceberg.py has exited\n${err.toString().slice(-4000)}`);
      const line = await new Promise<string>((resolve) => {
        waiting.push(resolve);
        child.stdin.write(JSON.stringify({ uri, warehouse, table }) + '\n');
      });
      const reply = JSON.parse(line) as PyicebergPlanning & { ok: boolean; error?: string; traceback?: string };
      if (!reply.ok) throw new Error(`pyiceberg planning ${table} via ${uri}: ${reply.error}\n${reply.traceback ?? ''}`);
      return reply;
    },
    async close() {
      child.stdin.end();
      await stopProcess(child, 20_000);
    },
  };
}
