/**
 * The container image (Dockerfile), built and run with podman as an operator would run it: the
 * config file and the warehouse mounted read-only, ICEFRONT_TOKEN_SECRET from the environment, a
 * port published on 127.0.0.1 only, a read-only root filesystem.
 *
 * This machine cannot pull the official Node image, so tools/deploy/build-image.sh builds the same
 * Dockerfile on a base image made here (tools/deploy/base-image.sh: Debian's minbase plus the
 * official Node 24 binary the tests run on), installing podman and mmdebstrap with apt-get when missing. Needs root and
 * Linux; outside CI a missing prerequisite skips with a message, with `CI` set it fails.
 * Cold (nothing installed, no base image): two to eight minutes on 2 cores; warm: about 15 s.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t, { type Test } from 'tap';
import { loadConfigFile } from '../../src/config/index.js';
import { buildIcefront } from '../../src/main.js';
import { buildImage, eventually, missingPrerequisite, REPO, run, tail } from './helpers.js';

t.setTimeout(20 * 60_000);

const TAG = 'icefront:test';
const TOKEN_SECRET = crypto.randomBytes(24).toString('base64url');
const TABLE = '/v1/demo/namespaces/sales/tables/orders';

/** `podman ARGS`, failing the test with its output when it exits with another status than `expect`. */
async function podman(t: Test, args: string[], expect: number | null = 0, env?: NodeJS.ProcessEnv) {
  const res = await run('podman', args, { timeoutMs: 120_000, ...(env && { env }) });
  if (expect !== null && res.code !== expect) t.fail(`podman ${args.join(' ')} exited ${res.code}:\n${tail(res.stderr || res.stdout)}`);
  return res;
}

/** The fixture table's UUID, from its current metadata file. */
function fixtureTableUuid(): string {
  const dir = path.join(REPO, 'fixtures/warehouse/sales/orders/metadata');
  const version = fs.readFileSync(path.join(dir, 'version-hint.text'), 'utf8').trim();
  return (JSON.parse(fs.readFileSync(path.join(dir, `v${version}.metadata.json`), 'utf8')) as { 'table-uuid': string })['table-uuid'];
}

/** The data files an in-process Icefront plans for the same scan (the reference answer). */
async function expectedDataFiles(t: Test): Promise<string[]> {
  const { app } = buildIcefront(loadConfigFile(path.join(REPO, 'fixtures/test-config.yaml')));
  t.teardown(() => app.close());
  const res = await app.inject({ method: 'POST', url: `${TABLE}/plan`, headers: { 'content-type': 'application/json' }, payload: {} });
  const body = res.json() as { 'file-scan-tasks': { 'data-file': { 'file-path': string } }[]; 'plan-tasks'?: string[] };
  t.notOk(body['plan-tasks'], 'the in-process reference plans every file inline');
  return body['file-scan-tasks'].map((task) => task['data-file']['file-path']).sort();
}

interface Plan {
  status: string;
  'file-scan-tasks'?: { 'data-file': { 'file-path': string } }[];
  'plan-tasks'?: string[];
}

