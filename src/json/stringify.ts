/**
 * `stringifyJson`, the writing half of the project's lossless JSON (see json-parse.ts).
 */
import { JsonFloat } from './float.js';
import { RawJson } from './raw.js';

/**
 * Like JSON.stringify (same output for plain values, `toJSON` honoured, `undefined` members
 * omitted), but writes bigint as plain digits and JsonFloat as its exact text.
 *
 * Fast path: native JSON.stringify with a replacer that turns bigint/JsonFloat into marker
 * strings (`"\u0000<digits>"`), then the markers are unquoted. If the output holds more
 * markers than were made (a real string looked like one), the exact slow writer is used.
 */
export function stringifyJson(value: unknown, space?: number): string {
  const marked = markedJson(value, space);
  return unmarked(marked) ?? slowStringify(value, space);
}

interface Marked {
  /** JSON.stringify's text, with a marker for each bigint, JsonFloat and RawJson. */
  readonly out: string;
  /** How many markers it made. */
  readonly made: number;
  /** Each RawJson, by the ordinal its marker names. */
  readonly raws: readonly RawJson[];
  /** Whether a RawJson holds bytes rather than a string. */
  readonly bytes: boolean;
}

function markedJson(value: unknown, space?: number): Marked {
  let made = 0;
  let bytes = false;
  const raws: RawJson[] = [];
  const replacer = (_key: string, v: unknown): unknown => {
    const t = typeof v;
    if (t === 'bigint') {
      made++;
      return MARK + (v as bigint).toString();
    }
    if (t === 'object' && v instanceof JsonFloat) {
      made++;
      return MARK + v.text;
    }
    if (t === 'object' && v instanceof RawJson) {
      made++;
      if (typeof v.text !== 'string') bytes = true;
      return `${MARK}r${raws.push(v) - 1}`;
    }
    return v;
  };
  const out = JSON.stringify(value, replacer, space) as string | undefined;
  if (out === undefined) throw new TypeError(`Cannot serialise a top-level ${typeof value} as JSON`);
  return { out, made, raws, bytes };
}

/** The marked text with its markers replaced; undefined when a real string looked like a marker. */
function unmarked({ out, made, raws }: Marked): string | undefined {
  if (made === 0) return out;
  let found = 0;
  const result = out.replace(MARKED, (_m, num: string | undefined, raw: string | undefined) => {
    found++;
    return num ?? raws[Number(raw)]?.string() ?? '';
  });
  return found === made ? result : undefined;
}

/**
 * `stringifyJson(value)` as a writer takes it: the string itself, unless a RawJson in it holds
 * bytes (a page of tasks a planning worker wrote); then its UTF-8 bytes as the pieces they are
 * made of, in order (the text around each RawJson, and each RawJson's own bytes, not copied), so
 * those bytes never become a string on this thread (a megabyte string lives in V8's old space
 * until a full collection) and a writer that takes pieces (a gzip stream) joins them itself.
 *
 * A string when it can be: encoding a large answer to a Buffer of its own (a commit's 200 KB of
 * table metadata) allocates outside the heap on every answer, and that pressure made V8 run a
 * full collection every ~25 commits; a socket writes a string without it.
 */
export function jsonParts(value: unknown): string | Buffer[] {
  const marked = markedJson(value);
  if (!marked.bytes) return unmarked(marked) ?? slowStringify(value);
  const { out, made, raws } = marked;
  const parts: Buffer[] = [];
  let from = 0;
  let found = 0;
  for (const m of out.matchAll(MARKED)) {
    found++;
    parts.push(Buffer.from(out.slice(from, m.index), 'utf8'));
    const raw = m[2] === undefined ? undefined : raws[Number(m[2])];
    parts.push(raw ? raw.bytes() : Buffer.from(m[1] ?? '', 'utf8'));
    from = m.index + m[0].length;
  }
  if (found !== made) return [Buffer.from(slowStringify(value), 'utf8')];
  parts.push(Buffer.from(out.slice(from), 'utf8'));
  return parts;
}

/** `jsonParts(value)` as one body: the string, or the pieces joined. */
export function jsonBody(value: unknown): string | Buffer {
  return joinedParts(jsonParts(value));
}

/** What `jsonParts` gave, as one body: the string, or the pieces joined. */
export function joinedParts(parts: string | readonly Buffer[]): string | Buffer {
  return typeof parts === 'string' ? parts : parts.length === 1 ? parts[0]! : Buffer.concat(parts);
}

/** The UTF-8 length of what `jsonParts` gave. */
export function partsByteLength(parts: string | readonly Buffer[]): number {
  return typeof parts === 'string' ? Buffer.byteLength(parts) : parts.reduce((n, p) => n + p.length, 0);
}

/**
 * `stringifyJson(value).length` without writing the result (response-size accounting, once per
 * task of a plan): a walk that adds up each value's written length, asking JSON.stringify only for
 * strings that need escaping. Same rules as stringifyJson: `toJSON` honoured, `undefined`,
 * functions and symbols omitted from objects and `null` in arrays.
 */
export function jsonLength(value: unknown): number {
  const n = lengthOf(value);
  if (n === undefined) throw new TypeError(`Cannot serialise a top-level ${typeof value} as JSON`);
  return n;
}

