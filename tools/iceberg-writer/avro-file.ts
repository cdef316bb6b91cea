/**
 * A synchronous Avro object container file writer (Avro spec "Object Container Files").
 * Records are encoded by avsc with a BigInt long type; the header carries the *raw* schema,
 * so Iceberg's `field-id` attributes survive (avsc would drop them from a Type).
 */
import avro from 'avsc';
import zlib from 'node:zlib';
import SnappyJS from 'snappyjs';
import type { AvroCodec } from './model.js';
import type { AvroSchema } from './avro-schema.js';

const MAGIC = Buffer.from([0x4f, 0x62, 0x6a, 0x01]); // "Obj" 1
const BLOCK_BYTES = 64 * 1024;

const BigLong = avro.types.LongType.__with({
  fromBuffer: (b: Buffer) => b.readBigInt64LE(),
  toBuffer: (n: bigint | number) => {
    const b = Buffer.allocUnsafe(8); // pooled: one of these per long written
    b.writeBigInt64LE(BigInt(n));
    return b;
  },
  fromJSON: BigInt,
  toJSON: Number,
  isValid: (n: unknown) => typeof n === 'bigint' || Number.isSafeInteger(n),
  compare: (a: bigint, b: bigint) => (a === b ? 0 : a < b ? -1 : 1),
});

/** avsc options with BigInt longs; a fresh object per call, because avsc keeps named types in it. */
function bigLongOptions(): Partial<avro.ForSchemaOptions> {
  return {
    registry: { long: BigLong },
    typeHook: (s: unknown) =>
      s !== null && typeof s === 'object' && (s as { type?: unknown }).type === 'long' ? BigLong : undefined,
  } as Partial<avro.ForSchemaOptions>;
}

export interface AvroFileOptions {
  readonly codec: AvroCodec;
  /** Header metadata in the order to write it (after avro.schema and avro.codec). */
  readonly metadata: ReadonlyArray<readonly [string, string]>;
  readonly syncMarker: Buffer;
}

/** Encodes records into a complete container file. */
export function writeAvroFile(schema: AvroSchema, records: Iterable<unknown>, opts: AvroFileOptions): Buffer {
  const type = avro.Type.forSchema(schema as avro.Schema, bigLongOptions());
  const chunks: Buffer[] = [MAGIC, encodeHeaderMeta(schema, opts), opts.syncMarker];
  let block: Buffer[] = [];
  let blockBytes = 0;
  let count = 0;
  const flush = (): void => {
    if (count === 0) return;
    const body = compress(Buffer.concat(block, blockBytes), opts.codec);
    chunks.push(zigzagLong(count), zigzagLong(body.length), body, opts.syncMarker);
    block = [];
    blockBytes = 0;
    count = 0;
  };
  for (const record of records) {
    const bytes = type.toBuffer(record);
    block.push(bytes);
    blockBytes += bytes.length;
    count++;
    if (blockBytes >= BLOCK_BYTES) flush();
  }
  flush();
  return Buffer.concat(chunks);
}

function encodeHeaderMeta(schema: AvroSchema, opts: AvroFileOptions): Buffer {
  const entries: Array<readonly [string, string]> = [
    ['avro.schema', JSON.stringify(schema)],
    ['avro.codec', opts.codec],
    ...opts.metadata,
  ];
  const parts: Buffer[] = [zigzagLong(entries.length)];
  for (const [key, value] of entries) parts.push(avroBytes(Buffer.from(key)), avroBytes(Buffer.from(value)));
  parts.push(zigzagLong(0));
  return Buffer.concat(parts);
}

function avroBytes(b: Buffer): Buffer {
  return Buffer.concat([zigzagLong(b.length), b]);
}

function compress(raw: Buffer, codec: AvroCodec): Buffer {
  switch (codec) {
    case 'null':
      return raw;
    case 'deflate':
      // Avro spec: "deflate" is RFC 1951 without the zlib header
      return zlib.deflateRawSync(raw);
    case 'snappy': {
      // Avro spec: each snappy block is followed by the 4-byte big-endian CRC-32 of the uncompressed data
      const crc = Buffer.alloc(4);
      crc.writeUInt32BE(zlib.crc32(raw));
      return Buffer.concat([Buffer.from(SnappyJS.compress(raw)), crc]);
    }
  }
}

/** Avro `long` encoding: zig-zag, then base-128 varint. */
function zigzagLong(n: number): Buffer {
  let z = BigInt(n) >= 0n ? BigInt(n) << 1n : (-BigInt(n) << 1n) - 1n;
  const out: number[] = [];
  while (z > 0x7fn) {
    out.push(Number(z & 0x7fn) | 0x80);
    z >>= 7n;
  }
  out.push(Number(z));
  return Buffer.from(out);
}
