/**
 * iceberg-go as an interop client: tools/interop/iceberg-go.sh builds tools/interop/iceberg-go
 * (iceberg-go v0.7.0, pinned by its go.mod/go.sum) into the user's cache once per machine and
 * prints the binary's path; clients/iceberg_go_client.py runs it for each job, finding it in
 * `ICEFRONT_INTEROP_ICEBERG_GO_BIN`.
 *
 * Like harness/toolchain.ts: no `go` or a failed build skips the iceberg-go readers with a
 * message naming it, except when `CI` is set: then it fails. `ICEFRONT_INTEROP_ICEBERG_GO=off`
 * skips them outside CI.
 */
import path from 'node:path';
import type { Test } from 'tap';
import { REPO, runInstallScript } from './toolchain.js';

export const ICEBERG_GO_SCRIPT = path.join(REPO, 'tools/interop/iceberg-go.sh');
/** The environment variable clients/iceberg_go_client.py reads the binary's path from. */
export const ICEBERG_GO_BIN_ENV = 'ICEFRONT_INTEROP_ICEBERG_GO_BIN';

export type IcebergGoBuild = { readonly ok: true; readonly binary: string; readonly output: string } | { readonly ok: false; readonly missing: string };

let memo: Promise<IcebergGoBuild> | undefined;

/** Runs iceberg-go.sh once per process (it is idempotent and `flock`ed across processes). */
export function ensureIcebergGo(): Promise<IcebergGoBuild> {
  memo ??= build();
  return memo;
}

async function build(): Promise<IcebergGoBuild> {
  const ran = await runInstallScript(ICEBERG_GO_SCRIPT, { offVar: 'ICEFRONT_INTEROP_ICEBERG_GO', what: 'iceberg-go', prefix: 'iceberg-go: missing ', timeoutMs: 30 * 60_000 });
  if (!ran.ok) return ran;
  const lines = ran.stdout.trim().split('\n');
  return { ok: true, binary: lines.at(-1)!.trim(), output: lines.slice(0, -1).join('\n') };
}

/**
 * The iceberg-go client's binary for a test file, exported to the client worker through
 * `ICEFRONT_INTEROP_ICEBERG_GO_BIN` (call it before `ClientWorker.start`), or undefined after
 * recording why not: a skip outside CI, a failure when `CI` is set.
 */
export async function icebergGoFor(t: Test): Promise<string | undefined> {
  const b = await ensureIcebergGo();
  if (b.ok) {
    for (const line of b.output.split('\n').filter(Boolean)) t.comment(line);
    process.env[ICEBERG_GO_BIN_ENV] = b.binary;
    return b.binary;
  }
  const why = `iceberg-go missing: ${b.missing}`;
  if (process.env['CI']) t.fail(`${why} (CI is set, so this fails instead of skipping)`);
  else t.skip(why, () => {});
  return undefined;
}
