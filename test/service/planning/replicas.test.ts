import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { ICEFRONT_CLI } from '../../helpers/cli.js';
import { DEMO_WAREHOUSE } from './helpers.js';

/** Starts `icefront serve` on a free port and resolves with its base URL once it listens. */
function startIcefront(config: string, env: NodeJS.ProcessEnv): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [...ICEFRONT_CLI, 'serve', '--config', config, '--port', '0'], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`icefront did not start: ${out}`)), 30_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /Icefront is listening on (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ url: m[1]!, child });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`icefront exited with ${code}: ${out}`));
    });
  });
}

t.test('a plan task issued by one process is redeemed by a second process from the same config, byte for byte', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'icefront-replicas-'));
  const config = path.join(dir, 'icefront.yaml');
  fs.writeFileSync(
    config,
    [
      'planning:',
      '  batch-size: 2',
      '  token-secret: ${ICEFRONT_TOKEN_SECRET}',
      'logging: { level: warn }',
      'catalogs:',
      '  demo:',
      '    type: filesystem',
      `    warehouse: ${JSON.stringify(DEMO_WAREHOUSE)}`,
      `    locations: { "s3://icefront-demo/warehouse": ${JSON.stringify(DEMO_WAREHOUSE)} }`,
      '',
    ].join('\n'),
  );
  const env = { ICEFRONT_TOKEN_SECRET: 'replicas-share-this-secret' };
  const [a, b] = await Promise.all([startIcefront(config, env), startIcefront(config, env)]);
  t.teardown(() => {
    a.child.kill();
    b.child.kill();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const base = '/v1/demo/namespaces/sales/tables/returns';
  const plan = (await (await fetch(`${a.url}${base}/plan`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).json()) as {
    'plan-tasks': string[];
  };
  t.ok(plan['plan-tasks'].length > 0, 'plan tasks issued');
  for (const task of plan['plan-tasks']) {
    const redeem = (url: string) =>
      fetch(`${url}${base}/tasks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ 'plan-task': task }) });
    const [ra, rb] = await Promise.all([redeem(a.url), redeem(b.url)]);
    t.equal(rb.status, 200, 'the second process accepts the first one’s plan task');
    t.equal(await rb.text(), await ra.text(), 'identical bytes');
  }
});
