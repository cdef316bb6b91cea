/**
 * The six per-column metric maps of `data_file` (spec "Manifests": column_sizes 108,
 * value_counts 109, null_value_counts 110, nan_value_counts 137, lower_bounds 125, upper_bounds
 * 128): int-keyed maps written as an Avro array of {key, value} records (`logicalType: map`, Java
 * `AvroSchemaUtil.createMap`), or as an Avro map with decimal string keys. Read either from the
 * value avsc decoded, or straight from the field's raw bytes when a map is first used.
 */
import { AvroCursor, MalformedInput } from './avro-binary.js';
import { containerError } from './avro-container.js';
import { arrayItems, asRecord, isAvroMap, type AvroField } from './avro-schema.js';
import type { RecordDecoder } from './avro-types.js';
import { optArray, optInt, optRecord, required, type AvroRecord } from './record-access.js';

/** Converts one decoded value (`optLong`, `optBytes`); undefined drops the pair. */
export type MetricValue<V> = (v: unknown, what: string) => V | undefined;

export type MapReader<V> = (v: unknown) => ReadonlyMap<number, V> | undefined;

/** Shared by every metric map the allow-list leaves empty: saves one Map per map per entry. */
/** The map of a file that has the metric but none of the kept columns' (shared, never written). */
export const EMPTY: ReadonlyMap<number, never> = new Map<number, never>();

interface PairNames {
  readonly key: string;
  readonly value: string;
}

/** The key and value fields of a key/value element record (by name, else the first two fields). */
function pairNames(items: unknown, what: string): PairNames {
  const pair = asRecord(items, `${what} element`);
  const key = (pair.fields.find((x) => x.name === 'key') ?? pair.fields[0])?.name;
  const value = (pair.fields.find((x) => x.name === 'value') ?? pair.fields[1])?.name;
  if (key === undefined || value === undefined) throw new MalformedInput(`${what} elements are not key/value records`);
  return { key, value };
}

/** Reads a metric map from avsc's decoded value of field `f`, keeping only `keep` (all when undefined). */
export function mapReader<V>(f: AvroField | undefined, what: string, value: MetricValue<V>, keep: ReadonlySet<number> | undefined): MapReader<V> {
  if (f === undefined) return () => undefined;
  if (isAvroMap(f.type)) {
    return (v) => {
      const rec = optRecord(v, what);
      if (rec === undefined) return undefined;
      const out = new Map<number, V>();
      for (const [k, x] of Object.entries(rec)) {
        const key = Number(k);
        if (!Number.isInteger(key)) throw new MalformedInput(`${what} has a non-integer key ${JSON.stringify(k)}`);
        const val = value(x ?? null, what);
        if (val !== undefined && (keep === undefined || keep.has(key))) out.set(key, val);
      }
      return out.size === 0 && keep !== undefined ? EMPTY : out;
    };
  }
  const items = arrayItems(f.type);
  if (items === undefined) throw new MalformedInput(`${what} is neither an array of key/value records nor a map`);
  const names = pairNames(items, what);
  const whatKey = `${what} key`;
  return (v) => {
    const arr = optArray(v, what);
    if (arr === undefined) return undefined;
    let out: Map<number, V> | undefined;
    for (const item of arr) {
      if (item === null) continue;
      const kv = item as AvroRecord;
      const key = required(optInt(kv[names.key] ?? null, whatKey), whatKey);
      if (keep !== undefined && !keep.has(key)) continue;
      const val = value(kv[names.value] ?? null, what);
      if (val !== undefined) (out ??= new Map()).set(key, val);
    }
    return out ?? (keep !== undefined ? EMPTY : new Map());
  };
}

/** Decodes one metric field from the raw bytes avsc skipped over (`rawFieldsDecoder`). */
export interface RawMetricReader<V> {
  /** False when the bytes are the null branch of a nullable field: the file has no such map. */
  present(raw: Buffer): boolean;
  /** Puts every kept pair into `into`, in file order; throws INVALID_METADATA naming the manifest. */
  fill(raw: Buffer, into: Map<number, V>): void;
  /**
   * The value `fill` would leave under `id` (its last pair), building no other pair's value, from
   * the field's bytes at `[start, end)` of `buf` (all of it by default).
   */
  find(buf: Buffer, id: number, start?: number, end?: number): V | undefined;
}

