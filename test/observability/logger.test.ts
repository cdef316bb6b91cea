import t from 'tap';
import { execFile } from 'node:child_process';
import { createLogger, lazyChild, type Logger } from '../../src/observability/index.js';
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
