/**
 * Independent readers for what tools/iceberg-writer produces: a plain avsc BlockDecoder for
 * Avro container files (raw schema taken from the header), hyparquet for Parquet, and a
 * from-scratch Roaring / Puffin / deletion-vector decoder. None of them share code with the
 * writer.
 */
import avro from 'avsc';
import zlib from 'node:zlib';
import { once } from 'node:events';
import SnappyJS from 'snappyjs';
import { parquetMetadata, parquetReadObjects } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';

const BigLong = avro.types.LongType.__with({
  fromBuffer: (b: Buffer) => b.readBigInt64LE(),
  toBuffer: (n: bigint) => {
    const b = Buffer.alloc(8);
    b.writeBigInt64LE(n);
    return b;
  },
  fromJSON: BigInt,
  toJSON: Number,
  isValid: (n: unknown) => typeof n === 'bigint',
  compare: (a: bigint, b: bigint) => (a === b ? 0 : a < b ? -1 : 1),
});

export interface AvroRead {
  readonly codec: string;
  /** Header metadata as strings (avro.schema included). */
  readonly meta: Record<string, string>;
  /** The writer schema exactly as stored in the header. */
  readonly rawSchema: any;
  readonly rows: any[];
}

/** Decodes an Avro object container file (codecs null, deflate, snappy with CRC check). */
export async function readAvro(buf: Uint8Array): Promise<AvroRead> {
  const snappy = (b: Buffer, cb: (err: Error | null, out?: Buffer) => void): void => {
    const out = Buffer.from(SnappyJS.uncompress(b.subarray(0, b.length - 4)));
    if (b.readUInt32BE(b.length - 4) !== zlib.crc32(out)) return cb(new Error('snappy block CRC mismatch'));
    cb(null, out);
  };
  const decoder = new avro.streams.BlockDecoder({
    codecs: { ...(avro.streams.BlockDecoder as any).getDefaultCodecs(), snappy },
    parseHook: (schema: unknown) =>
      avro.Type.forSchema(schema as avro.Schema, {
        registry: { long: BigLong },
        typeHook: (s: any) => (s && typeof s === 'object' && s.type === 'long' ? BigLong : undefined),
      } as never),
  });
  let codec = '';
  let meta: Record<string, string> = {};
  const rows: any[] = [];
  decoder.on('metadata', (_type: unknown, c: string, header: { meta: Record<string, Buffer> }) => {
    codec = c;
    meta = Object.fromEntries(Object.entries(header.meta).map(([k, v]) => [k, v.toString('utf8')]));
  });
  decoder.on('data', (r: unknown) => rows.push(r));
  const end = once(decoder, 'end');
  decoder.end(Buffer.from(buf));
  await end;
  return { codec, meta, rawSchema: JSON.parse(meta['avro.schema']!), rows };
}

/** Every record field in an Avro schema without a `field-id`, by path (should be none). */
export function fieldsWithoutIds(schema: any, path = ''): string[] {
  const missing: string[] = [];
  const visit = (t: any, p: string): void => {
    if (Array.isArray(t)) return t.forEach((u) => visit(u, p));
    if (!t || typeof t !== 'object') return;
    if (t.type === 'record') {
      for (const f of t.fields) {
        if (typeof f['field-id'] !== 'number') missing.push(`${p}.${f.name}`);
        visit(f.type, `${p}.${f.name}`);
      }
    } else if (t.type === 'array') {
      if (t.logicalType !== 'map' && typeof t['element-id'] !== 'number') missing.push(`${p}[]`);
      visit(t.items, `${p}[]`);
    }
  };
  visit(schema, path);
  return missing;
}

/** Field id → field name for the top-level fields of a record schema. */
export function fieldIds(record: any): Map<number, string> {
  return new Map(record.fields.map((f: any) => [f['field-id'], f.name]));
}

/** An Avro `array<record{key,value}>` map as a JS Map. */
export function avroMap<V>(kv: Array<{ key: number; value: V }> | null): Map<number, V> {
  return new Map((kv ?? []).map((e) => [e.key, e.value]));
}

const RAW_PARSERS = {
  timestampFromMilliseconds: (v: bigint) => v,
  timestampFromMicroseconds: (v: bigint) => v,
  timestampFromNanoseconds: (v: bigint) => v,
  dateFromDays: (v: number) => v,
};

