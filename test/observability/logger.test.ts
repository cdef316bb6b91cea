import fc from 'fast-check';
import t from 'tap';
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { Writable } from 'node:stream';
import { createLogger, jsonString, lazyChild, LineFields, writeLine, type Logger } from '../../src/observability/index.js';
import { logLines } from '../helpers/log-lines.js';

/** The parent's `child` counted: the point of lazyChild is that most requests never call it. */
function counted(level: string): { logger: Logger; lines: Record<string, unknown>[]; children: () => number } {
  const { lines, destination } = logLines();
  const logger = createLogger({ level, destination });
  let made = 0;
  const child = logger.child;
  // pino's children inherit from their parent: the spy keeps `this`, so a child's own children still work
  logger.child = function (this: Logger, ...args: Parameters<Logger['child']>) {
    made++;
    return child.apply(this, args);
  } as Logger['child'];
  return { logger, lines, children: () => made };
}

t.test('a lazy child is made only when a line is written through it', async (t) => {
  const { logger, lines, children } = counted('info');
  const lazy = lazyChild(logger, { reqId: 'r-1', catalog: 'demo' });
  // what fastify does with every request's logger: checks its methods and asks its level
  for (const method of ['info', 'error', 'debug', 'fatal', 'warn', 'trace', 'child'] as const) t.equal(typeof lazy[method], 'function');
  t.equal(lazy.level, 'info');
  t.equal(lazy.isLevelEnabled('debug'), false);
  lazy.debug('below the level');
  t.equal(children(), 0, 'no child for method checks, level reads or a disabled level');
  lazy.info({ headers: { authorization: 'Bearer secret-token' } }, 'hello');
  lazy.warn('again');
  t.equal(children(), 1, 'one child, made once');
  t.equal(lines.length, 2);
  t.match(lines[0], { reqId: 'r-1', catalog: 'demo', msg: 'hello', headers: { authorization: '[Redacted]' } }, 'bindings and redaction as a real child');
  t.match(lines[1], { reqId: 'r-1', msg: 'again' });
});

t.test('a child of a lazy child carries both bindings', async (t) => {
  const { logger, lines } = counted('info');
  const lazy = lazyChild(lazyChild(logger, { reqId: 'r-2' }), { table: 'orders' });
  lazy.child({ step: 'plan' }).info('planned');
  t.match(lines[0], { reqId: 'r-2', table: 'orders', step: 'plan', msg: 'planned' });
});

/** What a process that logs through the default stdout destination wrote (`script` runs with `createLogger` in scope), however it ended. */
function stdoutOf(script: string): Promise<string> {
  const logger = new URL('../../src/observability/logger.ts', import.meta.url).href;
  const source = `import { createLogger } from ${JSON.stringify(logger)};\n${script}`;
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', import.meta.resolve('tsx'), '--input-type=module', '-e', source], { timeout: 30_000 }, (_err, stdout) => resolve(stdout));
  });
}

t.test('stdout lines are batched, yet every line reaches stdout in order when the process exits at once', async (t) => {
  // more than one batch, and an exit with the last one still gathered (no event loop turn after)
  const out = await stdoutOf(`const log = createLogger({ level: 'info' });
    for (let i = 0; i < 300; i++) log.info({ i }, 'line');
    process.exit(0);`);
  const numbers = out.trim().split('\n').map((l) => (JSON.parse(l) as { i: number }).i);
  t.same(numbers, Array.from({ length: 300 }, (_, i) => i));
});

t.test('a quiet process still writes its few lines within the flush interval, with ISO times', async (t) => {
  // killed 1.5 s after its one line: no exit flush runs, so the line came from the interval's
  const out = await stdoutOf(`const log = createLogger({ level: 'info' });
    log.info('one');
    setTimeout(() => process.kill(process.pid, 'SIGKILL'), 1500);`);
  const line = JSON.parse(out.trim()) as { msg: string; time: string };
  t.equal(line.msg, 'one');
  t.match(line.time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
});

/**
 * A process logging through the default stdout, its stdout made non-blocking (as a log
 * collector's pipe can be) and not read until the process reports its first timer turn.
 */
async function unreadStdout(script: string, until?: string): Promise<{ turned: string; lines: Record<string, unknown>[] }> {
  const logger = new URL('../../src/observability/logger.ts', import.meta.url).href;
  const source = `import { createLogger } from ${JSON.stringify(logger)};
    const log = createLogger({ level: 'info' });
    const at = Date.now();
    setTimeout(() => { process.stderr.write('turned ' + (Date.now() - at) + '\\n'); }, 20);
    ${script}`;
  const nonBlocking = 'import fcntl, os, sys\nfcntl.fcntl(1, fcntl.F_SETFL, fcntl.fcntl(1, fcntl.F_GETFL) | os.O_NONBLOCK)\nos.execv(sys.argv[1], sys.argv[1:])';
  const child = spawn('python3', ['-c', nonBlocking, process.execPath, '--import', import.meta.resolve('tsx'), '--input-type=module', '-e', source], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.pause();
  const turned = await new Promise<string>((resolve) => {
    const timer = setTimeout(() => resolve('no turn within 20 s'), 20_000);
    child.stderr.on('data', (d: Buffer) => {
      clearTimeout(timer);
      resolve(d.toString());
    });
  });
  let out = '';
  // with `until`, the child is killed (no exit flush) once stdout has carried that text, or after 30 s
  const stop = until === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), 30_000);
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString();
    if (until !== undefined && out.includes(until)) child.kill('SIGKILL');
  });
  child.stdout.resume();
  await once(child, 'close');
  clearTimeout(stop);
  const complete = out.slice(0, out.lastIndexOf('\n') + 1);
  return { turned, lines: complete.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>) };
}

