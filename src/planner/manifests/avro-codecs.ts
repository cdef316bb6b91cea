/**
 * Block codecs of Avro object container files (Avro spec "Required Codecs", "Optional Codecs"):
 * null, deflate (raw RFC 1951), snappy (block + 4-byte big-endian CRC32 of the uncompressed
 * data) and zstandard. Iceberg writers use deflate by default, PyIceberg null.
 */
import zlib from 'node:zlib';
import SnappyJS from 'snappyjs';
import { decompress as zstdDecompress } from 'fzstd';
import { MalformedInput } from './avro-binary.js';

const SUPPORTED_CODECS: readonly string[] = ['null', 'deflate', 'snappy', 'zstandard'];

export function isSupportedCodec(codec: string): boolean {
  return SUPPORTED_CODECS.includes(codec);
}

/** The uncompressed bytes of one block's data. */
export function decompressBlock(codec: string, data: Buffer): Buffer {
  switch (codec) {
    case 'null':
      return data;
    case 'deflate':
      return guarded('deflate', () => zlib.inflateRawSync(data));
    case 'snappy':
      return snappy(data);
    case 'zstandard':
      return guarded('zstandard', () => {
        const out = zstdDecompress(data);
        return Buffer.from(out.buffer, out.byteOffset, out.byteLength);
      });
    default:
      throw new MalformedInput(`unsupported Avro codec ${JSON.stringify(codec)}`);
  }
}

// Avro spec "snappy": each block is compressed with Snappy and followed by the 4-byte big-endian CRC32 of the uncompressed data
function snappy(data: Buffer): Buffer {
  if (data.length < 4) throw new MalformedInput('snappy block is shorter than its CRC');
  const out = guarded('snappy', () => {
    const raw = SnappyJS.uncompress(data.subarray(0, data.length - 4));
    return Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
  });
  if (zlib.crc32(out) !== data.readUInt32BE(data.length - 4)) throw new MalformedInput('snappy block CRC32 mismatch');
  return out;
}

function guarded(codec: string, run: () => Buffer): Buffer {
  try {
    return run();
  } catch (err) {
    throw new MalformedInput(`${codec} block does not decompress (${(err as Error).message})`);
  }
}
