/**
 * What the deployment tests share: running a command from the repository, and a missing
 * prerequisite (a tool, root) that skips the test with a message, or fails it when `CI` is set
 * (a CI run must not pass with a deployment check silently absent).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Test } from 'tap';
import { runCommand, type RunResult } from '../helpers/run-command.js';

export const REPO = path.resolve(import.meta.dirname, '../..');

export type { RunResult } from '../helpers/run-command.js';

/** Runs a command from the repository, its output gathered; one that cannot start is code 127. */
export function run(cmd: string, args: readonly string[], options: { timeoutMs?: number; env?: NodeJS.ProcessEnv } = {}): Promise<RunResult> {
  return runCommand(cmd, args, { cwd: REPO, ...options });
}

/** The last `lines` lines of a command's output, for a failure message. */
export const tail = (text: string, lines = 25): string => text.trim().split('\n').slice(-lines).join('\n');

/** Whether `tool` is an executable on PATH. */
export function onPath(tool: string): boolean {
  return (process.env['PATH'] ?? '').split(path.delimiter).some((dir) => {
    try {
      fs.accessSync(path.join(dir, tool), fs.constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/** Records a missing prerequisite: a skip with `why`, or a failure when `CI` is set. */
export function missingPrerequisite(t: Test, why: string): void {
  if (process.env['CI']) t.fail(`${why} (CI is set, so this fails instead of skipping)`);
  else t.skip(why, () => {});
}

/** Polls `probe` until it returns true; throws naming `what` after `timeoutMs`. */
export async function eventually(what: string, probe: () => Promise<boolean>, timeoutMs: number, pauseMs = 250): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (await probe().catch(() => false)) return;
    if (Date.now() > end) throw new Error(`never happened within ${timeoutMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
}

/** Why the container image cannot be built and run here (tools/deploy/build-image.sh), or undefined. */
export function containerPrerequisiteMissing(): string | undefined {
  if (process.platform !== 'linux') return `podman containers need Linux (this is ${process.platform})`;
  if (process.getuid?.() !== 0) return 'building and running the image needs root (apt-get, mmdebstrap, rootful podman)';
  if (!onPath('bash')) return 'bash';
  const missing = ['podman', 'mmdebstrap', 'runc'].filter((tool) => !onPath(tool));
  if (missing.length > 0 && !onPath('apt-get')) return `${missing.join(', ')}, and no apt-get to install them`;
  return undefined;
}

const BUILD = path.join(REPO, 'tools/deploy/build-image.sh');

/**
 * The image built from the Dockerfile (tools/deploy/build-image.sh, which installs what it needs)
 * and the flags `podman run` needs here; or `missing` (a prerequisite) or `failed` (the build).
 */
export async function buildImage(tag: string): Promise<{ flags?: string[]; missing?: string; failed?: string; seconds?: number }> {
  const why = containerPrerequisiteMissing();
  if (why) return { missing: why };
  const install = await run('bash', [BUILD, '--install'], { timeoutMs: 10 * 60_000 });
  if (install.code !== 0) return { missing: `podman/mmdebstrap/runc, which could not be installed:\n${tail(install.stderr)}` };
  const started = Date.now();
  const build = await run('bash', [BUILD, tag], { timeoutMs: 15 * 60_000 });
  if (build.code !== 0) return { failed: `tools/deploy/build-image.sh failed (${build.code}):\n${tail(build.stderr)}` };
  if (build.stdout.trim().split('\n').at(-1) !== tag) return { failed: `tools/deploy/build-image.sh did not print the tag ${tag}:\n${build.stdout}` };
  const seconds = (Date.now() - started) / 1000;
  const flags = await run('bash', [BUILD, '--run-flags'], { timeoutMs: 5 * 60_000 });
  if (flags.code !== 0) return { failed: `tools/deploy/build-image.sh --run-flags failed:\n${tail(flags.stderr)}` };
  return { flags: flags.stdout.split('\n').filter(Boolean), seconds };
}
