/**
 * `icefront serve` as a process: graceful shutdown on SIGTERM (requests in flight finish, new
 * connections are refused, exit 0), a second signal, the grace period running out, SIGHUP
 * reloads, and a listen port that is taken.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import t, { type Test } from 'tap';
import { startUpstreamStub, type UpstreamStub } from './helpers/upstream-stub.js';
import { eventually, serveProcess, type ServeProcess } from './helpers/serve-process.js';
import { DEMO_WAREHOUSE } from './service/planning/helpers.js';

function tempDir(t: Test): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'icefront-serve-'));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A config file with one `rest` catalog `up` in front of `stub`. */
function upstreamConfig(dir: string, stub: UpstreamStub, graceMs: number): string {
  const file = path.join(dir, 'icefront.yaml');
  fs.writeFileSync(
    file,
    ['server:', `  shutdown-grace-ms: ${graceMs}`, 'planning: { workers: 0 }', 'logging: { level: info }', 'catalogs:', '  up:', '    type: rest', `    uri: ${stub.uri}`, ''].join('\n'),
  );
  return file;
}

/** A stub whose GET …/namespaces answers one namespace; `hold` keeps it waiting. */
async function namespacesStub(t: Test): Promise<UpstreamStub> {
  const stub = await startUpstreamStub();
  stub.respond = (req) => (req.url.endsWith('/namespaces') ? { status: 200, body: '{"namespaces":[["held"]]}' } : undefined);
  t.teardown(() => stub.close());
  return stub;
}

function start(t: Test, args: string[]): ServeProcess {
  const serve = serveProcess(args);
  t.teardown(() => {
    if (serve.child.exitCode === null && serve.child.signalCode === null) serve.child.kill('SIGKILL');
  });
  return serve;
}

/** Whether a new TCP connection to `url` is refused. */
function refused(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname);
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'ECONNREFUSED'));
  });
}

/**
 * `icefront serve` with `graceMs` of shutdown grace, one request held at its upstream (the stub
 * answers once released), and SIGTERM sent while it is in flight. `answer` settles with the
 * request's status, or 'failed' when it was cut.
 */
async function signalledWithRequestInFlight(t: Test, graceMs: number) {
  const stub = await namespacesStub(t);
  const serve = start(t, ['--config', upstreamConfig(tempDir(t), stub, graceMs), '--port', '0']);
  const url = await serve.listening;
  const hold = stub.hold(/\/namespaces$/);
  const response = fetch(`${url}/v1/up/namespaces`);
  const answer = response.then(
    (res) => res.status,
    () => 'failed' as const,
  );
  await hold.arrived;
  serve.child.kill('SIGTERM');
  return { serve, url, hold, response, answer };
}

t.test('SIGTERM: the request in flight finishes with 200, new connections are refused, exit 0', async (t) => {
  const { serve, url, hold, response } = await signalledWithRequestInFlight(t, 60_000);
  await eventually('new connections are refused', () => refused(url));
  hold.release();
  const res = await response;
  t.equal(res.status, 200, 'the request in flight was answered');
  t.same(await res.json(), { namespaces: [['held']] }, 'in full');
  t.equal(await serve.exited, 0, 'exit status 0');
});

t.test('a second SIGTERM while requests are in flight exits at once, with 1', async (t) => {
  // a grace period far longer than the test may run: only the second signal can end it
  const { serve, url, hold, answer } = await signalledWithRequestInFlight(t, 3_600_000);
  await eventually('the first signal was taken (no new connections)', () => refused(url));
  serve.child.kill('SIGTERM');
  t.equal(await serve.exited, 1, 'exit status 1');
  t.equal(await answer, 'failed', 'the request in flight was cut');
  t.match(serve.output(), /second signal: exiting now/);
  hold.release();
});

t.test('when the grace period runs out, the requests still in flight are cut and the exit status is 1', async (t) => {
  const { serve, hold, answer } = await signalledWithRequestInFlight(t, 200);
  t.equal(await serve.exited, 1, 'exit status 1');
  t.equal(await answer, 'failed', 'the request in flight was cut');
  t.match(serve.output(), /grace period over/);
  hold.release();
});

