/**
 * What the latency benches start first: the interop toolchain (Python, Java, the fixture) and
 * Toxiproxy (tools/interop/toxiproxy.sh builds it on first use), or an error saying which is missing.
 */
import { ensureToolchain, runInstallScript, type InteropEnv } from '../test/interop/harness/toolchain.js';
import { startToxiproxy, TOXIPROXY_SCRIPT, type Toxiproxy } from '../test/interop/harness/toxiproxy.js';

export async function toolchainAndToxiproxy(): Promise<{ env: InteropEnv; toxiproxy: Toxiproxy }> {
  const tc = await ensureToolchain();
  if (!tc.ok) throw new Error(`the interop toolchain is missing: ${tc.missing}`);
  const built = await runInstallScript(TOXIPROXY_SCRIPT, { offVar: 'ICEFRONT_INTEROP_TOXIPROXY', what: 'Toxiproxy', prefix: 'toxiproxy: missing ', timeoutMs: 20 * 60_000 });
  if (!built.ok) throw new Error(`Toxiproxy is missing: ${built.missing}`);
  return { env: tc.env, toxiproxy: await startToxiproxy(built.stdout.trim().split('\n').at(-1)!.trim()) };
}