/** Rows of a Parquet file (timestamps as bigint µs, dates as day numbers, binary as bytes) and its footer. */
export async function readParquet(buf: Uint8Array): Promise<{ rows: Record<string, unknown>[]; footer: ReturnType<typeof parquetMetadata> }> {
  const file = buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) as ArrayBuffer;
  const rows = (await parquetReadObjects({ file, compressors, utf8: false, parsers: RAW_PARSERS } as never)) as Record<string, unknown>[];
  return { rows, footer: parquetMetadata(file) };
}

/** Decodes a portable 64-bit Roaring bitmap (RoaringFormatSpec; Iceberg "Deletion Vectors") into sorted positions. */
export function decodeRoaring64(buf: Buffer): bigint[] {
  const out: bigint[] = [];
  const count = Number(buf.readBigUInt64LE(0));
  let pos = 8;
  for (let b = 0; b < count; b++) {
    const high = BigInt(buf.readUInt32LE(pos)) << 32n;
    pos += 4;
    const { values, end } = decodeRoaring32(buf, pos);
    pos = end;
    for (const v of values) out.push(high | BigInt(v));
  }
  return out;
}

function decodeRoaring32(buf: Buffer, start: number): { values: number[]; end: number } {
  const cookie = buf.readUInt32LE(start);
  let pos = start + 4;
  let n: number;
  let runFlags: Buffer | null = null;
  if ((cookie & 0xffff) === 12347) {
    n = (cookie >>> 16) + 1;
    runFlags = buf.subarray(pos, pos + Math.ceil(n / 8));
    pos += Math.ceil(n / 8);
  } else if (cookie === 12346) {
    n = buf.readUInt32LE(pos);
    pos += 4;
  } else throw new Error(`bad roaring cookie ${cookie}`);
  const keys: number[] = [];
  const cards: number[] = [];
  for (let i = 0; i < n; i++) {
    keys.push(buf.readUInt16LE(pos));
    cards.push(buf.readUInt16LE(pos + 2) + 1);
    pos += 4;
  }
  if (!runFlags || n >= 4) pos += 4 * n; // offset header
  const values: number[] = [];
  for (let i = 0; i < n; i++) {
    const base = keys[i]! * 65536;
    if (runFlags && runFlags[i >> 3]! & (1 << (i & 7))) {
      const runs = buf.readUInt16LE(pos);
      pos += 2;
      for (let r = 0; r < runs; r++) {
        const s = buf.readUInt16LE(pos);
        const len = buf.readUInt16LE(pos + 2);
        pos += 4;
        for (let v = s; v <= s + len; v++) values.push(base + v);
      }
    } else if (cards[i]! <= 4096) {
      for (let c = 0; c < cards[i]!; c++, pos += 2) values.push(base + buf.readUInt16LE(pos));
    } else {
      for (let bit = 0; bit < 65536; bit++) if (buf[pos + (bit >> 3)]! & (1 << (bit & 7))) values.push(base + bit);
      pos += 8192;
    }
  }
  return { values, end: pos };
}

/** A `deletion-vector-v1` blob: checks length prefix, magic and CRC, returns the positions. */
export function decodeDvBlob(blob: Buffer): { positions: bigint[]; crcOk: boolean; lengthOk: boolean } {
  const length = blob.readUInt32BE(0);
  const body = blob.subarray(4, 4 + length);
  if (!body.subarray(0, 4).equals(Buffer.from([0xd1, 0xd3, 0x39, 0x64]))) throw new Error('bad DV magic');
  const crcOk = blob.readUInt32BE(4 + length) === zlib.crc32(body);
  return { positions: decodeRoaring64(body.subarray(4)), crcOk, lengthOk: blob.length === length + 8 };
}

/** The Puffin footer JSON (checks both magics and the footer structure). */
export function readPuffinFooter(buf: Buffer): any {
  const magic = Buffer.from('PFA1');
  if (!buf.subarray(0, 4).equals(magic) || !buf.subarray(buf.length - 4).equals(magic)) throw new Error('bad Puffin magic');
  const flags = buf.readUInt32LE(buf.length - 8);
  const size = buf.readUInt32LE(buf.length - 12);
  const start = buf.length - 12 - size;
  if (!buf.subarray(start - 4, start).equals(magic) || flags !== 0) throw new Error('bad Puffin footer');
  return JSON.parse(buf.subarray(start, start + size).toString('utf8'));
}
