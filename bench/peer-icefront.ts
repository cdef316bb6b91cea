/**
 * Starts bench/peer-icefront-child.ts (Icefront from a YAML config, in its own node + tsx
 * process) and follows its request lines, so bench/peer.ts can read its memory and count the
 * /plan and /tasks requests a client such as Spark made.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { stopProcess, Tail } from '../test/interop/harness/processes.js';

export interface IcefrontChild {
  readonly url: string;
  readonly pid: number;
  /** V8's heap limit in the child (node defaults unless NODE_OPTIONS says otherwise). */
  readonly heapLimitMB: number;
  /** Requests answered so far whose URL ends with `suffix` (e.g. `/plan`, `/tasks`). */
  count(suffix: string): number;
  /** Their response times (fastify's elapsedTime: request received to response sent), summed, ms. */
  busyMs(suffix: string): number;
  close(): Promise<void>;
}

const CHILD = path.resolve(import.meta.dirname, 'peer-icefront-child.ts');
const REQUEST_LOG = process.env['BENCH_REQUEST_LOG'];

export async function startIcefrontChild(yaml: string): Promise<IcefrontChild> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'icefront-bench-peer-'));
  const config = path.join(dir, 'icefront.yaml');
  fs.writeFileSync(config, yaml);
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, config], { stdio: ['pipe', 'pipe', 'pipe'] });
  const err = new Tail();
  child.stderr.on('data', (c: Buffer) => err.push(c));
  const counts = new Map<string, number>();
  const busy = new Map<string, number>();
  const close = async (): Promise<void> => {
    child.stdin.end();
    await stopProcess(child);
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    const ready = await new Promise<{ url: string; heapLimitMB: number }>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no LISTENING line within 60 s')), 60_000);
      readline.createInterface({ input: child.stdout }).on('line', (line) => {
        const m = /^LISTENING (\S+) (\d+)$/.exec(line);
        if (m) {
          clearTimeout(timer);
          resolve({ url: m[1]!, heapLimitMB: Number(m[2]) });
          return;
        }
        const r = /^REQ \S+ \d+ (\S+) ([\d.]+)$/.exec(line);
        // BENCH_REQUEST_LOG=FILE: every request line, with the time it was answered, for a closer look
        if (r && REQUEST_LOG) fs.appendFileSync(REQUEST_LOG, `${new Date().toISOString()} ${line}\n`);
        if (r) {
          const route = r[1]!.split('?')[0]!;
          const last = route.slice(route.lastIndexOf('/'));
          counts.set(last, (counts.get(last) ?? 0) + 1);
          busy.set(last, (busy.get(last) ?? 0) + Number(r[2]));
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`exited with ${code}`));
      });
    });
    return { ...ready, pid: child.pid!, count: (suffix) => counts.get(suffix) ?? 0, busyMs: (suffix) => busy.get(suffix) ?? 0, close };
  } catch (e) {
    await close();
    throw new Error(`Icefront child did not start: ${(e as Error).message}\n${err.toString().slice(-3000)}`);
  }
}
