import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { planCommand } from '../src/cli-plan.js';
import { parseJson } from '../src/json/index.js';
import { runIcefront } from './helpers/cli.js';
import { validateAgainst } from './helpers/openapi.js';

const REPO = path.resolve(import.meta.dirname, '..');
const CONFIG = path.join(REPO, 'fixtures/test-config.yaml');

async function capture(args: string[]): Promise<string> {
  const lines: string[] = [];
  await planCommand(args, (l) => lines.push(l));
  return lines.join('\n');
}

t.test('plan prints each task with its deletes and a pruning summary', async (t) => {
  const out = await capture(['--config', CONFIG, 'demo', 'sales', 'returns']);
  t.match(out, /^Table sales\.returns in demo, snapshot \d+/);
  t.match(out, /- equality-deletes: s3:\/\/icefront-demo\/warehouse\/sales\/returns\//);
  t.match(out, /data files: 5 kept, 0 pruned/);
  t.match(out, /manifests: \d+ in the snapshot; read \d+ data \+ \d+ delete, skipped \d+/);
});

t.test('plan --filter shows pruned files and residuals', async (t) => {
  const out = await capture(['--config', CONFIG, 'demo', 'sales', 'orders', '--filter', '{"type":"lt","term":"order_id","value":5}']);
  const kept = Number(/data files: (\d+) kept, (\d+) pruned/.exec(out)![1]);
  const pruned = Number(/data files: (\d+) kept, (\d+) pruned/.exec(out)![2]);
  t.ok(kept > 0 && pruned > 0, `kept ${kept}, pruned ${pruned}`);
  t.match(out, /residual: \{"type":"lt","term":"order_id","value":5\}/);
});

t.test('plan --json prints the REST scan tasks plus the summary, with exact snapshot ids', async (t) => {
  const out = await capture(['--config', CONFIG, 'demo', 'events', 'clicks', '--json']);
  const body = parseJson(out) as { 'file-scan-tasks': unknown[]; 'delete-files'?: unknown[]; summary: { 'snapshot-id': bigint } };
  const tasks: Record<string, unknown> = { ...body };
  delete tasks['summary'];
  t.same(validateAgainst('ScanTasks', JSON.parse(JSON.stringify(tasks, (_k, v: unknown) => (typeof v === 'bigint' ? Number(v) : v)))), [], 'valid REST ScanTasks');
  t.equal(typeof body.summary['snapshot-id'], 'bigint', 'snapshot id kept beyond 2^53');
  t.ok(body['file-scan-tasks'].length > 0);
});

t.test('the icefront command runs plan and exits non-zero with an Iceberg error for an unknown table', async (t) => {
  const ok = await runIcefront(['plan', '--config', CONFIG, 'demo', 'legacy', 'inventory']);
  t.equal(ok.code, 0);
  t.match(ok.stdout, /Table legacy\.inventory in demo/);
  const bad = await runIcefront(['plan', '--config', CONFIG, 'demo', 'legacy', 'nope']);
  t.equal(bad.code, 1);
  t.match(bad.stderr, /NoSuchTableException \(404\)/);
});

t.test('plan --help prints the plan usage and plans nothing', async (t) => {
  const out = await capture(['--help']);
  t.match(out, /^Usage:\n  icefront plan \[--config FILE\] WAREHOUSE NAMESPACE TABLE/);
  t.notMatch(out, /icefront \[serve\]/, 'only this command');
  const run = await runIcefront(['plan', '--help']);
  t.equal(run.code, 0);
  t.equal(run.stdout, `${out}\n`);
  t.equal(run.stderr, '');
});

t.test("NAMESPACE levels are separated by %1F or 0x1F, never by '.': a dot belongs to a level's name (issue #32)", async (t) => {
  // the same table under a one-level namespace whose name holds a dot, and under db → sub
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'icefront-cli-')));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  const table = path.join(REPO, 'fixtures/warehouse/legacy/inventory');
  fs.cpSync(table, path.join(dir, 'wh/odd.name/inventory'), { recursive: true });
  fs.cpSync(table, path.join(dir, 'wh/db/sub/inventory'), { recursive: true });
  const config = path.join(dir, 'icefront.yaml');
  fs.writeFileSync(config, 'planning: { workers: 0 }\ncatalogs:\n  demo: { type: filesystem, warehouse: ./wh }\n');
  t.match(await capture(['--config', config, 'demo', 'odd.name', 'inventory']), /^Table odd\.name\.inventory in demo, snapshot \d+/, 'odd.name is one level');
  t.match(await capture(['--config', config, 'demo', 'db%1Fsub', 'inventory']), /^Table db\.sub\.inventory in demo, snapshot \d+/, '%1F separates levels');
  t.match(await capture(['--config', config, 'demo', 'db%1fsub', 'inventory']), /^Table db\.sub\.inventory/, 'in either case');
  t.match(await capture(['--config', config, 'demo', 'db\x1fsub', 'inventory']), /^Table db\.sub\.inventory/, 'so does the 0x1F character');
  await t.rejects(capture(['--config', config, 'demo', 'db.sub', 'inventory']), { code: 'NO_SUCH_TABLE', message: /separate levels with %1F/ }, 'db.sub is the single level "db.sub"');
  const help = await capture(['--help']);
  t.match(help, /separated by %1F/);
  t.notMatch(help, /separated\s+by '\.'/, "the help no longer says '.' separates levels");
});

t.test('a plan command line it cannot run exits 2 with the plan usage', async (t) => {
  for (const args of [['plan', 'demo', 'sales'], ['plan', '--nope', 'demo', 'sales', 'orders']]) {
    const run = await runIcefront(args);
    t.equal(run.code, 2, args.join(' '));
    t.match(run.stderr, /^icefront: .+\n\nUsage:\n  icefront plan /);
  }
});

t.test('plan outside the repository without --config names the missing default and how to pass one', async (t) => {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'icefront-cli-')));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  const run = await runIcefront(['plan', 'demo', 'sales', 'orders'], { cwd: dir });
  t.equal(run.code, 2);
  t.match(run.stderr, `no --config given and no config.example.yaml here: ${path.join(dir, 'config.example.yaml')} does not exist. Pass one with --config FILE`);
  t.notMatch(run.stderr, /ENOENT|\n\s+at /, 'no raw error or stack');
});