// what JSON.stringify escapes: quote, backslash, control characters, and (lone) surrogates
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

// Member names repeat (the same dozen in every task of a plan): their written length is
// remembered rather than scanned again, up to a bound that arbitrary keys cannot outgrow.
const keyLengths = new Map<string, number>();
const MAX_KEY_LENGTHS = 4096;

function keyLength(key: string): number {
  let n = keyLengths.get(key);
  if (n === undefined) {
    n = NEEDS_ESCAPE.test(key) ? JSON.stringify(key).length : key.length + 2;
    if (keyLengths.size < MAX_KEY_LENGTHS) keyLengths.set(key, n);
  }
  return n;
}

/** `JSON.stringify(s).length`, without writing it unless `s` has something to escape. */
export function jsonStringLength(s: string): number {
  return NEEDS_ESCAPE.test(s) ? JSON.stringify(s).length : s.length + 2;
}

const POWERS_OF_TEN = Array.from({ length: 16 }, (_, i) => 10 ** i);
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** `stringifyJson(n).length` for an integer (number or bigint), without writing it. */
export function jsonIntegerLength(n: number | bigint): number {
  let x: number;
  if (typeof n === 'bigint') {
    if (n > MAX_SAFE || n < -MAX_SAFE) return n.toString().length;
    x = Number(n);
  } else {
    if (!Number.isSafeInteger(n)) return lengthOf(n)!;
    x = n;
  }
  let sign = 0;
  if (x < 0) {
    sign = 1;
    x = -x;
  }
  // a safe integer is below 2^53 < 10^16: at most 16 digits
  let digits = 1;
  while (digits < 16 && x >= POWERS_OF_TEN[digits]!) digits++;
  return sign + digits;
}

function lengthOf(value: unknown): number | undefined {
  switch (typeof value) {
    case 'string':
      return jsonStringLength(value);
    case 'number':
      return Number.isFinite(value) ? String(value).length : 4;
    case 'bigint':
      return value.toString().length;
    case 'boolean':
      return value ? 4 : 5;
    case 'object': {
      if (value === null) return 4;
      if (value instanceof JsonFloat || value instanceof RawJson) return value.text.length;
      if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return lengthOf((value as { toJSON(): unknown }).toJSON());
      if (Array.isArray(value)) {
        let n = value.length > 0 ? value.length + 1 : 2;
        for (let i = 0; i < value.length; i++) n += lengthOf(value[i]) ?? 4;
        return n;
      }
      if (value instanceof Number || value instanceof String || value instanceof Boolean) return lengthOf(value.valueOf());
      let n = 1;
      let members = 0;
      for (const key of Object.keys(value)) {
        const v = lengthOf((value as Record<string, unknown>)[key]);
        if (v === undefined) continue;
        n += keyLength(key) + 1 + v;
        members++;
      }
      return n + (members > 0 ? members : 1);
    }
    default:
      return undefined;
  }
}

const MARK = '\u0000';
// a marker as JSON.stringify writes it: the NUL char escaped, then a JSON number or `r` and a RawJson's ordinal
const MARKED = /"\\u0000(?:(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)|r(\d+))"/g;

function slowStringify(value: unknown, space?: number): string {
  const indent = space !== undefined && space >= 1 ? ' '.repeat(Math.min(10, Math.floor(space))) : '';
  return write(value, indent === '' ? undefined : '\n', indent) as string;
}

function write(value: unknown, nl: string | undefined, indent: string): string | undefined {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'bigint':
      return value.toString();
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      if (value === null) return 'null';
      if (value instanceof JsonFloat) return value.text;
      if (value instanceof RawJson) return value.string();
      if (typeof (value as { toJSON?: unknown }).toJSON === 'function') {
        return write((value as { toJSON(): unknown }).toJSON(), nl, indent);
      }
      if (Array.isArray(value)) return writeArray(value, nl, indent);
      if (value instanceof Number || value instanceof String || value instanceof Boolean) {
        return write(value.valueOf(), nl, indent);
      }
      return writeObject(value as Record<string, unknown>, nl, indent);
    default:
      return undefined; // undefined, function, symbol
  }
}

function writeArray(arr: readonly unknown[], nl: string | undefined, indent: string): string {
  if (arr.length === 0) return '[]';
  const inner = nl === undefined ? undefined : nl + indent;
  let out = '[';
  for (let i = 0; i < arr.length; i++) {
    if (i > 0) out += ',';
    if (inner !== undefined) out += inner;
    out += write(arr[i], inner, indent) ?? 'null';
  }
  return inner === undefined ? `${out}]` : `${out}${nl}]`;
}

function writeObject(obj: Record<string, unknown>, nl: string | undefined, indent: string): string {
  const inner = nl === undefined ? undefined : nl + indent;
  let out = '{';
  let first = true;
  for (const key of Object.keys(obj)) {
    const v = write(obj[key], inner, indent);
    if (v === undefined) continue;
    if (!first) out += ',';
    first = false;
    out += inner === undefined ? `${JSON.stringify(key)}:${v}` : `${inner}${JSON.stringify(key)}: ${v}`;
  }
  if (first) return '{}';
  return inner === undefined ? `${out}}` : `${out}${nl}}`;
}