/** Reads one primitive value as avsc would build it (int: number, long: bigint, bytes: a view). */
type Leaf = (c: AvroCursor) => unknown;
/** Moves past one such value, building nothing. */
type Skip = (c: AvroCursor) => void;

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** How to read one value of a schema, and how to move past one building nothing (the same checks: truncation, varint length, union branch). */
interface LeafOps {
  readonly read: Leaf;
  readonly skip: Skip;
}

/** The reader and skipper of a primitive (or a union of primitives) schema; undefined for anything else. */
function leaf(schema: unknown, what: string): LeafOps | undefined {
  if (Array.isArray(schema)) {
    const branches = schema.map((b: unknown) => leaf(b, what));
    if (!branches.every((b): b is LeafOps => b !== undefined)) return undefined;
    const branch = (c: AvroCursor): LeafOps => {
      const i = c.long(`${what} union branch`);
      const ops = branches[i];
      if (ops === undefined) throw new MalformedInput(`${what} has no union branch ${i}`);
      return ops;
    };
    return { read: (c) => branch(c).read(c), skip: (c) => branch(c).skip(c) };
  }
  // a logical type other than on long (typeHook) is read as its underlying type, as avsc does
  const type = typeof schema === 'string' ? schema : isObject(schema) && typeof schema['type'] === 'string' ? schema['type'] : undefined;
  switch (type) {
    case 'null':
      return { read: () => null, skip: () => undefined };
    case 'boolean':
      return { read: (c) => c.fixed(1, what)[0] !== 0, skip: (c) => c.skipFixed(1, what) };
    case 'int':
      return { read: (c) => c.long(what), skip: (c) => c.skipLong(what) };
    case 'long':
      return { read: (c) => c.bigLong(what), skip: (c) => c.skipLong(what) };
    case 'bytes':
      return { read: (c) => c.bytes(what), skip: (c) => c.skipBytes(what) };
    case 'string':
      return { read: (c) => c.bytes(what).toString('utf8'), skip: (c) => c.skipBytes(what) };
    default:
      return undefined;
  }
}

/** Index of the null branch of a nullable field's union, -1 when it is not a union or has none. */
function nullBranch(type: unknown): number {
  return Array.isArray(type) ? type.findIndex((b: unknown) => b === 'null' || (isObject(b) && b['type'] === 'null')) : -1;
}

/** Zig-zag varint at the start of `raw` (a union branch index: nearly always one byte). */
function firstVarint(raw: Buffer, what: string): number {
  const b = raw[0];
  if (b !== undefined && b < 0x80) return b % 2 === 0 ? b / 2 : -(b + 1) / 2;
  return new AvroCursor(raw).long(what);
}

/** Where a walk of a map's pairs puts them: `wants` is asked each key before its value is built. */
interface PairSink<V> {
  wants(id: number): boolean;
  put(id: number, value: V): void;
}

type Walk<V> = (raw: Buffer, sink: PairSink<V>) => void;

/**
 * The array-of-pairs layout decoded without avsc: optional union, array blocks (Avro spec
 * "Arrays": a negative count is followed by the block's byte size), each element a (nullable)
 * record of primitives. Undefined for other layouts (Avro maps, nested types), which go through avsc.
 */
