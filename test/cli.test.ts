import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t, { type Test } from 'tap';
import { runIcefront } from './helpers/cli.js';

const REPO = path.resolve(import.meta.dirname, '..');

function tempDir(t: Test): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'icefront-cli-')));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

t.test('--help prints every command; serve --help and help serve print only serve, exit 0, start nothing', async (t) => {
  const all = await runIcefront(['--help']);
  t.equal(all.code, 0);
  t.match(all.stdout, /^Usage:\n  icefront \[serve\] \[--config FILE\]/);
  t.match(all.stdout, /\n  icefront plan \[--config FILE\]/);
  for (const args of [['serve', '--help'], ['--port', '0', '-h'], ['help', 'serve']]) {
    const one = await runIcefront(args);
    t.equal(one.code, 0, args.join(' '));
    t.match(one.stdout, /^Usage:\n  icefront \[serve\] \[--config FILE\] \[--port N\] \[--host HOST\]\n/, args.join(' '));
    t.notMatch(one.stdout, /icefront plan|listening/, 'only serve, and nothing served');
  }
});

t.test('an unknown option exits 2 with the serve usage; an unknown command with the full usage', async (t) => {
  const option = await runIcefront(['serve', '--nope']);
  t.equal(option.code, 2);
  t.match(option.stderr, /^icefront: Unknown option '--nope'.*\n\nUsage:\n  icefront \[serve\]/s);
  t.notMatch(option.stderr, /icefront plan/);
  const command = await runIcefront(['nope']);
  t.equal(command.code, 2);
  t.match(command.stderr, /^icefront: unknown command: nope\n\nUsage:\n[^]*icefront plan/);
});

t.test('serve outside the repository without --config names the missing default and how to pass one', async (t) => {
  const dir = tempDir(t);
  const run = await runIcefront(['serve'], { cwd: dir });
  t.equal(run.code, 2);
  t.match(run.stderr, `icefront: no --config given and no config.example.yaml here: ${path.join(dir, 'config.example.yaml')} does not exist. Pass one with --config FILE`);
  t.notMatch(run.stderr, /ENOENT|\n\s+at /, 'no raw error or stack');
  const given = await runIcefront(['serve', '--config', 'elsewhere.yaml'], { cwd: dir });
  t.equal(given.code, 2);
  t.match(given.stderr, `icefront: no config file at ${path.join(dir, 'elsewhere.yaml')}. Pass one with --config FILE`);
});

t.test('an invalid config exits 2 naming the key and line', async (t) => {
  const run = await runIcefront(['serve', '--config', path.join(REPO, 'package.json')]);
  t.equal(run.code, 2);
  // not a config at all: every key is a problem, so they come as a list (issue #32)
  t.match(run.stderr, /^icefront: invalid configuration, \d+ problems:\n  .*package\.json:\d+: /);
});

t.test('a filesystem warehouse that is not there is refused at start with its line and resolved path', async (t) => {
  const dir = tempDir(t);
  fs.writeFileSync(path.join(dir, 'icefront.yaml'), 'server: { port: 0 }\ncatalogs:\n  demo: { type: filesystem, warehouse: ./nowhere }\n');
  const run = await runIcefront(['serve', '--config', 'icefront.yaml'], { cwd: dir });
  t.equal(run.code, 2);
  t.equal(run.stderr, `icefront: invalid configuration: ${path.join(dir, 'icefront.yaml')}:3: catalogs.demo.warehouse: the folder ${path.join(dir, 'nowhere')} does not exist (a relative path is resolved against the config file's folder)\n`);
  t.notMatch(run.stdout, /listening/);
});

// the machines this runs on ship Debian's Node 20 as /usr/bin/node (README, supported lines)
const OLD_NODE = '/usr/bin/node';
const oldNodeVersion = fs.existsSync(OLD_NODE) ? execFileSync(OLD_NODE, ['--version'], { encoding: 'utf8' }).trim() : undefined;
const withoutSqlite = oldNodeVersion !== undefined && /^v(?:1\d|20|21|22\.(?:\d|1[0-2])\.)/.test(oldNodeVersion);

t.test(
  'a sqlite: sql catalog on a Node.js without node:sqlite (Node 20) is refused at start, naming the line, the version needed and the one running',
  { skip: withoutSqlite ? false : `needs a Node.js older than 22.13 at ${OLD_NODE}; found ${oldNodeVersion ?? 'none'}` },
  async (t) => {
    const dir = tempDir(t);
    const file = path.join(dir, 'icefront.yaml');
    fs.writeFileSync(file, 'server: { port: 0 }\ncatalogs:\n  lake:\n    type: sql\n    uri: sqlite:catalog.db\n    warehouse-location: ./warehouse\n');
    const run = await runIcefront(['serve', '--config', file], { cwd: dir, node: OLD_NODE });
    t.equal(run.code, 2);
    t.equal(
      run.stderr,
      `icefront: invalid configuration: ${file}:5: catalogs.lake.uri: a sqlite: database needs Node.js 22.13 or newer, whose built-in node:sqlite is the driver; this is Node.js ${oldNodeVersion} (run a newer Node.js, or use a postgresql:// uri)\n`,
    );
    t.notOk(fs.existsSync(path.join(dir, 'warehouse')), 'nothing made');
  },
);

t.test('--version prints the version in package.json and exits 0', async (t) => {
  const { version } = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { version: string };
  const run = await runIcefront(['--version']);
  t.equal(run.code, 0);
  t.equal(run.stdout, `${version}\n`);
  t.equal(run.stderr, '');
  t.match((await runIcefront(['--help'])).stdout, /\n  icefront --version\n/, 'the usage lists it');
});

t.test('a config with several problems: all of them, one line each, exit 2 (issue #32)', async (t) => {
  const dir = tempDir(t);
  const file = path.join(dir, 'icefront.yaml');
  fs.writeFileSync(file, 'server: { prot: 0 }\ncatalogs:\n  lake:\n    type: rest\n    uri: "${LAKE_URI_UNSET_IN_TEST}"\n  planning:\n    batch-size: 10\n');
  const run = await runIcefront(['serve', '--config', file], { cwd: dir });
  t.equal(run.code, 2);
  t.equal(
    run.stderr,
    [
      'icefront: invalid configuration, 3 problems:',
      `  ${file}:1: server.prot: unknown key (did you mean \`port\`?)`,
      `  ${file}:5: catalogs.lake.uri: environment variable LAKE_URI_UNSET_IN_TEST is not set`,
      `  ${file}:6: catalogs.planning: looks like the top-level 'planning' block, indented under catalogs by mistake; catalogs holds one entry per catalog, each with a 'type'`,
      '',
    ].join('\n'),
  );
  t.equal(run.stdout, '');
});
