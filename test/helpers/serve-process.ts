/**
 * `icefront serve` as a real child process (the TypeScript sources through tsx, so no build is
 * needed), for what only a process shows: signals, exit codes, what it prints.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

export const REPO = path.resolve(import.meta.dirname, '../..');

export interface ServeProcess {
  readonly child: ChildProcess;
  /** Everything written to stdout and stderr so far. */
  output(): string;
  /** Settles with the exit code (or the signal that ended it). */
  readonly exited: Promise<number | NodeJS.Signals>;
  /** Settles with the base URL once it listens; rejects if it exits first. */
  readonly listening: Promise<string>;
}

export function serveProcess(args: readonly string[]): ServeProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(REPO, 'src/cli.ts'), 'serve', ...args], {
    cwd: REPO,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const exited = new Promise<number | NodeJS.Signals>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal!)));
  const listening = new Promise<string>((resolve, reject) => {
    const seen = (chunk: Buffer) => {
      out += chunk.toString();
      const m = /Icefront is listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]!);
    };
    child.stdout!.on('data', seen);
    child.stderr!.on('data', seen);
    void exited.then((code) => reject(new Error(`icefront exited (${code}) before listening:\n${out}`)));
  });
  listening.catch(() => undefined);
  return { child, output: () => out, exited, listening };
}

/** Polls `probe` until it returns true (each try a real request or connection); fails after `tries`. */
export async function eventually(what: string, probe: () => Promise<boolean>, tries = 200, pauseMs = 50): Promise<void> {
  for (let i = 0; i < tries; i++) {
    if (await probe()) return;
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
  throw new Error(`never happened: ${what}`);
}
