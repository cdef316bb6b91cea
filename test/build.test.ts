/**
 * The compiled build as a user installs it (issue #13, item 1): `npm pack` in a copy of the
 * repository (its `prepare` script compiles src/ into dist/), the tarball installed into an
 * empty folder, and the installed `icefront` run there: `--help`, then `serve` answering
 * /healthz, /v1/config and a plan (its planning worker loads dist's .js) with no TypeScript
 * loader anywhere in the process.
 *
 * The install resolves the package's dependencies like any user's (`--prefer-offline`: from
 * npm's cache where it has them).
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';

const REPO = path.resolve(import.meta.dirname, '..');
const FIXTURES = path.join(REPO, 'fixtures/warehouse');

t.setTimeout(10 * 60_000);

/**
 * A user's environment, without the test runner's. Its NODE_OPTIONS (its loaders) is put back
 * into every process the runner spawns, so commands run through `env -u NODE_OPTIONS`.
 */
const ENV = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(NODE_OPTIONS|TAP|_TAPJS|TS_NODE)/.test(k)));
const asUser = (command: string, args: readonly string[]): [string, string[]] => ['env', ['-u', 'NODE_OPTIONS', command, ...args]];

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

function run(command: string, args: readonly string[], cwd: string): Promise<Run> {
  return new Promise((resolve) => {
    execFile(...asUser(command, args), { cwd, env: ENV, maxBuffer: 16 << 20, timeout: 5 * 60_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr }),
    );
  });
}

/** The files `npm pack` needs from the repository, copied; node_modules linked (tsc and types). */
function stageRepository(dir: string): void {
  for (const entry of ['package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json', 'README.md', 'bin', 'docs', 'src'])
    fs.cpSync(path.join(REPO, entry), path.join(dir, entry), { recursive: true });
  fs.symlinkSync(fs.realpathSync(path.join(REPO, 'node_modules')), path.join(dir, 'node_modules'), 'dir');
}

/** Processes whose parent is `pid` (Linux /proc), with their command lines. */
function childrenOf(pid: number): string[] {
  const children: string[] = [];
  for (const task of fs.readdirSync(`/proc/${pid}/task`)) {
    for (const child of fs.readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean))
      children.push(fs.readFileSync(`/proc/${child}/cmdline`, 'utf8').replaceAll('\0', ' ').trim());
  }
  return children;
}

function listening(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => reject(new Error(`icefront did not start:\n${out}${err}`)), 60_000);
    child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /Icefront is listening on (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`icefront exited with ${code}:\n${out}${err}`));
    });
  });
}

const work = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'icefront-build-')));
t.teardown(() => fs.rmSync(work, { recursive: true, force: true }));
const stage = path.join(work, 'repository');
const packs = path.join(work, 'packs');
const app = path.join(work, 'app');
for (const dir of [stage, packs, app]) fs.mkdirSync(dir);
let tarball = path.join(packs, 'not-packed.tgz');

// The subtests run in order, each on what the one before made.
t.test('npm pack builds and packs a copy of the repository', async (t) => {
  stageRepository(stage);
  const packed = await run('npm', ['pack', '--pack-destination', packs], stage);
  t.equal(packed.code, 0, 'npm pack (running prepare: the build) succeeds', { stderr: packed.stderr });
  const tarballs = fs.readdirSync(packs).filter((f) => f.endsWith('.tgz'));
  t.equal(tarballs.length, 1, 'one tarball');
  if (tarballs[0]) tarball = path.join(packs, tarballs[0]);
});

t.test('the tarball holds the bin and the compiled build, not the sources', async (t) => {
  const listed = await run('tar', ['-tzf', tarball], work);
  t.equal(listed.code, 0);
  const files = listed.stdout.split('\n').filter(Boolean);
  for (const f of ['package/bin/icefront.js', 'package/dist/cli.js', 'package/dist/service/engine/planning-worker.js', 'package/docs/configuration.md', 'package/package.json'])
    t.ok(files.includes(f), f);
  t.same(files.filter((f) => /^package\/(src|test|bench|tools|fixtures)\//.test(f) || f.endsWith('.ts')), [], 'no sources, tests or fixtures');
});

t.test('the tarball installs into an empty folder', async (t) => {
  const installed = await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball], app);
  t.equal(installed.code, 0, 'npm install TARBALL', { stderr: installed.stderr });
  t.ok(fs.existsSync(path.join(app, 'node_modules/.bin/icefront')), 'the icefront bin is linked');
});

t.test('the install has no TypeScript loader, and its icefront --help works', async (t) => {
  for (const loader of ['tsx', 'esbuild', 'typescript']) t.notOk(fs.existsSync(path.join(app, 'node_modules', loader)), `no ${loader} installed`);
  const help = await run('npx', ['icefront', '--help'], app);
  t.equal(help.code, 0, 'npx icefront --help', { stderr: help.stderr });
  t.match(help.stdout, /^Usage:\n  icefront \[serve\]/);
  t.match(help.stdout, /icefront plan/);
});

t.test('the installed icefront serves /healthz, /v1/config and a plan, from dist/ with no tsx or esbuild', async (t) => {
  const config = path.join(app, 'icefront.yaml');
  fs.writeFileSync(
    config,
    `server: { port: 0 }\nlogging: { level: warn }\ncatalogs:\n  demo: { type: filesystem, warehouse: ${JSON.stringify(FIXTURES)}, locations: { "s3://icefront-demo/warehouse": ${JSON.stringify(FIXTURES)} } }\n`,
  );
  // env and the bin's `#!/usr/bin/env node` exec in place: the child's pid is the server's
  // TSX_DISABLE_CACHE: were tsx loaded, it would transform every file through its esbuild
  // child process (with its cache warm it may start none), which the check below looks for
  const env = { ...ENV, TSX_DISABLE_CACHE: '1' };
  const child = spawn(...asUser(path.join(app, 'node_modules/.bin/icefront'), ['serve', '--config', config]), { cwd: app, env, stdio: ['ignore', 'pipe', 'pipe'] });
  t.teardown(() => void child.kill('SIGKILL'));
  const url = await listening(child);

  const health = await fetch(`${url}/healthz`);
  t.equal(health.status, 200, '/healthz');
  const config200 = await fetch(`${url}/v1/config?warehouse=demo`);
  t.equal(config200.status, 200, '/v1/config');
  t.match(await config200.json(), { overrides: { prefix: 'demo' } });
  const plan = await fetch(`${url}/v1/demo/namespaces/sales/tables/orders/plan`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  t.equal(plan.status, 200, 'a plan, decoded in a planning worker');
  t.match(await plan.json(), { status: 'completed', 'file-scan-tasks': Array });

  await t.test('with no TypeScript loader in the server process', { skip: process.platform === 'linux' ? false : 'reads /proc (Linux)' }, async (t) => {
    const pid = child.pid!;
    const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    t.match(cmdline[1], /node_modules\/\.bin\/icefront$/, `the server runs the installed bin: ${cmdline.join(' ')}`);
    t.same(cmdline.filter((a) => /^--(import|loader|experimental-loader|require)|^-r$|tsx/.test(a)), [], 'no loader on the command line');
    t.same(childrenOf(pid).filter((c) => /esbuild|tsx/.test(c)), [], 'no esbuild (or tsx) process under the server');
    const options = fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter((v) => v.startsWith('NODE_OPTIONS='));
    t.same(options.filter((v) => /tsx|--import|--loader/.test(v)), [], 'no loader in NODE_OPTIONS');
  });

  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  t.equal(await exited, 0, 'SIGTERM stops it');
});
