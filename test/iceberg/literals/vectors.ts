/**
 * Shared test support: loads ../shared/fixtures/vectors and turns the type names and value
 * notations used there (spec names, Java `Types.*` calls, pyiceberg `*Type()` names) into
 * Icefront types and internal values.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { IcebergType } from '../../../src/iceberg/types.js';
import {
  decimalFromString,
  isoDateToDays,
  isoTimeToMicros,
  isoTimestampToMicros,
  isoTimestampToNanos,
  isoTimestamptzToMicros,
  isoTimestamptzToNanos,
} from '../../../src/iceberg/literals/index.js';

const REPO = path.resolve(import.meta.dirname, '../../..');
export const VECTORS_DIR = path.resolve(REPO, '../shared/fixtures/vectors');

/** The parsed vector file, or undefined when ../shared is absent (tests then skip). */
export function loadVectors<T>(file: string): T | undefined {
  const p = path.join(VECTORS_DIR, file);
  return fs.existsSync(p) ? (JSON.parse(fs.readFileSync(p, 'utf8')) as T) : undefined;
}

export const SKIP_NO_SHARED = `../shared/fixtures/vectors not found at ${VECTORS_DIR}`;

const SIMPLE: Record<string, IcebergType['kind']> = {
  boolean: 'boolean', booleantype: 'boolean',
  int: 'int', integertype: 'int',
  long: 'long', longtype: 'long',
  float: 'float', floattype: 'float',
  double: 'double', doubletype: 'double',
  date: 'date', datetype: 'date',
  time: 'time', timetype: 'time',
  timestamp: 'timestamp', 'timestamptype.withoutzone': 'timestamp', timestamptype: 'timestamp',
  timestamptz: 'timestamptz', 'timestamptype.withzone': 'timestamptz', timestamptztype: 'timestamptz',
  timestamp_ns: 'timestamp_ns', 'timestampnanotype.withoutzone': 'timestamp_ns',
  timestamptz_ns: 'timestamptz_ns', 'timestampnanotype.withzone': 'timestamptz_ns',
  string: 'string', stringtype: 'string',
  uuid: 'uuid', uuidtype: 'uuid',
  binary: 'binary', binarytype: 'binary',
  geometry: 'geometry',
  geography: 'geography',
};

/** What a placeholder type name (`decimal(P,S)`, `fixed(L)`) takes from the sample value. */
export interface TypeHint {
  /** the JSON or value text, e.g. `"14.20"` or `"000102ff"` (quotes allowed) */
  text?: string;
}

/** Scale written in a decimal text: digits after the point minus the exponent. */
function writtenScale(text: string): number {
  const m = /^-?\d*(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!m) throw new Error(`not a decimal: ${text}`);
  return (m[1] ?? '').length - Number(m[2] ?? 0);
}

/** Every Icefront type a vector's type name stands for (`IntegerType|LongType` is two). */
export function vectorTypes(name: string, hint: TypeHint = {}): IcebergType[] {
  return name.split('|').map((one) => vectorType(one.trim(), hint));
}

function vectorType(name: string, hint: TypeHint): IcebergType {
  const text = hint.text?.replace(/^"|"$/g, '');
  const key = name.replace(/\.get\(\)$/, '').replace(/\(\)$/, '').toLowerCase();
  if (SIMPLE[key]) return { kind: SIMPLE[key] } as IcebergType;
  if (key === 'decimal(p,s)') return { kind: 'decimal', precision: 38, scale: writtenScale(text!) };
  if (key === 'fixed(l)') return { kind: 'fixed', length: text!.replace(/\s/g, '').length / 2 };
  let m = /^(?:decimal|decimaltype|decimaltype\.of)\((\d+),\s*(-?\d+)\)$/.exec(key);
  if (m) return { kind: 'decimal', precision: Number(m[1]), scale: Number(m[2]) };
  m = /^(?:fixed\[|fixedtype\(|fixedtype\.oflength\()(\d+)[\])]$/.exec(key);
  if (m) return { kind: 'fixed', length: Number(m[1]) };
  if (key === 'struct') {
    return {
      kind: 'struct',
      fields: [
        { id: 1, name: 'a', required: false, type: { kind: 'int' } },
        { id: 2, name: 'b', required: false, type: { kind: 'string' } },
      ],
    };
  }
  if (key === 'list') return { kind: 'list', elementId: 1, elementRequired: false, element: { kind: 'int' } };
  if (key === 'map') {
    return { kind: 'map', keyId: 1, key: { kind: 'string' }, valueId: 2, valueRequired: false, value: { kind: 'int' } };
  }
  throw new Error(`unknown vector type name: ${name}`);
}

const HEX_INPUT = /^(?:hex:)?((?:[0-9a-fA-F]{2}\s?)+)$/;

/** A vector's logical value in the internal representation for `type`. */
export function vectorValue(type: IcebergType, v: unknown): unknown {
  if (typeof v === 'object' && v !== null && 'hex' in v) return Buffer.from(String(v.hex), 'hex');
  switch (type.kind) {
    case 'long':
    case 'time':
    case 'timestamp':
    case 'timestamptz':
    case 'timestamp_ns':
    case 'timestamptz_ns':
      if (typeof v === 'number') return BigInt(v);
      if (typeof v === 'string' && /^-?\d+L?$/.test(v)) return BigInt(v.replace('L', ''));
      return parseTemporal(type.kind, String(v));
    case 'date':
      return typeof v === 'number' ? v : isoDateToDays(String(v));
    case 'int':
      return Number(v);
    case 'float':
      return Math.fround(typeof v === 'number' ? v : Number(String(v).replace(/F$/, '')));
    case 'double':
      return typeof v === 'number' ? v : Number(String(v).replace(/D$/, ''));
    case 'boolean':
      return v === true || v === 'true';
    case 'decimal':
      return decimalFromString(String(v), type.scale);
    case 'fixed':
    case 'binary': {
      const m = HEX_INPUT.exec(String(v));
      if (!m) throw new Error(`not hex: ${String(v)}`);
      return Buffer.from(m[1]!.replace(/\s/g, ''), 'hex');
    }
    case 'uuid':
      if (typeof v === 'string' && v.startsWith('hex:')) {
        const h = v.slice(4);
        return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
      }
      return v;
    default:
      return v;
  }
}

function parseTemporal(kind: IcebergType['kind'], s: string): bigint {
  switch (kind) {
    case 'time':
      return isoTimeToMicros(s);
    case 'timestamp':
      return isoTimestampToMicros(s);
    case 'timestamp_ns':
      return isoTimestampToNanos(s);
    case 'timestamptz':
      return isoTimestamptzToMicros(s);
    default:
      return isoTimestamptzToNanos(s);
  }
}

/** Lower-case hex of bytes, for messages and comparisons. */
export function hex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}
