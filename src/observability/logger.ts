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

/** Lines written to stdout are gathered up to this many bytes, or for FLUSH_MS, per write. */
const BUFFER_BYTES = 8 * 1024;
const FLUSH_MS = 250;

export function createLogger(options: LoggerOptions): Logger {
  return pino(
    {
      level: options.level,
      base: { service: 'icefront' },
      redact: { paths: REDACT_PATHS, censor: '[Redacted]' },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    options.destination ?? bufferedStdout(),
  );
}

/**
 * stdout, written in batches: one write per line was a system call for every request's access
 * and audit lines (issue #12 profile). Lines wait at most FLUSH_MS; pino flushes what is left when
 * the process exits (its exit handler for asynchronous destinations).
 */
function bufferedStdout(): DestinationStream {
  const stream = pino.destination({ dest: 1, sync: false, minLength: BUFFER_BYTES });
  setInterval(() => {
    try {
      stream.flush();
    } catch {
      // nothing buffered, or a write already in progress: the next tick writes it
    }
  }, FLUSH_MS).unref();
  return stream;
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