function compileArrayWalk<V>(f: AvroField, what: string, value: MetricValue<V>): Walk<V> | undefined {
  const union = Array.isArray(f.type);
  if (union && (f.type as unknown[]).length !== (nullBranch(f.type) < 0 ? 1 : 2)) return undefined;
  const items = arrayItems(f.type);
  if (items === undefined) return undefined;
  const itemNull = nullBranch(items);
  if (Array.isArray(items) && items.length !== (itemNull < 0 ? 1 : 2)) return undefined;
  const record = asRecord(items, `${what} element`);
  const names = pairNames(items, what);
  const ops = record.fields.map((x) => leaf(x.type, what));
  if (!ops.every((l): l is LeafOps => l !== undefined)) return undefined;
  const leaves = ops.map((o) => o.read);
  const skips = ops.map((o) => o.skip);
  const keyAt = record.fields.findIndex((x) => x.name === names.key);
  const valueAt = record.fields.findIndex((x) => x.name === names.value);
  const whatKey = `${what} key`;
  const whatCount = `${what} block count`;
  return (raw, sink) => {
    const c = new AvroCursor(raw);
    if (union) c.long(`${what} union branch`);
    for (let n = c.long(whatCount); n !== 0; n = c.long(whatCount)) {
      if (n < 0) {
        n = -n;
        c.long(`${what} block size`);
      }
      for (let i = 0; i < n; i += 1) {
        if (itemNull >= 0 && c.long(`${what} element branch`) === itemNull) continue;
        // a pair whose key is not wanted has the rest of its fields skipped, not built: a filter on
        // one column of twenty built twenty bigints and views per map per file, and dropped nineteen
        let id = 0;
        let dropped = false;
        let val: unknown = null;
        for (let j = 0; j < leaves.length; j += 1) {
          if (dropped) {
            skips[j]!(c);
            continue;
          }
          const v = leaves[j]!(c);
          if (j === keyAt) {
            id = required(optInt(v ?? null, whatKey), whatKey);
            dropped = !sink.wants(id);
          } else if (j === valueAt) val = v;
        }
        if (dropped) continue;
        const x = value(val ?? null, what);
        if (x !== undefined) sink.put(id, x);
      }
    }
    if (c.pos !== raw.length) throw new MalformedInput(`${what} has ${raw.length - c.pos} bytes after its last element`);
  };
}

/** Where the last varint read in place ended (`varintAt`). */
let after = 0;

/**
 * The zig-zag varint at `p` of `buf` as a number when it has at most `maxBytes` bytes and ends
 * before `end`; undefined otherwise (the checked walk then reads it and says what is wrong).
 */
function varintAt(buf: Buffer, p: number, end: number, maxBytes: number): number | undefined {
  let b = p < end ? buf[p]! : 0x100;
  if (b < 0x80) {
    after = p + 1;
    return (b >>> 1) ^ -(b & 1);
  }
  let n = 0;
  let mul = 1;
  for (let i = 0; i < maxBytes; i += 1) {
    if (p >= end) return undefined;
    b = buf[p++]!;
    n += (b & 0x7f) * mul;
    if (b < 0x80) {
      after = p;
      return n % 2 === 0 ? n / 2 : -(n + 1) / 2;
    }
    mul *= 128;
  }
  return undefined;
}

/** Finds the last pair of a key in a map's bytes: the value's offset, -1 for none, undefined when the bytes need the checked walk. */
type Scan = (buf: Buffer, id: number, start: number, end: number) => number | undefined;

/**
 * The layout Java writes (`AvroSchemaUtil.createMap`: an optional array of non-null records of an
 * `int` key and a `long` or `bytes` value) scanned in place: a lookup steps over the other pairs
 * a varint at a time, building nothing. Undefined for any other layout.
 */
