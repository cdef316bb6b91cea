/**
 * Reload without restart, in-process: a real Icefront listening on loopback with its config file
 * on disk, real upstream stubs. Added catalogs are served, a changed upstream URI takes the next
 * requests, an invalid file or a restart-only change is refused and the old config serves, and a
 * request in flight across a reload finishes on the upstream it started with.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t, { type Test } from 'tap';
import { loadConfigFile } from '../src/config/index.js';
import { startIcefront, type RunningIcefront } from '../src/main.js';
import { createLogger } from '../src/observability/index.js';
import { logLines } from './helpers/log-lines.js';
import { startUpstreamStub, type UpstreamStub } from './helpers/upstream-stub.js';
import { DEMO_WAREHOUSE } from './service/planning/helpers.js';

type Entry = { name: string; uri?: string };

/** The YAML of a config whose catalogs are filesystem demos, or `rest` when given a uri. */
function yaml(entries: readonly Entry[], extra: readonly string[] = []): string {
  const lines = ['planning: { workers: 0 }', ...extra, 'catalogs:'];
  for (const e of entries) {
    lines.push(`  ${e.name}:`);
    if (e.uri) lines.push('    type: rest', `    uri: ${e.uri}`);
    else lines.push('    type: filesystem', `    warehouse: ${JSON.stringify(DEMO_WAREHOUSE)}`, '    read-only: true');
  }
  return `${lines.join('\n')}\n`;
}

async function running(t: Test, entries: readonly Entry[]): Promise<{ icefront: RunningIcefront; file: string; write: (text: string) => void; lines: Record<string, unknown>[] }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'icefront-reload-'));
  const file = path.join(dir, 'icefront.yaml');
  const write = (text: string) => fs.writeFileSync(file, text);
  write(yaml(entries));
  const { lines, destination } = logLines();
  const icefront = await startIcefront(loadConfigFile(file), { port: 0, logger: createLogger({ level: 'info', destination }) });
  t.teardown(async () => {
    await icefront.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return { icefront, file, write, lines };
}

async function namespacesStub(t: Test, name: string): Promise<UpstreamStub> {
  const stub = await startUpstreamStub();
  stub.respond = (req) => (req.url.endsWith('/namespaces') ? { status: 200, body: JSON.stringify({ namespaces: [[name]] }) } : undefined);
  t.teardown(() => stub.close());
  return stub;
}

const status = async (url: string) => (await fetch(url)).status;
const listed = async (url: string) => ((await (await fetch(url)).json()) as { namespaces: string[][] }).namespaces;

t.test('a catalog added to the file is served after a reload; the others stay', async (t) => {
  const { icefront, write } = await running(t, [{ name: 'one' }]);
  t.equal(await status(`${icefront.url}/v1/config?warehouse=two`), 404, 'not served before');
  write(yaml([{ name: 'one' }, { name: 'two' }]));
  const outcome = await icefront.reload();
  t.same(outcome, { applied: true, added: ['two'], changed: [], removed: [], kept: ['one'] });
  t.equal(await status(`${icefront.url}/v1/config?warehouse=two`), 200, 'served after');
  t.equal(await status(`${icefront.url}/v1/two/namespaces/sales/tables/returns`), 200);
  t.equal(await status(`${icefront.url}/v1/one/namespaces/sales/tables/returns`), 200);

  write(yaml([{ name: 'two' }]));
  t.match(await icefront.reload(), { applied: true, removed: ['one'] });
  t.equal(await status(`${icefront.url}/v1/one/namespaces/sales/tables/returns`), 404, 'a removed catalog is gone');
});

t.test('an upstream URI changed in the file: the next requests go to the new upstream', async (t) => {
  const a = await namespacesStub(t, 'from-a');
  const b = await namespacesStub(t, 'from-b');
  const { icefront, write } = await running(t, [{ name: 'up', uri: a.uri }]);
  t.same(await listed(`${icefront.url}/v1/up/namespaces`), [['from-a']]);
  write(yaml([{ name: 'up', uri: b.uri }]));
  t.match(await icefront.reload(), { applied: true, changed: ['up'] });
  const listings = () => a.requests.filter((r) => r.url.endsWith('/namespaces')).length;
  const before = listings();
  t.same(await listed(`${icefront.url}/v1/up/namespaces`), [['from-b']], 'answered by the new upstream');
  t.equal(listings(), before, 'the old upstream saw nothing more');
});

t.test('an invalid file is refused with its file:line, logged, and the running config keeps serving', async (t) => {
  const { icefront, file, write, lines } = await running(t, [{ name: 'one' }]);
  write('catalogs:\n  one:\n    type: filesystem\n    warehouse: [not, a, path]\n');
  const outcome = await icefront.reload();
  t.equal(outcome.applied, false);
  t.match(outcome, { error: `${file}:4: catalogs.one.warehouse` }, 'the same file:line message as at start');
  t.throws(() => loadConfigFile(file), { message: outcome.applied ? '' : outcome.error }, 'exactly what start-up says');
  const logged = lines.find((l) => String(l.msg).startsWith('configuration reload refused'));
  t.ok(logged, 'logged');
  t.equal(logged?.level, 50, 'as an error');
  t.match(String(logged?.msg), `${file}:4:`);
  t.equal(await status(`${icefront.url}/v1/one/namespaces/sales/tables/returns`), 200, 'the old config serves');
});

t.test('a change only a restart applies is refused, naming the key but not its value', async (t) => {
  const { icefront, write } = await running(t, [{ name: 'one' }]);
  write(yaml([{ name: 'one' }, { name: 'two' }], ['server: { port: 9999 }', 'logging: { level: warn }']));
  const outcome = await icefront.reload();
  t.equal(outcome.applied, false);
  t.match(outcome, { error: /server\.port, logging\.level changed, which only a restart applies; nothing was reloaded/ });
  t.notMatch(outcome.applied ? '' : outcome.error, /9999/, 'no value is quoted');
  t.equal(await status(`${icefront.url}/v1/config?warehouse=two`), 404, 'nothing of the file was applied');
});

t.test('a request in flight across a reload finishes on the upstream it started with', async (t) => {
  const a = await namespacesStub(t, 'from-a');
  const b = await namespacesStub(t, 'from-b');
  const { icefront, write } = await running(t, [{ name: 'up', uri: a.uri }]);
  const hold = a.hold(/\/namespaces$/);
  const inFlight = listed(`${icefront.url}/v1/up/namespaces`);
  await hold.arrived;
  write(yaml([{ name: 'up', uri: b.uri }]));
  t.match(await icefront.reload(), { applied: true, changed: ['up'] });
  t.same(await listed(`${icefront.url}/v1/up/namespaces`), [['from-b']], 'a request after the reload goes to the new upstream');
  hold.release();
  t.same(await inFlight, [['from-a']], 'the request in flight finished on the old one');
});
