/**
 * Test-only Avro container writer: writes the raw schema (with Iceberg field ids) to the header
 * and encodes values with BigInt longs (node20-stack-notes §3 pitfall 7), with every codec the
 * reader supports. zstandard uses the `zstd` CLI when present, else a valid frame of raw blocks.
 */
import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import zlib from 'node:zlib';
import avro from 'avsc';
import SnappyJS from 'snappyjs';
import { avroOptions } from '../../../src/planner/manifests/avro-types.js';

export type Codec = 'null' | 'deflate' | 'snappy' | 'zstandard';

export interface WriteOptions {
  readonly codec?: Codec;
  readonly metadata?: Record<string, string>;
  /** Bytes after which avsc closes a block; small values give many blocks. */
  readonly blockSize?: number;
}

type Callback = (err: Error | null, out?: Buffer) => void;

function snappyEncode(buf: Buffer, cb: Callback): void {
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(buf));
  cb(null, Buffer.concat([Buffer.from(SnappyJS.compress(buf)), crc]));
}

/** A zstd frame holding `data` in raw (stored) blocks: window 2 MiB, no checksum (RFC 8878 §3.1.1). */
function rawZstdFrame(data: Buffer): Buffer {
  const parts: Buffer[] = [Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x58])];
  const MAX = 128 * 1024;
  let pos = 0;
  do {
    const chunk = data.subarray(pos, pos + MAX);
    pos += chunk.length;
    const last = pos >= data.length ? 1 : 0;
    const header = last | (chunk.length << 3);
    parts.push(Buffer.from([header & 0xff, (header >> 8) & 0xff, (header >> 16) & 0xff]), chunk);
  } while (pos < data.length);
  return Buffer.concat(parts);
}

let zstdCli: boolean | undefined;

export function zstdCompress(data: Buffer): Buffer {
  if (zstdCli !== false) {
    try {
      const out = execFileSync('zstd', ['-q', '-c', '-3'], { input: data });
      zstdCli = true;
      return out;
    } catch {
      zstdCli = false;
    }
  }
  return rawZstdFrame(data);
}

const CODECS = {
  ...avro.streams.BlockEncoder.defaultCodecs(),
  snappy: snappyEncode,
  zstandard: (buf: Buffer, cb: Callback) => cb(null, zstdCompress(buf)),
};

export async function writeAvro(schema: unknown, records: readonly unknown[], options: WriteOptions = {}): Promise<Buffer> {
  const metadata = Object.fromEntries(Object.entries(options.metadata ?? {}).map(([k, v]) => [k, Buffer.from(v)]));
  const encoder = new avro.streams.BlockEncoder(schema as avro.Schema, {
    codec: options.codec ?? 'deflate',
    codecs: CODECS,
    metadata,
    writeHeader: 'always', // a file without records is a header only, as Java writes it
    ...(options.blockSize !== undefined && { blockSize: options.blockSize }),
  } as never);
  // keep the raw schema (with field ids) in the header, encode with bigint longs
  (encoder as unknown as { _type: unknown })._type = avro.Type.forSchema(schema as avro.Schema, avroOptions());
  const chunks: Buffer[] = [];
  encoder.on('data', (c: Buffer) => chunks.push(c));
  const end = once(encoder, 'end');
  for (const r of records) encoder.write(r);
  encoder.end();
  await end;
  return Buffer.concat(chunks);
}
