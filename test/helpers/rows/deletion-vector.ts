/**
 * Deletion vectors (spec "Deletion Vectors", Puffin blob type `deletion-vector-v1`): a 4-byte
 * big-endian length of magic + bitmap, the magic D1 D3 39 64, a portable 64-bit Roaring bitmap
 * of deleted positions, and a big-endian CRC-32 of magic + bitmap. Plus a Puffin footer reader
 * (spec "Puffin file format") for checking blobs against their declared properties.
 */
import zlib from 'node:zlib';
import { decodeRoaring64 } from './roaring.js';

const DV_MAGIC = [0xd1, 0xd3, 0x39, 0x64];
const PUFFIN_MAGIC = [0x50, 0x46, 0x41, 0x31];

/** The deleted positions of one DV blob (the bytes at content_offset, content_size_in_bytes long). */
export function decodeDeletionVector(blob: Uint8Array): bigint[] {
  if (blob.length < 12) throw new Error(`a deletion vector blob needs at least 12 bytes, got ${blob.length}`);
  const view = new DataView(blob.buffer, blob.byteOffset, blob.byteLength);
  const length = view.getUint32(0, false);
  if (length !== blob.length - 8) throw new Error(`deletion vector length ${length} does not match the blob size ${blob.length} - 8`);
  if (!DV_MAGIC.every((b, i) => blob[4 + i] === b)) throw new Error('deletion vector magic is not D1 D3 39 64');
  const body = blob.subarray(4, 4 + length);
  const crc = view.getUint32(4 + length, false);
  const actual = zlib.crc32(body) >>> 0;
  if (crc !== actual) throw new Error(`deletion vector CRC ${crc.toString(16)} != computed ${actual.toString(16)}`);
  return decodeRoaring64(body.subarray(4));
}

export interface PuffinBlobMetadata {
  readonly type: string;
  readonly fields: readonly number[];
  readonly offset: number;
  readonly length: number;
  readonly 'compression-codec'?: string;
  readonly properties?: Readonly<Record<string, string>>;
}

/** The blob list of a Puffin file's footer (uncompressed footers only, as every DV writer emits). */
export function readPuffinFooter(file: Uint8Array): PuffinBlobMetadata[] {
  const n = file.length;
  const magicAt = (at: number): boolean => PUFFIN_MAGIC.every((b, i) => file[at + i] === b);
  if (!magicAt(0) || !magicAt(n - 4)) throw new Error('not a Puffin file (magic PFA1 missing)');
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  const flags = view.getUint32(n - 8, true);
  if (flags & 1) throw new Error('compressed Puffin footers are not supported by this test reader');
  const payloadSize = view.getUint32(n - 12, true);
  const payloadStart = n - 12 - payloadSize;
  if (!magicAt(payloadStart - 4)) throw new Error('Puffin footer start magic missing');
  const footer = JSON.parse(Buffer.from(file.subarray(payloadStart, n - 12)).toString('utf8')) as { blobs: PuffinBlobMetadata[] };
  return footer.blobs;
}