function compileScan(f: AvroField): Scan | undefined {
  const union = Array.isArray(f.type);
  const nullAt = nullBranch(f.type);
  if (union && (f.type as unknown[]).length !== (nullAt < 0 ? 1 : 2)) return undefined;
  const items = arrayItems(f.type);
  if (!isObject(items) || items['type'] !== 'record' || !Array.isArray(items['fields']) || items['fields'].length !== 2) return undefined;
  const [key, value] = items['fields'] as { name?: unknown; type?: unknown }[];
  const typeOf = (t: unknown) => (typeof t === 'string' ? t : isObject(t) && t['logicalType'] === undefined ? t['type'] : undefined);
  if (key?.name !== 'key' || typeOf(key.type) !== 'int' || value?.name !== 'value') return undefined;
  const valueType = typeOf(value.type);
  if (valueType !== 'long' && valueType !== 'bytes') return undefined;
  const bytes = valueType === 'bytes';
  return (buf, id, start, end) => {
    let p = start;
    if (union) {
      const branch = varintAt(buf, p, end, 1);
      if (branch === undefined) return undefined;
      p = after;
      if (branch === nullAt) return p === end ? -1 : undefined;
    }
    let found = -1;
    for (;;) {
      let count = varintAt(buf, p, end, 5);
      if (count === undefined) return undefined;
      p = after;
      if (count === 0) break;
      if (count < 0) {
        count = -count;
        if (varintAt(buf, p, end, 10) === undefined) return undefined;
        p = after;
      }
      for (let i = 0; i < count; i += 1) {
        // one-byte varints (keys below 64, lengths below 64) read inline: most pairs have nothing else
        let k = p < end ? buf[p]! : 0x100;
        if (k < 0x80) {
          k = (k >>> 1) ^ -(k & 1);
          p += 1;
        } else {
          const key = varintAt(buf, p, end, 5);
          if (key === undefined) return undefined;
          k = key;
          p = after;
        }
        const at = p;
        if (bytes) {
          let length = p < end ? buf[p]! : 0x100;
          if (length < 0x80 && (length & 1) === 0) {
            length >>>= 1;
            p += 1;
          } else {
            const long = varintAt(buf, p, end, 5);
            if (long === undefined || long < 0) return undefined;
            length = long;
            p = after;
          }
          p += length;
          if (p > end) return undefined;
        } else {
          // step over a long: up to ten bytes, the last without the continuation bit
          const last = Math.min(p + 10, end);
          while (p < last && buf[p]! >= 0x80) p += 1;
          if (p === last) return undefined;
          p += 1;
        }
        if (k === id) found = at;
      }
    }
    return p === end ? found : undefined;
  };
}

/** Keeps the last value of one key (a Map filled in file order keeps the last pair of a key too). */
class OneKey<V> implements PairSink<V> {
  id = 0;
  found: V | undefined;
  wants(id: number): boolean {
    return id === this.id;
  }
  put(_id: number, value: V): void {
    this.found = value;
  }
}

/**
 * A reader of field `f`'s raw bytes. `avsc` decodes the field when the layout has no fast path;
 * both give the pairs `mapReader` gives, and errors name `location` as a read of the manifest does.
 */
export function rawMetricReader<V>(
  f: AvroField,
  what: string,
  value: MetricValue<V>,
  keep: ReadonlySet<number> | undefined,
  avsc: RecordDecoder,
  location: string,
): RawMetricReader<V> {
  const nullAt = nullBranch(f.type);
  const walk = compileArrayWalk(f, what, value);
  let fill: (raw: Buffer, into: Map<number, V>) => void;
  if (walk !== undefined) {
    const wants = keep === undefined ? () => true : (id: number) => keep.has(id);
    fill = (raw, into) => walk(raw, { wants, put: (id, v) => into.set(id, v) });
  } else {
    const read = mapReader(f, what, value, keep);
    fill = (raw, into) => {
      const m = read(avsc.decode(raw, 0).value);
      if (m !== undefined) for (const [k, v] of m) into.set(k, v);
    };
  }
  const one = new OneKey<V>();
  const scan = compileScan(f);
  const valueOps = scan && leaf(asRecord(arrayItems(f.type), `${what} element`).fields[1]!.type, what);
  const find = (buf: Buffer, id: number, start: number, end: number): V | undefined => {
    if (keep !== undefined && !keep.has(id)) return undefined;
    const at = scan?.(buf, id, start, end);
    if (at !== undefined) return at < 0 ? undefined : value(valueOps!.read(new AvroCursor(buf, at)) ?? null, what);
    const raw = start === 0 && end === buf.length ? buf : buf.subarray(start, end);
    if (walk === undefined) {
      const pairs = new Map<number, V>();
      fill(raw, pairs);
      return pairs.get(id);
    }
    one.id = id;
    one.found = undefined;
    walk(raw, one);
    return one.found;
  };
  return {
    present: (raw) => nullAt < 0 || firstVarint(raw, what) !== nullAt,
    fill: (raw, into) => {
      try {
        fill(raw, into);
      } catch (err) {
        throw containerError(location, err);
      }
    },
    find: (buf, id, start = 0, end = buf.length) => {
      try {
        return find(buf, id, start, end);
      } catch (err) {
        throw containerError(location, err);
      }
    },
  };
}
