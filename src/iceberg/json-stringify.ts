/**
 * `stringifyJson`, the writing half of the project's lossless JSON (see json-parse.ts).
 */
import { JsonFloat } from './json-float.js';

/**
 * Like JSON.stringify (same output for plain values, `toJSON` honoured, `undefined` members
 * omitted), but writes bigint as plain digits and JsonFloat as its exact text.
 *
 * Fast path: native JSON.stringify with a replacer that turns bigint/JsonFloat into marker
 * strings (`"\u0000<digits>"`), then the markers are unquoted. If the output holds more
 * markers than were made (a real string looked like one), the exact slow writer is used.
 */
export function stringifyJson(value: unknown, space?: number): string {
  let made = 0;
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
    return v;
  };
  const out = JSON.stringify(value, replacer, space) as string | undefined;
  if (out === undefined) throw new TypeError(`Cannot serialise a top-level ${typeof value} as JSON`);
  if (made === 0) return out;
  let found = 0;
  const result = out.replace(MARKED, (_m, num: string) => {
    found++;
    return num;
  });
  if (found === made) return result;
  return slowStringify(value, space);
}

const MARK = '\u0000';
// a marker as JSON.stringify writes it: the NUL char escaped, then a JSON number
const MARKED = /"\\u0000(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)"/g;

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