t.test('SIGHUP reloads the config file; an invalid one is refused with its file:line and the old one keeps serving', async (t) => {
  const dir = tempDir(t);
  const file = path.join(dir, 'icefront.yaml');
  const catalog = (name: string) => [`  ${name}:`, '    type: filesystem', `    warehouse: ${JSON.stringify(DEMO_WAREHOUSE)}`];
  const write = (names: string[]) => fs.writeFileSync(file, ['planning: { workers: 0 }', 'logging: { level: info }', 'catalogs:', ...names.flatMap(catalog), ''].join('\n'));
  write(['one']);
  const serve = start(t, ['--config', file, '--port', '0']);
  const url = await serve.listening;
  const served = async (name: string) => (await fetch(`${url}/v1/config?warehouse=${name}`)).status === 200;
  t.notOk(await served('two'), 'not served before the reload');

  write(['one', 'two']);
  serve.child.kill('SIGHUP');
  await eventually('catalog two is served', () => served('two'));

  fs.writeFileSync(file, ['catalogs:', '  one:', '    type: filesystem', '    warehouse: [not, a, path]', ''].join('\n'));
  serve.child.kill('SIGHUP');
  await eventually('the refusal is logged', async () => serve.output().includes('configuration reload refused'));
  const escaped = file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  t.match(serve.output(), new RegExp(`configuration reload refused, the running configuration stays: ${escaped}:4: `), 'it names the file and line');
  t.ok(await served('two'), 'the configuration before it still serves');
  t.ok(await served('one'));
  serve.child.kill('SIGTERM');
  t.equal(await serve.exited, 0);
});

t.test("/metrics of a served process carries the process's own figures (resident memory, file descriptors, event-loop delay), once", async (t) => {
  const dir = tempDir(t);
  const file = path.join(dir, 'icefront.yaml');
  fs.writeFileSync(file, ['planning: { workers: 0 }', 'catalogs:', '  one:', '    type: filesystem', `    warehouse: ${JSON.stringify(DEMO_WAREHOUSE)}`, ''].join('\n'));
  const serve = start(t, ['--config', file, '--port', '0']);
  const url = await serve.listening;
  const text = await (await fetch(`${url}/metrics`)).text();
  const value = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1]);
  const rss = value('process_resident_memory_bytes');
  const status = fs.readFileSync(`/proc/${serve.child.pid}/status`, 'utf8');
  const vmRss = Number(/^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1]) * 1024;
  t.ok(rss > 0 && Math.abs(rss - vmRss) / vmRss < 0.5, `resident memory ${rss} bytes, the kernel says ${vmRss}`);
  t.ok(value('process_open_fds') > 0, 'open file descriptors');
  t.ok(value('nodejs_heap_size_used_bytes') > 0, "the main thread's heap");
  t.match(text, /^nodejs_eventloop_lag_p99_seconds /m, 'event-loop delay');
  t.equal(text.match(/^# TYPE process_resident_memory_bytes /gm)?.length, 1, 'reported once');
  serve.child.kill('SIGTERM');
  t.equal(await serve.exited, 0);
});

t.test('a listen port that is taken: which address, and how to choose another, without a stack trace', async (t) => {
  const taken = net.createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  t.teardown(() => taken.close());
  const port = (taken.address() as net.AddressInfo).port;
  const dir = tempDir(t);
  const file = path.join(dir, 'icefront.yaml');
  fs.writeFileSync(file, ['planning: { workers: 0 }', 'catalogs:', '  one:', '    type: filesystem', `    warehouse: ${JSON.stringify(DEMO_WAREHOUSE)}`, ''].join('\n'));
  const serve = start(t, ['--config', file, '--port', String(port)]);
  t.equal(await serve.exited, 1, 'exit status 1');
  const out = serve.output();
  t.match(out, `icefront: 127.0.0.1:${port} is already in use`, 'names the address');
  t.match(out, '--port', 'says how to choose another port');
  t.match(out, 'server.port: 0');
  t.notMatch(out, /\bat [^\n]*:\d+:\d+\)?/, 'no stack trace');
});

t.test('a listen host that does not resolve: one line naming the address, exit 1, no stack (issue #32)', async (t) => {
  const dir = tempDir(t);
  const file = path.join(dir, 'icefront.yaml');
  fs.writeFileSync(file, ['planning: { workers: 0 }', 'catalogs:', '  one:', '    type: filesystem', `    warehouse: ${JSON.stringify(DEMO_WAREHOUSE)}`, ''].join('\n'));
  const serve = start(t, ['--config', file, '--host', 'example.invalid', '--port', '8181']);
  t.equal(await serve.exited, 1, 'exit status 1');
  const out = serve.output();
  // offline, the resolver may not answer at all (EAI_AGAIN) rather than say the name does not exist
  t.match(out, /(^|\n)icefront: cannot listen on example\.invalid:8181: the host name (does not resolve \(getaddrinfo ENOTFOUND\)|could not be looked up \(getaddrinfo EAI_AGAIN)/);
  t.match(out, '--host', 'says what to change');
  t.notMatch(out, /\bat [^\n]*:\d+:\d+\)?|Error: getaddrinfo/, 'no stack trace, no raw error');
});
