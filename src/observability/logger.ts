import { writeSync, writevSync } from 'node:fs';
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

/** The bindings of every line Icefront writes. */
const BASE = { service: 'icefront' };

export function createLogger(options: LoggerOptions): Logger {
  return pino(
    {
      level: options.level,
      base: BASE,
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
 * and audit lines (issue #12 profile). Lines are joined here and written once BUFFER_CHARS have
 * gathered or FLUSH_MS have passed, by one synchronous write from this thread (as Node writes
 * its own stdout to files and pipes on Linux), so batches reach stdout in the order they were
 * logged; an asynchronous writer's exit flush could overtake its write still in flight, and did
 * in CI. A full non-blocking pipe (EAGAIN) is never waited on while serving: the batches it
 * refused are queued, up to MAX_QUEUED bytes, and written first next time; lines beyond that
 * are dropped and counted, and the count is logged where they would have been.
 */
class LineBatch implements DestinationStream {
  #lines: string[] = [];
  #chars = 0;
  /** Batches not yet written, oldest first (more than one only while stdout is full). */
  #queue: Buffer[] = [];
  #queued = 0;
  #dropped = 0;
  #retry: NodeJS.Timeout | undefined;

  constructor() {
    process.once('exit', () => this.flushSync());
    setInterval(() => this.flush(), FLUSH_MS).unref();
  }

  write(line: string): void {
    this.#lines.push(line);
    this.#chars += line.length;
    if (this.#chars >= BUFFER_CHARS) this.flush();
  }

  flush(): void {
    this.#enqueue(MAX_QUEUED);
    // a full pipe: tried again soon, not only at the next batch or interval (an idle process
    // would otherwise drain its backlog one pipe's worth per FLUSH_MS)
    if (!this.#drain() && this.#retry === undefined) {
      this.#retry = setTimeout(() => {
        this.#retry = undefined;
        this.flush();
      }, RETRY_MS).unref();
    }
  }

  /** At exit, with no event loop left: everything, waiting briefly on a full pipe (bounded). */
  flushSync(): void {
    this.#enqueue(Infinity);
    const deadline = Date.now() + EXIT_WAIT_MS;
    while (!this.#drain() && Date.now() < deadline) Atomics.wait(SLEEPER, 0, 0, 1);
  }

  /** The gathered lines as one batch at the queue's end, if the queue stays within `limit`. */
  #enqueue(limit: number): void {
    if (this.#lines.length === 0) return;
    const count = this.#lines.length;
    const text = this.#lines.join('');
    this.#lines = [];
    this.#chars = 0;
    if (this.#queued + text.length > limit) {
      this.#dropped += count;
      return;
    }
    if (this.#dropped > 0) {
      // written here, below the loggers, in the form they write (level warn, their time and base)
      const note = `{"level":40${isoTimeByMillisecond()},${JSON.stringify(BASE).slice(1, -1)},"dropped":${this.#dropped},"msg":"log lines dropped: stdout was full"}\n`;
      this.#dropped = 0;
      this.#push(Buffer.from(note));
    }
    this.#push(Buffer.from(text));
  }

  #push(batch: Buffer): void {
    this.#queue.push(batch);
    this.#queued += batch.length;
  }

  /** Writes the queue, oldest first; true once it is empty (all written, or stdout is gone). */
  #drain(): boolean {
    while (this.#queue.length > 0) {
      let n: number;
      try {
        n = this.#queue.length === 1 ? writeSync(1, this.#queue[0]!) : writevSync(1, this.#queue.slice(0, IOV_MAX));
      } catch (err) {
        if ((err as { code?: string }).code === 'EAGAIN') return false;
        // EPIPE, EBADF: nobody reads stdout any more, so nothing queued can be written
        this.#queue = [];
        this.#queued = 0;
        return true;
      }
      if (n === 0) return false;
      this.#queued -= n;
      while (n > 0) {
        const head = this.#queue[0]!;
        if (head.length <= n) {
          n -= head.length;
          this.#queue.shift();
        } else {
          this.#queue[0] = head.subarray(n);
          n = 0;
        }
      }
    }
    return true;
  }
}

/** Bytes queued while stdout is full before lines are dropped. */
const MAX_QUEUED = 8 * 1024 * 1024;
/** How soon a write a full pipe refused is tried again. */
const RETRY_MS = 5;
/** How long the exit flush waits on a full stdout. */
const EXIT_WAIT_MS = 2_000;
/** Buffers per writev (Linux's IOV_MAX). */
const IOV_MAX = 1024;
const SLEEPER = new Int32Array(new SharedArrayBuffer(4));

export type { Logger } from 'pino';

/**
 * A line's own fields as JSON object members, each led by a comma, in the order given; a field
 * whose value is undefined is left out, as pino leaves it out.
 */
export class LineFields {
  text = '';

  /** `key` is a plain identifier written by Icefront's code (it is not escaped). */
  add(key: string, value: unknown): this {
    if (value !== undefined) this.text += `,"${key}":${JSON.stringify(value)}`;
    return this;
  }

  /** A string member (or a list of strings), as JSON.stringify writes it. */
  str(key: string, value: string | readonly string[] | undefined): this {
    if (value !== undefined) this.text += `,"${key}":${typeof value === 'string' ? jsonString(value) : `[${value.map(jsonString).join(',')}]`}`;
    return this;
  }

  /** A number member, as JSON.stringify writes it (`null` when not finite), without calling it. */
  num(key: string, value: number | undefined): this {
    if (value !== undefined) this.text += `,"${key}":${Number.isFinite(value) ? value : 'null'}`;
    return this;
  }

  /** Members already written as JSON (`,"k":v…`). */
  raw(members: string): this {
    this.text += members;
    return this;
  }
}

/**
 * A string as JSON.stringify writes it. Names, ids and numbers-as-text in a line are short and
 * plain: they are quoted here after one scan, and only a string that needs an escape (a quote,
 * a backslash, a control character, a surrogate) goes to JSON.stringify, whose fixed cost per call
 * was most of an audit line's (issue #12 profile, perf).
 */
export function jsonString(s: string): string {
  if (s.length > 64) return JSON.stringify(s);
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x22 || c === 0x5c || (c >= 0xd800 && c <= 0xdfff)) return JSON.stringify(s);
  }
  return `"${s}"`;
}

/**
 * Writes one line through `logger` the way pino writes it — level, time, the logger's bindings,
 * then `fields`, then msg — for the per-request access and audit lines: pino's walk over a line's
 * object, every nested value through JSON.stringify, was their largest cost, and most of the
 * Icefront share of a door request or a warm load-table (issue #12 profile). Only for loggers
 * without redaction, formatters or hooks (the access and audit children); the caller checks the
 * level.
 */
export function writeLine(logger: Logger, level: 'info', fields: LineFields, msg: string): void {
  const own = logger as unknown as Record<symbol, unknown>;
  const time = (own[pino.symbols.timeSym] as () => string)();
  const bindings = own[pino.symbols.chindingsSym] as string;
  (own[pino.symbols.streamSym] as DestinationStream).write(`{"level":${logger.levels.values[level]}${time}${bindings}${fields.text},"msg":${jsonString(msg)}}\n`);
}

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
