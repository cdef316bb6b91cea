/**
 * An upstream that goes away takes nothing else down (issue #38). Icefront as a real process
 * (`icefront serve`, real sockets: the failure needs a real IncomingMessage), a `rest` catalog in
 * front of a stub that answered its /v1/config and then stopped, and a `filesystem` catalog
 * beside it. Every route of the spec under the upstream's prefix, each method, is sent with a
 * body where the method carries one: each is answered with an ErrorModel (503 where the request
 * had to reach the upstream), and after each the process still answers /healthz and the
 * filesystem catalog. Before the fix, the first streamed request with a body killed the process:
 * undici destroys a request body it cannot send after nulling the stream's `socket`, and
 * http-proxy-3's `error` listener on the client's request read `req.socket.destroyed`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { SPEC_PATHS } from '../../../src/http/spec-paths.js';
import { validateAgainst } from '../../helpers/openapi.js';
import { startUpstreamStub } from '../../helpers/upstream-stub.js';
import { serveProcess } from '../../helpers/serve-process.js';
import { DEMO_WAREHOUSE } from '../../service/planning/helpers.js';

/** A body of the shape each POST/PUT route takes (the upstream never sees it: it is down). */
function bodyFor(specPath: string): string {
  if (specPath.endsWith('/rename')) return JSON.stringify({ source: { namespace: ['ns'], name: 't' }, destination: { namespace: ['ns'], name: 'u' } });
  if (specPath.endsWith('/transactions/commit')) return JSON.stringify({ 'table-changes': [{ identifier: { namespace: ['ns'], name: 't' }, requirements: [], updates: [] }] });
  if (specPath.endsWith('/plan')) return '{}';
  if (specPath.endsWith('/tasks')) return JSON.stringify({ 'plan-task': 'not-a-task' });
  if (specPath.endsWith('/namespaces')) return JSON.stringify({ namespace: ['scratch'], properties: {} });
  if (specPath.endsWith('/properties')) return JSON.stringify({ removals: [], updates: { owner: 'x' } });
  if (specPath.endsWith('/metrics')) return JSON.stringify({ 'report-type': 'scan-report', 'table-name': 'ns.t', 'snapshot-id': 1, filter: true, 'schema-id': 0, 'projected-field-ids': [], 'projected-field-names': [], metrics: {} });
  return JSON.stringify({ requirements: [], updates: [] });
}

/** The spec path with its placeholders filled: prefix `up`, namespace `ns`, table `t`… */
function concrete(specPath: string): string {
  return specPath.replace('{prefix}', 'up').replace('{namespace}', 'ns').replace('{table}', 't').replace('{view}', 'v').replace('{plan-id}', 'p1').replace('{function}', 'f');
}

t.test('an upstream that went down: every route under its prefix is answered with an ErrorModel and the process lives on', async (t) => {
  const stub = await startUpstreamStub();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'icefront-gone-'));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  const config = path.join(dir, 'icefront.yaml');
  fs.writeFileSync(
    config,
    ['planning: { workers: 0 }', 'catalogs:', '  up:', '    type: rest', `    uri: ${stub.uri}`, '  demo:', '    type: filesystem', `    warehouse: ${JSON.stringify(DEMO_WAREHOUSE)}`, '    read-only: true', ''].join('\n'),
  );
  const serve = serveProcess(['--config', config, '--port', '0']);
  t.teardown(() => {
    if (serve.child.exitCode === null && serve.child.signalCode === null) serve.child.kill('SIGKILL');
  });
  const url = await serve.listening;
  t.equal((await fetch(`${url}/v1/config?warehouse=up`)).status, 200, "the upstream's /v1/config is read while it runs");
  await stub.close();

  const alive = async (): Promise<boolean> => {
    try {
      const [health, demo] = await Promise.all([fetch(`${url}/healthz`), fetch(`${url}/v1/demo/namespaces`)]);
      return health.status === 200 && demo.status === 200;
    } catch {
      return false;
    }
  };
  const routes = SPEC_PATHS.filter((p) => p.path.startsWith('/v1/{prefix}/')).flatMap((p) => p.methods.map((method) => ({ method, specPath: p.path })));
  t.ok(routes.length >= 30, `${routes.length} routes under the prefix`);
  for (const { method, specPath } of routes) {
    const name = `${method} ${specPath}`;
    const carriesBody = method === 'POST' || method === 'PUT';
    let res: Response;
    try {
      res = await fetch(`${url}${concrete(specPath)}`, {
        method,
        ...(carriesBody && { body: bodyFor(specPath), headers: { 'content-type': 'application/json' } }),
        signal: AbortSignal.timeout(10_000),
      });
    } catch (err) {
      t.fail(`${name}: no answer (${(err as Error).message})`, { output: serve.output().slice(-2000) });
      break;
    }
    const text = await res.text();
    // cancelling a plan Icefront keeps no state for is answered by Icefront alone (204)
    if (name === 'DELETE /v1/{prefix}/namespaces/{namespace}/tables/{table}/plan/{plan-id}') t.equal(res.status, 204, `${name}: 204`);
    else t.ok(res.status >= 400, `${name}: an error status (${res.status})`);
    if (method !== 'HEAD' && res.status !== 204) {
      const body = JSON.parse(text) as { error?: { code?: unknown } };
      t.same(validateAgainst('IcebergErrorResponse', body), [], `${name}: a valid IcebergErrorResponse`, { body: text });
      t.equal(body.error?.code, res.status, `${name}: its code is the status`);
      // what has to reach the upstream finds it gone; Icefront refuses a forged plan task or an
      // unknown plan id itself (404), and a route the spec defines but no catalog serves is 406
      if (res.status !== 404 && res.status !== 406) t.equal(res.status, 503, `${name}: 503, the upstream is unavailable`, { body: text });
    }
    if (!(await alive())) {
      t.fail(`${name}: the process stopped answering`, { output: serve.output().slice(-2000) });
      break;
    }
  }
  t.ok(await alive(), 'the process still answers /healthz and the filesystem catalog');
  serve.child.kill('SIGTERM');
  t.equal(await serve.exited, 0, 'and exits cleanly when told to');
});
