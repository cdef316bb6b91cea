/**
 * The interop toolchain: runs tools/interop/setup.sh (idempotent: a second run only checks its
 * stamp) and reads the .interop/env.json it writes.
 *
 * Tests call `interopToolchain(t)` themselves, so `npm test` on a fresh machine installs what
 * the suite needs; `.ci/run` also runs setup.sh first, so CI prints setup time on its own line.
 * A missing tool (java, javac, mvn, python) or a failed setup skips the suite with a message
 * naming it — except when `CI` is set: then it fails. `ICEFRONT_INTEROP=off` skips the suite
 * outside CI.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Test } from 'tap';
import { runCommand, type RunResult } from '../../helpers/run-command.js';

export const REPO = path.resolve(import.meta.dirname, '../../..');
export const SETUP_SCRIPT = path.join(REPO, 'tools/interop/setup.sh');
const ENV_FILE = path.join(REPO, '.interop/env.json');

/** What setup.sh wrote: absolute paths and installed versions. */
export interface InteropEnv {
  readonly python: string;
  readonly sparkJar: string;
  /** Spark's `spark.jars`: the runtime plus iceberg-aws-bundle (S3FileIO); absent in an older env.json. */
  readonly sparkJars?: readonly string[];
  /** The same at Iceberg's next version (pom.xml iceberg.next.version, 1.12.0), for a second Spark JVM. */
  readonly sparkJarsNext?: readonly string[];
  /** That next version's number. */
  readonly icebergNext?: string;
  /** tools/interop/moto-server.py (harness/moto.ts); absent in an older env.json. */
  readonly motoServer?: string;
  readonly fixtureClasspath: readonly string[];
  readonly fixtureMain: string;
  readonly java: string;
  readonly versions: Readonly<Record<string, string>>;
  /** tools/interop/writers' EqualityDeleteWriter: its classpath entries and main class (harness/java-writer.ts). */
  readonly writerClasspath: readonly string[];
  readonly writerMain: string;
}

export type Toolchain =
  | { readonly ok: true; readonly env: InteropEnv; readonly setupOutput: string }
  | { readonly ok: false; readonly missing: string };

let memo: Promise<Toolchain> | undefined;

/** Runs setup.sh once per process. Its stdout is returned for the test log. */
export function ensureToolchain(): Promise<Toolchain> {
  memo ??= runSetup();
  return memo;
}

/** An install script's outcome: its stdout, or what is missing (exit 3) or went wrong. */
export type ScriptResult = { readonly ok: true; readonly stdout: string } | { readonly ok: false; readonly missing: string };

/**
 * Runs one of tools/interop's idempotent install scripts (setup.sh, trino.sh, iceberg-go.sh): the
 * environment variable `offVar` set to `off` skips it; exit 3 means a prerequisite is missing,
 * named on stderr after `prefix`; any other failure quotes the end of stderr.
 */
export async function runInstallScript(script: string, opts: { offVar: string; what: string; prefix: string; timeoutMs: number }): Promise<ScriptResult> {
  if (process.env[opts.offVar] === 'off') return { ok: false, missing: `nothing: ${opts.offVar}=off asked to skip ${opts.what}` };
  const { code, stdout, stderr } = await run('bash', [script], opts.timeoutMs);
  if (code === 127 || code === null) return { ok: false, missing: `bash to run ${script} (${stderr.trim() || 'not started or timed out'})` };
  if (code === 3) return { ok: false, missing: stderr.trim().replace(opts.prefix, '') };
  if (code !== 0) return { ok: false, missing: `${opts.what}: ${path.relative(REPO, script)} exited ${code}:\n${stderr.trim().split('\n').slice(-15).join('\n')}` };
  return { ok: true, stdout };
}

async function runSetup(): Promise<Toolchain> {
  const ran = await runInstallScript(SETUP_SCRIPT, { offVar: 'ICEFRONT_INTEROP', what: 'the interop suite', prefix: 'interop setup: missing ', timeoutMs: 20 * 60_000 });
  if (!ran.ok) return ran;
  const env = JSON.parse(fs.readFileSync(ENV_FILE, 'utf8')) as InteropEnv;
  return { ok: true, env, setupOutput: ran.stdout.trim() };
}

/**
 * The toolchain for a test file, or undefined after recording why not: a skipped test outside
 * CI, a failure when `CI` is set (a CI run must not pass with the interop suite silently absent).
 */
export async function interopToolchain(t: Test): Promise<InteropEnv | undefined> {
  const tc = await ensureToolchain();
  if (tc.ok) {
    for (const line of tc.setupOutput.split('\n')) t.comment(line);
    return tc.env;
  }
  const why = `interop toolchain missing: ${tc.missing}`;
  if (process.env['CI'] && process.env['ICEFRONT_INTEROP'] !== 'off') t.fail(`${why} (CI is set, so this fails instead of skipping)`);
  else if (process.env['CI']) t.fail(`ICEFRONT_INTEROP=off is not honoured when CI is set`);
  else t.skip(why, () => {});
  return undefined;
}

export type { RunResult } from '../../helpers/run-command.js';

/** Runs a command from the repository, its output gathered; a command that cannot start is code 127. */
export function run(cmd: string, args: string[], timeoutMs: number): Promise<RunResult> {
  return runCommand(cmd, args, { cwd: REPO, timeoutMs });
}
