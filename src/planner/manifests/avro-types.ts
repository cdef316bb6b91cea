/**
 * avsc types compiled from a file's writer schema, with 64-bit longs as bigints
 * (node20-stack-notes §3: BigInt longs, a fresh options object per forSchema, a typeHook for
 * `{type:"long", logicalType:…}`). Building a Type is slow, so compiled types are memoised per
 * writer-schema text in a small bounded map; they are pure functions of that text.
 */
import avro from 'avsc';
import { readZigZagBigInt, type ByteCursor } from './avro-binary.js';

type AvroType = InstanceType<typeof avro.Type>;
type AvroResolver = ReturnType<AvroType['createResolver']>;

export interface RecordDecoder {
  /** Decodes one record at `pos`; `offset` is -1 when the bytes end inside the record. */
  decode(buf: Buffer, pos: number): { value: unknown; offset: number };
}

/** One zig-zag varint (as avsc hands it over with `noUnpack`) to a bigint. */
function varintToBigInt(b: Uint8Array): bigint {
  if (b.length <= 7) {
    // at most 49 bits: exact in a double
    let n = 0;
    let mul = 1;
    for (let i = 0; i < b.length; i += 1) {
      n += (b[i]! & 0x7f) * mul;
      mul *= 128;
    }
    return BigInt(n % 2 === 0 ? n / 2 : -(n + 1) / 2);
  }
  let n = 0n;
  let shift = 0n;
  for (let i = 0; i < b.length; i += 1) {
    n |= BigInt(b[i]! & 0x7f) << shift;
    shift += 7n;
  }
  return BigInt.asIntN(64, (n >> 1n) ^ -(n & 1n));
}

function bigIntToVarint(value: bigint): Buffer {
  let z = BigInt.asUintN(64, (value << 1n) ^ (value >> 63n));
  const bytes: number[] = [];
  do {
    let byte = Number(z & 0x7fn);
    z >>= 7n;
    if (z !== 0n) byte |= 0x80;
    bytes.push(byte);
  } while (z !== 0n);
  return Buffer.from(bytes);
}

/**
 * An Avro `long` read in place under avsc's `_read(tap)` contract (avro-binary.ts
 * readZigZagBigInt): when the bytes end inside it the position goes past the end (avsc then
 * reports the record truncated); one longer than ten bytes is read to its last byte and wrapped,
 * as avsc's skipLong and `fromBuffer` do.
 */
function readBigLong(tap: ByteCursor): bigint | undefined {
  const start = tap.pos;
  const value = readZigZagBigInt(tap);
  if (typeof value === 'bigint') return value;
  if (value === null) {
    while (tap.pos < tap.buf.length && tap.buf[tap.pos]! & 0x80) tap.pos += 1;
    if (tap.pos < tap.buf.length) {
      tap.pos += 1;
      return varintToBigInt(tap.buf.subarray(start, tap.pos));
    }
  }
  tap.pos = tap.buf.length + 1;
  return undefined;
}

/** Avro `long` as bigint; `noUnpack` hands over the raw varint, avoiding avsc's 8-byte unpacking. */
const FROZEN_BIGINT_LONG = avro.types.LongType.__with(
  {
    fromBuffer: varintToBigInt,
    toBuffer: (n: bigint | number) => bigIntToVarint(BigInt(n)),
    fromJSON: (v: unknown) => BigInt(v as string),
    toJSON: (n: bigint) => (Number.isSafeInteger(Number(n)) ? Number(n) : n.toString()),
    isValid: (n: unknown) => typeof n === 'bigint' || (typeof n === 'number' && Number.isSafeInteger(n)),
    compare: (a: bigint, b: bigint) => (a === b ? 0 : a < b ? -1 : 1),
  },
  true,
);
/** The same type reading in place (avsc freezes the one it makes). */
const BIGINT_LONG = Object.assign(Object.create(FROZEN_BIGINT_LONG) as typeof FROZEN_BIGINT_LONG, { _read: readBigLong });

