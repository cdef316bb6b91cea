import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import t from 'tap';
import { planCommand } from '../src/cli-plan.js';
import { parseJson } from '../src/iceberg/index.js';
import { validateAgainst } from './helpers/openapi.js';

const REPO = path.resolve(import.meta.dirname, '..');
const CONFIG = path.join(REPO, 'fixtures/test-config.yaml');
const run = promisify(execFile);

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

t.test('the icefront binary runs plan and exits non-zero with an Iceberg error for an unknown table', async (t) => {
  const bin = path.join(REPO, 'bin/icefront.js');
  const ok = await run(process.execPath, [bin, 'plan', '--config', CONFIG, 'demo', 'legacy', 'inventory']);
  t.match(ok.stdout, /Table legacy\.inventory in demo/);
  const bad = await run(process.execPath, [bin, 'plan', '--config', CONFIG, 'demo', 'legacy', 'nope']).then(
    () => undefined,
    (err: { code: number; stderr: string }) => err,
  );
  t.equal(bad?.code, 1);
  t.match(bad?.stderr, /NoSuchTableException \(404\)/);
});

t.test('an invalid config makes the binary exit 2 naming the key and line', async (t) => {
  const bin = path.join(REPO, 'bin/icefront.js');
  const err = await run(process.execPath, [bin, 'serve', '--config', path.join(REPO, 'package.json')]).then(
    () => undefined,
    (e: { code: number; stderr: string }) => e,
  );
  t.equal(err?.code, 2);
  t.match(err?.stderr, /invalid configuration: .*package\.json:\d+: /);
});
