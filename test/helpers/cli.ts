/**
 * The `icefront` command as tests run it: from the TypeScript sources through tsx, so a test
 * never depends on a built dist/ being there or fresh (bin/icefront.js runs dist/; the build
 * test installs and runs that).
 */
import { execFile } from 'node:child_process';
import path from 'node:path';

const REPO = path.resolve(import.meta.dirname, '../..');

/** `node` arguments before the command's own: `spawn(process.execPath, [...ICEFRONT_CLI, 'serve', …])`. */
export const ICEFRONT_CLI: readonly string[] = ['--import', import.meta.resolve('tsx'), path.join(REPO, 'src/cli.ts')];

export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs `icefront ARGS` to its end (in `cwd`, the repository by default; with the `node` binary
 * given, this test's own by default) and resolves with its exit status and output.
 */
export function runIcefront(args: readonly string[], options: { cwd?: string; node?: string } = {}): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(options.node ?? process.execPath, [...ICEFRONT_CLI, ...args], { cwd: options.cwd ?? REPO, timeout: 60_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : -1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}