t.test('a stdout nobody reads does not stall the process, and its lines arrive in order once read', async (t) => {
  // about 500 KB while nobody reads: far more than a pipe holds, well within what is kept
  const { turned, lines } = await unreadStdout(`
    for (let i = 0; i < 3000; i++) log.info({ i, pad: 'x'.repeat(100) }, 'line');
    setTimeout(() => { for (let i = 3000; i < 3100; i++) log.info({ i }, 'line'); }, 400);
    setTimeout(() => process.exit(0), 1200);`);
  // the parent reads nothing until the child's timer has fired: had a write waited on the full
  // pipe, that timer never would have (no timing is asserted, only that it fired)
  t.match(turned, /^turned \d+/, 'a timer fired while nobody read stdout');
  const numbers = lines.map((l) => l.i);
  t.equal(numbers.length, 3100, 'no line lost');
  t.same(numbers, Array.from({ length: 3100 }, (_, i) => i), 'in the order logged');
});

t.test('lines beyond what a full stdout can be owed are dropped and counted, and the backlog drains while the process runs', async (t) => {
  // about 13 MB while nobody reads: more than the 8 MB kept. The child then logs a line every
  // 200 ms and never exits: it is killed once one of those arrives, so what was kept reached
  // stdout while it ran, not through its exit flush.
  const { turned, lines } = await unreadStdout(
    `for (let i = 0; i < 60000; i++) log.info({ i, pad: 'x'.repeat(150) }, 'line');
    let i = 60000;
    setInterval(() => log.info({ i: i++ }, 'after'), 200);`,
    '"msg":"after"',
  );
  t.match(turned, /^turned \d+/, 'a timer fired while nobody read stdout');
  const logged = lines.filter((l) => typeof l.i === 'number').map((l) => l.i as number);
  const notes = lines.filter((l) => l.msg === 'log lines dropped: stdout was full');
  const dropped = notes.reduce((n, l) => n + (l.dropped as number), 0);
  t.ok(notes.length >= 1 && notes.every((l) => l.level === 40), 'what was dropped is noted, as a warning');
  t.ok(lines.some((l) => l.msg === 'after'), 'a line logged after the backlog arrived before the process was killed');
  const last = logged.at(-1)!;
  t.equal(logged.length + dropped, last + 1, 'every line up to the last written either written or counted as dropped');
  t.ok(dropped > 0 && logged.length > 8 * 1024 * 1024 / 250, `what fitted was kept (${logged.length} lines written, ${dropped} dropped)`);
  t.ok(logged.every((v, k) => k === 0 || v > logged[k - 1]!), 'what was written is in the order logged');
});

t.test('a line written as text (writeLine) is byte for byte the line pino writes for the same record', async (t) => {
  const raw: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _enc, done) {
      raw.push(chunk.toString('utf8'));
      done();
    },
  });
  const child = createLogger({ level: 'info', destination }).child({ name: 'icefront.audit' }, { redact: [] });
  const record = {
    reqId: 'r-"quoted"\\ and \u0001 control',
    catalog: 'lakehouse ☃',
    namespace: ['a.b', 'Ünïcødé 表', ''],
    skipped: undefined,
    req: { method: 'GET', url: '/v1/x?y=%2F', remoteAddress: undefined },
    tables: [{ namespace: ['n'], name: 't' }],
    status: 200,
    upstream: true,
    durationMs: 0.125,
  };
  // each value through the member writer the access and audit lines use for its type
  const fields = new LineFields();
  for (const [key, value] of Object.entries(record)) {
    if (typeof value === 'string' || (Array.isArray(value) && value.every((v) => typeof v === 'string'))) fields.str(key, value as string | string[]);
    else if (typeof value === 'number') fields.num(key, value);
    else fields.add(key, value);
  }
  // both in one millisecond, or the times differ: retried until they are
  for (let tries = 0; tries < 100; tries++) {
    raw.length = 0;
    child.info(record, 'audit "line"');
    writeLine(child, 'info', fields, 'audit "line"');
    await new Promise((resolve) => setImmediate(resolve));
    if (raw.length === 2 && raw[0]!.slice(0, 48) === raw[1]!.slice(0, 48)) break;
  }
  t.equal(raw.length, 2);
  t.equal(raw[1], raw[0], 'the same bytes');
  t.match(JSON.parse(raw[1]!), { level: 30, service: 'icefront', name: 'icefront.audit', reqId: record.reqId, msg: 'audit "line"' });
});

t.test('strings and numbers written without JSON.stringify are written as it writes them', async (t) => {
  // escapes, controls, lone and paired surrogates, and lengths on both sides of the scanned limit
  const text = fc.oneof(fc.string({ maxLength: 80, unit: 'binary' }), fc.string({ maxLength: 80, unit: 'grapheme' }), fc.string({ minLength: 60, maxLength: 70 }));
  fc.assert(fc.property(text, (s) => jsonString(s) === JSON.stringify(s)), { numRuns: 5000 });
  for (const s of ['', '"', '\\', '\u0000', '\u001f', '\ud800', '\udfff', 'x\ud83d\ude00', 'plain']) t.equal(jsonString(s), JSON.stringify(s), JSON.stringify(s));
  const numbers = fc.oneof(fc.double(), fc.integer(), fc.constantFrom(-0, NaN, Infinity, -Infinity, 1e21, 5e-324));
  fc.assert(
    fc.property(numbers, (n) => new LineFields().num('n', n).text === `,"n":${JSON.stringify(n)}`),
    { numRuns: 5000 },
  );
  t.equal(new LineFields().str('a', ['x', 'y"']).num('b', undefined).str('c', undefined).text, ',"a":["x","y\\""]');
});
