/**
 * Icefront as operators run it: the built server (`node dist/cli.js serve --config FILE --port 0`,
 * what bin/icefront.js runs), in a process of its own, plus one thing an operator would not turn
 * on: Node's inspector on a loopback port, so that the bench can force a GC and read the heap
 * after it, and the event loop's delay, from inside the process (/metrics reports the heap and the
 * loop too, but nothing there forces a GC). The inspector is idle between samples.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { REPO } from '../../test/interop/harness/toolchain.js';
import { stopProcess, Tail } from '../../test/interop/harness/processes.js';

export interface SoakIcefront {
  readonly url: string;
  readonly pid: number;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  isAlive(): boolean;
  log(): string;
  signal(signal: NodeJS.Signals): void;
  readonly inspector: Inspector;
  close(): Promise<void>;
}

/** `port`: where it listens (default: a free port); a replica restarted after a kill takes its old one again. */
export async function startSoakIcefront(configFile: string, dist = path.join(REPO, 'dist'), port = 0): Promise<SoakIcefront> {
  const child: ChildProcess = spawn(process.execPath, ['--inspect=127.0.0.1:0', ...(process.env['SOAK_NODE_ARGS'] ?? '').split(/\s+/).filter(Boolean), path.join(dist, 'cli.js'), 'serve', '--config', configFile, '--port', String(port)], {
    cwd: REPO,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // a bench that dies first takes it along; a listener per process alive (a restarted replica adds one)
  const killAtExit = () => child.kill('SIGKILL');
  process.once('exit', killAtExit);
  child.once('exit', () => process.off('exit', killAtExit));
  const out = new Tail(64_000);
  let alive = true;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => {
      alive = false;
      resolve({ code, signal });
    }),
  );
  let ws: string | undefined;
  child.stderr!.on('data', (c: Buffer) => {
    out.push(c);
    ws ??= /Debugger listening on (ws:\/\/127\.0\.0\.1:\d+\/[\w-]+)/.exec(out.toString())?.[1];
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Icefront printed no URL within 60 s:\n${out.toString()}`)), 60_000);
    child.stdout!.on('data', (c: Buffer) => {
      out.push(c);
      const m = /listening on (https?:\/\/127\.0\.0\.1:\d+)/.exec(out.toString());
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`Icefront exited (${code ?? signal}) before listening:\n${out.toString()}`));
    });
  });
  if (!ws) throw new Error(`Icefront printed no inspector URL:\n${out.toString()}`);
  const inspector = await Inspector.connect(ws);
  await inspector.evaluate(
    `(() => { const { monitorEventLoopDelay } = process.getBuiltinModule('node:perf_hooks'); globalThis.__soakLoop = monitorEventLoopDelay({ resolution: 10 }); globalThis.__soakLoop.enable(); globalThis.__soakAll = monitorEventLoopDelay({ resolution: 10 }); globalThis.__soakAll.enable(); return 1; })()`,
  );
  return {
    url,
    pid: child.pid!,
    exited,
    isAlive: () => alive,
    log: () => out.toString(),
    signal: (s) => {
      if (alive) child.kill(s);
    },
    inspector,
    close: async () => {
      inspector.close();
      await stopProcess(child, 12_000);
    },
  };
}

export interface InsideSample {
  /** Event-loop delay since the previous sample, ms. */
  readonly loopP99Ms: number;
  readonly loopMaxMs: number;
  readonly heapUsedMB: number;
}

/** A minimal Chrome DevTools Protocol client over Node's global WebSocket. */
export class Inspector {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  private constructor(private readonly socket: WebSocket) {
    socket.addEventListener('message', (ev) => {
      const msg = JSON.parse(String(ev.data)) as { id?: number; result?: unknown; error?: { message: string } };
      if (msg.id === undefined) return;
      const p = this.pending.get(msg.id);
      if (!p) return;
      this.pending.delete(msg.id);
      if (msg.error) p.reject(new Error(msg.error.message));
      else p.resolve(msg.result);
    });
    socket.addEventListener('close', () => {
      for (const p of this.pending.values()) p.reject(new Error('inspector closed'));
      this.pending.clear();
    });
  }

  static connect(url: string): Promise<Inspector> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url);
      socket.addEventListener('open', () => resolve(new Inspector(socket)), { once: true });
      socket.addEventListener('error', () => reject(new Error(`inspector ${url}: connection failed`)), { once: true });
    });
  }

  call(method: string, params: Record<string, unknown> = {}, timeoutMs = 30_000): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`inspector ${method}: no answer within ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(id, {
        resolve: (v) => {
          clearTimeout(timer);
          resolve(v);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      });
      this.socket.send(JSON.stringify({ id, method, params }));
    });
  }

  async evaluate(expression: string): Promise<unknown> {
    const r = (await this.call('Runtime.evaluate', { expression, returnByValue: true })) as { result: { value?: unknown }; exceptionDetails?: { text: string } };
    if (r.exceptionDetails) throw new Error(`inspector evaluate: ${r.exceptionDetails.text}`);
    return r.result.value;
  }

  /** The event loop's delay since the last call (then reset) and the heap in use (after a full GC when `gc`). */
  async sample(gc: boolean): Promise<InsideSample> {
    // the whole run's histogram is off while a forced GC runs: its pause is the bench's, not Icefront's
    if (gc) await this.evaluate('globalThis.__soakAll.disable(), 1');
    if (gc) await this.call('HeapProfiler.collectGarbage');
    const v = (await this.evaluate(
      `(() => { const h = globalThis.__soakLoop; const r = { p99: h.percentile(99) / 1e6, max: h.max / 1e6, heap: process.memoryUsage().heapUsed }; h.reset(); ${gc ? 'globalThis.__soakAll.enable();' : ''} return r; })()`,
    )) as { p99: number; max: number; heap: number };
    return { loopP99Ms: v.p99, loopMaxMs: v.max, heapUsedMB: v.heap / 2 ** 20 };
  }

  /** The event loop's delay over the whole run (forced GCs left out): p99 and max, ms; `reset` starts it afresh. */
  async overall(reset: boolean): Promise<{ p50Ms: number; p99Ms: number; maxMs: number }> {
    const v = (await this.evaluate(
      `(() => { const h = globalThis.__soakAll; const r = { p50: h.percentile(50) / 1e6, p99: h.percentile(99) / 1e6, max: h.max / 1e6 }; ${reset ? 'h.reset();' : ''} return r; })()`,
    )) as { p50: number; p99: number; max: number };
    return { p50Ms: v.p50, p99Ms: v.p99, maxMs: v.max };
  }

  close(): void {
    this.socket.close();
  }
}
