/**
 * deploy/systemd/icefront.service: `systemd-analyze verify` accepts it with no warning (an
 * unknown or misspelt key is only a warning there, so any output fails), its exposure score is
 * low (`systemd-analyze security --offline`), and its settings fit Icefront: SIGHUP reload,
 * SIGTERM drain within TimeoutStopSec, a dedicated user, the token secret from an
 * EnvironmentFile, the hardening options. Without systemd-analyze the tool checks skip with a
 * message; with `CI` set they fail where systemd is installed (the tool should be there).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { DEFAULT_SHUTDOWN_GRACE_MS } from '../../src/main.js';
import { missingPrerequisite, onPath, REPO, run } from './helpers.js';

const UNIT = path.join(REPO, 'deploy/systemd/icefront.service');
const text = fs.readFileSync(UNIT, 'utf8');

/** The unit's `[Section] Key=value` settings (comments dropped; repeated keys kept in order). */
function settings(unit: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  let section = '';
  for (const raw of unit.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const header = /^\[(.+)\]$/.exec(line);
    if (header) {
      section = header[1]!;
      continue;
    }
    const eq = line.indexOf('=');
    const key = `${section}.${line.slice(0, eq)}`;
    out.set(key, [...(out.get(key) ?? []), line.slice(eq + 1)]);
  }
  return out;
}
const unit = settings(text);
const get = (key: string) => unit.get(key)?.at(-1);

/** systemd's time span ("20s", "1min 30s", "90"), in milliseconds. */
function spanMs(span: string): number {
  const units: Record<string, number> = { ms: 1, s: 1000, sec: 1000, m: 60_000, min: 60_000, h: 3_600_000 };
  let total = 0;
  for (const [, n, u] of span.matchAll(/(\d+(?:\.\d+)?)\s*([a-z]*)/g)) total += Number(n) * (units[u || 's'] ?? NaN);
  return total;
}

t.test('the unit runs icefront serve with reload, drain and a secret from outside', async (t) => {
  t.equal(get('Service.Type'), 'simple');
  t.match(get('Service.ExecStart'), /^\/usr\/bin\/env icefront serve --config \/etc\/icefront\/config\.yaml$/, 'ExecStart: icefront serve --config /etc/icefront/config.yaml');
  t.equal(get('Service.ExecReload'), '/bin/kill -HUP $MAINPID', 'reload is SIGHUP to the server');
  t.equal(get('Service.KillSignal'), 'SIGTERM', 'stop is SIGTERM (the drain)');
  const stopMs = spanMs(get('Service.TimeoutStopSec') ?? '0');
  t.ok(stopMs > DEFAULT_SHUTDOWN_GRACE_MS + 2_000, `TimeoutStopSec (${stopMs} ms) exceeds the default drain (${DEFAULT_SHUTDOWN_GRACE_MS} ms) and closing what it cut (2 s)`);
  const user = get('Service.User');
  t.ok(user && user !== 'root' && user !== '0', `a dedicated user (${user})`);
  t.ok(unit.get('Service.EnvironmentFile')?.includes('-/etc/icefront/env'), 'ICEFRONT_TOKEN_SECRET from /etc/icefront/env');
  t.notOk(text.match(/^[^#]*ICEFRONT_TOKEN_SECRET=/m), 'no secret value in the unit');
  t.equal(get('Service.RestartPreventExitStatus'), '2', 'an invalid config (exit 2) is not restarted in a loop');
  t.equal(get('Install.WantedBy'), 'multi-user.target');
});

t.test('the unit is hardened', async (t) => {
  for (const [key, value] of Object.entries({
    NoNewPrivileges: 'true',
    ProtectSystem: 'strict',
    ProtectHome: 'true',
    PrivateTmp: 'true',
    PrivateDevices: 'true',
    RestrictSUIDSGID: 'true',
    CapabilityBoundingSet: '',
  }))
    t.equal(get(`Service.${key}`), value, `${key}=${value}`);
  t.ok(get('Service.ReadOnlyPaths')?.includes('/etc/icefront'), 'ReadOnlyPaths=/etc/icefront');
  t.notOk(get('Service.MemoryDenyWriteExecute'), "no MemoryDenyWriteExecute (it breaks V8's JIT)");
});

t.test('systemd-analyze verify and security accept it', async (t) => {
  if (!onPath('systemd-analyze')) {
    const systemdInstalled = fs.existsSync('/usr/lib/systemd/systemd') || fs.existsSync('/lib/systemd/systemd');
    if (process.env['CI'] && systemdInstalled) t.fail('systemd is installed but systemd-analyze is not on PATH (CI is set, so this fails instead of skipping)');
    else if (process.env['CI']) t.skip('systemd-analyze: systemd is not installed here, so there is no tool to check the unit with', () => {});
    else missingPrerequisite(t, 'systemd unit test: missing systemd-analyze (Debian package systemd)');
    return;
  }
  const verify = await run('systemd-analyze', ['verify', UNIT]);
  t.equal(verify.code, 0, `systemd-analyze verify exits 0${verify.code === 0 ? '' : `:\n${verify.stderr}`}`);
  t.equal((verify.stdout + verify.stderr).trim(), '', 'and says nothing (an unknown or misspelt key is only a warning)');

  // The same check on a copy with a misspelt key does say something: the check above can fail.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'icefront-systemd-'));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  const broken = path.join(dir, 'icefront.service');
  fs.writeFileSync(broken, text.replace(/^KillSignal=/m, 'KillSignl='));
  const warned = await run('systemd-analyze', ['verify', broken]);
  t.match(warned.stderr, /Unknown key 'KillSignl'/, 'a misspelt key is reported (so silence above means something)');

  const security = await run('systemd-analyze', ['security', '--offline=true', '--no-pager', UNIT]);
  const score = /Overall exposure level for icefront\.service: (\d+(?:\.\d+)?)/.exec(security.stdout + security.stderr);
  if (!score && /offline/.test(security.stderr)) return t.comment(`systemd-analyze security --offline is not supported by this systemd: ${security.stderr.trim()}`);
  t.ok(score, 'systemd-analyze security rates it');
  t.ok(score && Number(score[1]) <= 2.5, `exposure ${score?.[1]} of 10 is low (≤ 2.5)`);
});