/** Fresh options for every forSchema call (avsc keeps named types in `registry`). */
export function avroOptions(): Record<string, unknown> {
  return {
    registry: { long: BIGINT_LONG },
    typeHook: (schema: unknown) =>
      schema !== null && typeof schema === 'object' && (schema as { type?: unknown }).type === 'long' ? BIGINT_LONG : undefined,
    wrapUnions: 'never',
  };
}

const MAX_CACHED = 64;
const cache = new Map<string, unknown>();

function remember<T>(key: string, make: () => T): T {
  const hit = cache.get(key) as T | undefined;
  if (hit !== undefined) {
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const made = make();
  cache.set(key, made);
  if (cache.size > MAX_CACHED) cache.delete(cache.keys().next().value!);
  return made;
}

/** A decoder for records written with this writer schema. */
export function writerDecoder(schemaText: string, writerSchema: unknown): RecordDecoder {
  return remember(`full\u0000${schemaText}`, () => avro.Type.forSchema(writerSchema as avro.Schema, avroOptions()));
}

/**
 * A decoder that reads writer-schema records into `readerSchema`, a copy of the writer schema
 * with fields removed (`projection` names it in the cache key). avsc skips the removed fields
 * without building values. Falls back to the full writer decoder when the projection does not
 * compile (for example a named type defined inside a removed field and used elsewhere).
 */
export function projectedDecoder(schemaText: string, writerSchema: unknown, projection: string, readerSchema: unknown): RecordDecoder {
  return remember(`${projection}\u0000${schemaText}`, () => {
    const writer = avro.Type.forSchema(writerSchema as avro.Schema, avroOptions());
    let reader: AvroType;
    let resolver: AvroResolver;
    try {
      reader = avro.Type.forSchema(readerSchema as avro.Schema, avroOptions());
      resolver = reader.createResolver(writer);
    } catch {
      return writer;
    }
    return { decode: (buf: Buffer, pos: number) => reader.decode(buf, pos, resolver) };
  });
}

/** A writer-schema decoder that hands some fields over as their raw bytes (see `rawFieldsDecoder`). */
export interface RawFieldsDecoder extends RecordDecoder {
  /** Per raw field, in the order asked for: decodes its bytes into the value avsc would have built. */
  readonly fieldDecoders: readonly RecordDecoder[];
}

/**
 * A decoder for writer-schema records in which each field whose type is one of `rawTypes` (schema
 * objects of `writerSchema`, by identity) is skipped rather than decoded, and its value is a view
 * of its encoded bytes in the block (Avro spec "Binary Encoding": arrays are skippable item by
 * item or block by block). Undefined when such a field's type does not compile on its own (it
 * names a type defined elsewhere in the schema, or defines one used elsewhere). Memoised per
 * schema text, so `rawTypes` must be found the same way in every parse of that text.
 */
export function rawFieldsDecoder(schemaText: string, writerSchema: unknown, projection: string, rawTypes: readonly unknown[]): RawFieldsDecoder | undefined {
  const made = remember(`${projection}\u0000${schemaText}`, (): RawFieldsDecoder | null => {
    const fieldDecoders: RecordDecoder[] = [];
    const base = avroOptions();
    const hook = base['typeHook'] as (schema: unknown) => AvroType | undefined;
    const options = {
      ...base,
      typeHook: (schema: unknown) => {
        const at = rawTypes.indexOf(schema);
        if (at < 0) return hook(schema);
        const inner = avro.Type.forSchema(schema as avro.Schema, avroOptions());
        fieldDecoders[at] = inner;
        // avsc's record readers call `_read(tap)` on each field type; this one skips and keeps the span
        const raw = Object.create(inner) as AvroType & { _read(tap: { buf: Buffer; pos: number }): Buffer };
        const skip = (inner as unknown as { _skip(tap: unknown): void })._skip.bind(inner);
        raw._read = (tap) => {
          const start = tap.pos;
          skip(tap);
          return tap.buf.subarray(start, tap.pos);
        };
        return raw;
      },
    };
    try {
      const type = avro.Type.forSchema(writerSchema as avro.Schema, options);
      if (rawTypes.some((_, i) => fieldDecoders[i] === undefined)) return null;
      return { decode: (buf: Buffer, pos: number) => type.decode(buf, pos), fieldDecoders };
    } catch {
      return null;
    }
  });
  return made ?? undefined;
}