t.test('the image builds, runs as an operator runs it, and serves', async (t) => {
  const built = await buildImage(TAG);
  if (built.missing) return missingPrerequisite(t, `container image test: missing ${built.missing}`);
  if (built.failed || !built.flags) return t.fail(built.failed ?? 'no flags');
  t.comment(`image ${TAG} built (or found up to date) in ${built.seconds?.toFixed(1)} s`);
  const flags = built.flags;
  t.comment(`podman flags this machine needs: ${flags.join(' ') || '(none)'}`);

  // --- its Node.js: the newest LTS line, the Dockerfile's default ---------------------------------
  t.match(fs.readFileSync(path.join(REPO, 'Dockerfile'), 'utf8'), /^ARG NODE_IMAGE=node:24-bookworm-slim$/m, "the Dockerfile's default base is the official Node 24 image");
  const pinned = await run('bash', [path.join(REPO, 'tools/node/install.sh'), '24'], { timeoutMs: 120_000 });
  const expected = (await run(path.join(pinned.stdout.trim().split('\n').at(-1)!, 'node'), ['--version'])).stdout.trim();
  const inImage = await podman(t, ['run', '--rm', ...flags, '--entrypoint', 'node', TAG, '--version']);
  t.match(expected, /^v24\./, 'the pinned Node 24 binary');
  t.equal(inImage.stdout.trim(), expected, `the image runs it (${expected})`);

  // --- the image's own settings ----------------------------------------------------------------
  const inspect = await podman(t, ['image', 'inspect', TAG]);
  const [image] = JSON.parse(inspect.stdout) as {
    Config: { User?: string; Env?: string[]; ExposedPorts?: Record<string, unknown>; Entrypoint?: string[]; Cmd?: string[] };
    Healthcheck?: { Test?: string[] };
  }[];
  const config = image!.Config;
  t.match(config.User, /^[1-9]\d*(:\d+)?$/, 'USER is a numeric non-root uid (runAsNonRoot can check it)');
  t.ok(config.ExposedPorts && '8181/tcp' in config.ExposedPorts, 'EXPOSE 8181');
  t.same(config.Entrypoint?.slice(0, 3), ['node', 'bin/icefront.js', 'serve'], 'the entrypoint is icefront serve');
  t.same(config.Cmd, ['--config', '/etc/icefront/config.yaml'], 'the default command names the mounted config file');
  t.match(image!.Healthcheck?.Test?.join(' ') ?? '', /^CMD node -e .*\/healthz/, 'a HEALTHCHECK on /healthz with node (kept: docker format)');
  t.notOk(
    (config.Env ?? []).some((e) => e.startsWith('ICEFRONT_TOKEN_SECRET=')),
    'no token secret baked into the image (an unset one would silently mean unsigned plan tasks)',
  );

  // --- run it ----------------------------------------------------------------------------------
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'icefront-image-'));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  const configFile = path.join(dir, 'config.yaml');
  // server.host says 127.0.0.1, as in a config written for a laptop: the image must listen on
  // 0.0.0.0 anyway, or the published port would answer nothing. batch-size 1: plan tasks, signed
  // with the secret from the environment.
  fs.writeFileSync(
    configFile,
    [
      'server: { host: 127.0.0.1, port: 8181 }',
      'planning: { batch-size: 1, token-secret: "${ICEFRONT_TOKEN_SECRET}" }',
      'catalogs:',
      '  demo:',
      '    type: filesystem',
      '    warehouse: /var/lib/icefront/warehouse',
      '    read-only: true',
      '    locations:',
      '      "s3://icefront-demo/warehouse": /var/lib/icefront/warehouse',
      '',
    ].join('\n'),
  );
  const mounts = ['-v', `${configFile}:/etc/icefront/config.yaml:ro`, '-v', `${path.join(REPO, 'fixtures/warehouse')}:/var/lib/icefront/warehouse:ro`];
  // --read-only-tmpfs=false: not even /tmp, /run or /var/tmp writable (podman mounts tmpfs there by default)
  const hardening = ['--read-only', '--read-only-tmpfs=false', '--cap-drop=ALL', '--security-opt=no-new-privileges'];
  const name = `icefront-test-${process.pid}-${crypto.randomBytes(3).toString('hex')}`;
  t.teardown(async () => {
    await run('podman', ['rm', '--force', '--time', '0', name]);
  });
  await podman(t, ['run', '--detach', '--name', name, ...flags, ...hardening, '-p', '127.0.0.1::8181', '--env', 'ICEFRONT_TOKEN_SECRET', ...mounts, TAG], 0, {
    ...process.env,
    ICEFRONT_TOKEN_SECRET: TOKEN_SECRET,
  });
  const port = await podman(t, ['port', name, '8181/tcp']);
  const published = port.stdout.trim().split('\n')[0] ?? '';
  t.match(published, /^127\.0\.0\.1:\d+$/, 'the port is published on the loopback address only');
  const base = `http://${published}`;

  const logs = async () => {
    const res = await run('podman', ['logs', name]);
    return tail(res.stdout + res.stderr, 40);
  };
  try {
    await eventually('GET /healthz answers 200 through the published port', async () => (await fetch(`${base}/healthz`)).status === 200, 60_000);
  } catch (err) {
    return t.fail(`${(err as Error).message}; container logs:\n${await logs()}`);
  }
  t.match(await logs(), /Icefront is listening on http:\/\/0\.0\.0\.0:8181/, 'listens on 0.0.0.0:8181 although the config says 127.0.0.1');

  const healthz = await fetch(`${base}/healthz`);
  t.equal(healthz.status, 200, '/healthz 200');
  t.same(await healthz.json(), { status: 'ok' });
  const readyz = await fetch(`${base}/readyz`);
  t.equal(readyz.status, 200, '/readyz 200');
  t.equal(((await readyz.json()) as { status: string }).status, 'ready');

  const load = await fetch(`${base}${TABLE}`);
  t.equal(load.status, 200, 'load-table 200');
  const table = (await load.json()) as { 'metadata-location': string; metadata: { 'table-uuid': string; location: string } };
  t.equal(table.metadata['table-uuid'], fixtureTableUuid(), "the mounted warehouse's table");
  t.equal(table.metadata.location, 's3://icefront-demo/warehouse/sales/orders');
  t.match(table['metadata-location'], /^s3:\/\/icefront-demo\/warehouse\/sales\/orders\/metadata\/v\d+\.metadata\.json$/);

  const planRes = await fetch(`${base}${TABLE}/plan`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  t.equal(planRes.status, 200, 'POST …/plan 200');
  const plan = (await planRes.json()) as Plan;
  t.equal(plan.status, 'completed');
  t.ok((plan['file-scan-tasks'] ?? []).length > 0, 'the first batch of file-scan-tasks comes inline');
  t.ok((plan['plan-tasks'] ?? []).length > 0, 'batch-size 1 leaves plan tasks to redeem');
  const files = (plan['file-scan-tasks'] ?? []).map((task) => task['data-file']['file-path']);
  for (const planTask of plan['plan-tasks'] ?? []) {
    const res = await fetch(`${base}${TABLE}/tasks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ 'plan-task': planTask }) });
    t.equal(res.status, 200, 'POST …/tasks 200');
    const redeemed = (await res.json()) as Plan;
    files.push(...(redeemed['file-scan-tasks'] ?? []).map((task) => task['data-file']['file-path']));
  }
  t.same(files.sort(), await expectedDataFiles(t), 'the plan and its tasks give exactly the data files an in-process Icefront plans');
  // Plan-task strings are `<kind>.<payload>.<HMAC-SHA256 of kind.payload>` (src/tokens/envelope.ts):
  // signed with exactly the secret handed to the container, and an unsigned one is refused.
  const [kind, payload, tag] = plan['plan-tasks']![0]!.split('.');
  const expectedTag = crypto.createHmac('sha256', Buffer.from(TOKEN_SECRET, 'utf8')).update(`${kind}.${payload}`, 'latin1').digest('base64url');
  t.equal(tag, expectedTag, 'plan tasks are signed with ICEFRONT_TOKEN_SECRET from the environment');
  const unsigned = await fetch(`${base}${TABLE}/tasks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ 'plan-task': `${kind}.${payload}` }) });
  t.equal(unsigned.status, 404, 'an unsigned plan task is refused (the key is required)');

  // --- who runs it, its health check ----------------------------------------------------------
  const uid = await podman(t, ['exec', name, 'id', '-u']);
  t.not(uid.stdout.trim(), '0', `exec runs as a non-root uid (${uid.stdout.trim()})`);
  const status = await podman(t, ['exec', name, 'cat', '/proc/1/status']);
  const uids = /^Uid:\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)/m.exec(status.stdout);
  t.ok(uids, 'the server process (pid 1) has a Uid line');
  t.ok(uids && uids.slice(1).every((id) => id !== '0'), `the server process runs as a non-root uid (${uids?.slice(1).join(' ')})`);
  t.equal(uids?.[1], uid.stdout.trim(), 'the uid USER names');
  const cmdline = await podman(t, ['exec', name, 'cat', '/proc/1/cmdline']);
  t.match(cmdline.stdout.split('\0').join(' '), /^node bin\/icefront\.js serve/, 'pid 1 is node itself (it receives SIGTERM)');

  const write = await podman(t, ['exec', name, 'touch', '/tmp/probe'], null);
  t.not(write.code, 0, 'the root filesystem is read-only, /tmp included, and Icefront serves regardless');

  // No systemd here to run health checks on a timer: run it as the timer would.
  const health = await podman(t, ['healthcheck', 'run', name], null);
  t.equal(health.code, 0, `podman healthcheck run: healthy${health.code === 0 ? '' : `\n${health.stdout}${health.stderr}`}`);
  const state = await podman(t, ['inspect', name, '--format', '{{.State.Health.Status}}']);
  t.equal(state.stdout.trim(), 'healthy', 'the container is marked healthy');

  // --- SIGTERM drains and exits 0 ---------------------------------------------------------------
  await podman(t, ['stop', '--time', '30', name]);
  const exit = await podman(t, ['inspect', name, '--format', '{{.State.ExitCode}}']);
  t.equal(exit.stdout.trim(), '0', 'podman stop (SIGTERM): Icefront drains and exits 0');
  t.match(await logs(), /shutting down: no new connections/, 'it logged the graceful shutdown');
});
