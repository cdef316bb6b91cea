import { writeSync } from 'node:fs';
import { pino, type Logger, type DestinationStream } from 'pino';

/**
 * Paths pino redacts wherever they appear in a log record: inbound Authorization, tokens,
 * secrets and vended storage credentials must never reach a log line.
 */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'headers.cookie',
  '*.authorization',
  '*.token',
  '*.secret',
  '*.password',
  '*["client-secret"]',
  '*["token-secret"]',
  '*["s3.secret-access-key"]',
  '*["s3.session-token"]',
  '*["s3.access-key-id"]',
  'config["s3.secret-access-key"]',
  'config["s3.session-token"]',
];

export interface LoggerOptions {
  readonly level: string;
  /** Where records go; stdout by default. Tests pass a stream to inspect them. */
  readonly destination?: DestinationStream;
}

/** Lines written to stdout are gathered up to this many characters, or for FLUSH_MS, per write. */
const BUFFER_CHARS = 8 * 1024;
const FLUSH_MS = 250;

export function createLogger(options: LoggerOptions): Logger {
  return pino(
    {
      level: options.level,
      base: { service: 'icefront' },
      redact: { paths: REDACT_PATHS, censor: '[Redacted]' },
      timestamp: isoTimeByMillisecond,
    },
    options.destination ?? stdoutLines(),
  );
}

/**
 * pino's `isoTime`, formatted once per millisecond: a busy door writes several lines (access,
 * audit) within one, and formatting the date was a measurable share of each (issue #12 profile).
 */
let stampedAt = -1;
let stamp = '';
function isoTimeByMillisecond(): string {
  const now = Date.now();
  if (now !== stampedAt) {
    stampedAt = now;
    stamp = `,"time":"${new Date(now).toISOString()}"`;
  }
  return stamp;
}

let stdout: LineBatch | undefined;
/** The process's one batched stdout (every logger of the process shares it, and its exit flush). */
function stdoutLines(): DestinationStream {
  return (stdout ??= new LineBatch());
}

/**
 * stdout, written in batches: one write per line was a system call for every request's access
 * and audit lines (issue #12 profile). Lines are joined here and handed to an asynchronous
 * sonic-boom once BUFFER_CHARS have gathered or FLUSH_MS have passed; sonic-boom's own
 * `minLength` batching measures its whole pending buffer's byte length on every line, which grew
 * with the batch (2% of a door request). At exit, what is left is written synchronously.
 */
class LineBatch implements DestinationStream {
  #lines: string[] = [];
  #chars = 0;
  readonly #out: ReturnType<typeof pino.destination>;

  constructor() {
    // registered before the destination, so it runs before pino's own exit flush of it
    process.once('exit', () => this.flushSync());
    this.#out = pino.destination({ dest: 1, sync: false, minLength: 0 });
    setInterval(() => this.flush(), FLUSH_MS).unref();
  }

  write(line: string): void {
    this.#lines.push(line);
    this.#chars += line.length;
    if (this.#chars >= BUFFER_CHARS) this.flush();
  }

  flush(): void {
    if (this.#lines.length === 0) return;
    const text = this.#lines.join('');
    this.#lines = [];
    this.#chars = 0;
    this.#out.write(text);
  }

  /** sonic-boom's queue, then the lines gathered here, with no event loop left to wait on. */
  flushSync(): void {
    const text = this.#lines.join('');
    this.#lines = [];
    this.#chars = 0;
    try {
      this.#out.flushSync();
    } catch {
      // not open yet, or already closed: what it holds cannot be written now either
    }
    let rest = Buffer.from(text);
    // a pipe may be non-blocking: EAGAIN is retried (bounded), any other error gives up
    for (let tries = 0; rest.length > 0 && tries < 10_000; tries++) {
      try {
        rest = rest.subarray(writeSync(1, rest));
      } catch (err) {
        if ((err as { code?: string }).code !== 'EAGAIN') return;
      }
    }
  }
}

export type { Logger } from 'pino';

const LEVEL_METHODS = new Set<PropertyKey>(['trace', 'debug', 'info', 'warn', 'error', 'fatal']);
/** What a child answers like its parent: its level is the parent's (no `level` option is passed). */
const LEVEL_READS = new Set<PropertyKey>(['level', 'levelVal', 'levels', 'isLevelEnabled']);

/**
 * `parent.child(bindings)`, made when a line is first written through it. A pino child
 * serialises (and redacts) its bindings when it is made, and most requests write no line of
 * their own (their access line goes through another logger): two children per request were a
 * measurable share of the front door (issue #12 profile). Reading a method (fastify checks the
 * methods of every child it is given), asking the level, or writing at a disabled level does
 * not make it.
 */
export function lazyChild<T extends Logger>(parent: T, bindings: Record<string, unknown>): T {
  let child: T | undefined;
  const made = (): T => (child ??= parent.child(bindings) as T);
  return new Proxy(parent, {
    get(target, prop) {
      if (child === undefined) {
        if (LEVEL_READS.has(prop)) {
          const value = Reflect.get(target, prop, target) as unknown;
          return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
        }
        if (LEVEL_METHODS.has(prop) && !target.isLevelEnabled(prop as string)) return Reflect.get(target, prop, target) as unknown;
        if (typeof Reflect.get(target, prop, target) === 'function')
          return (...args: unknown[]) => (Reflect.get(made(), prop) as (...a: unknown[]) => unknown).apply(child, args);
      }
      const logger = made();
      const value = Reflect.get(logger, prop, logger) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(logger) : value;
    },
  });
}
