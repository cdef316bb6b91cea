/**
 * Puffin files holding `deletion-vector-v1` blobs (Puffin spec "File structure" and
 * "deletion-vector-v1"; Java `PuffinWriter`, `BaseDVFileWriter`).
 */
import zlib from 'node:zlib';
import { serializePositions } from './roaring.js';
import { POSITION_DELETES, type ContentFile } from './model.js';

const PUFFIN_MAGIC = Buffer.from([0x50, 0x46, 0x41, 0x31]); // "PFA1"
const DV_MAGIC = Buffer.from([0xd1, 0xd3, 0x39, 0x64]);
// Java MetadataColumns.ROW_POSITION (`_pos`) = Integer.MAX_VALUE - 2
const ROW_POSITION_FIELD_ID = 2147483645;

/**
 * One deletion-vector blob: 4-byte big-endian length of (magic + bitmap), the magic D1 D3 39 64,
 * the portable 64-bit Roaring bitmap, then the big-endian CRC-32 of (magic + bitmap).
 */
export function deletionVectorBlob(positions: Iterable<bigint>): Buffer {
  const body = Buffer.concat([DV_MAGIC, serializePositions(positions)]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(body.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body));
  return Buffer.concat([length, body, crc]);
}

export interface DeletionVectorInput {
  /** The data file the positions refer to (its full location). */
  readonly referencedDataFile: string;
  readonly positions: readonly bigint[];
  /** The data file's spec id and partition tuple; the DV entry carries the same. */
  readonly specId: number;
  readonly partition: readonly unknown[];
}

export interface PuffinResult {
  readonly bytes: Buffer;
  /** One delete-file record per blob (file_format PUFFIN, content position deletes). */
  readonly files: ContentFile[];
}

/** Writes one Puffin file with a DV blob per referenced data file, ordered as given. */
export function writeDeletionVectorFile(filePath: string, dvs: readonly DeletionVectorInput[], createdBy: string): PuffinResult {
  const parts: Buffer[] = [PUFFIN_MAGIC];
  let offset = PUFFIN_MAGIC.length;
  const blobs: Array<{ offset: number; length: number; dv: DeletionVectorInput; cardinality: number }> = [];
  for (const dv of dvs) {
    const blob = deletionVectorBlob(dv.positions);
    const cardinality = new Set(dv.positions).size;
    blobs.push({ offset, length: blob.length, dv, cardinality });
    parts.push(blob);
    offset += blob.length;
  }
  // Puffin spec "FileMetadata": blob metadata in Java's key order; snapshot-id and sequence-number are -1 for DVs
  const footerJson = JSON.stringify({
    blobs: blobs.map((b) => ({
      type: 'deletion-vector-v1',
      fields: [ROW_POSITION_FIELD_ID],
      'snapshot-id': -1,
      'sequence-number': -1,
      offset: b.offset,
      length: b.length,
      properties: { 'referenced-data-file': b.dv.referencedDataFile, cardinality: String(b.cardinality) },
    })),
    properties: { 'created-by': createdBy },
  });
  const payload = Buffer.from(footerJson, 'utf8');
  const tail = Buffer.alloc(8);
  tail.writeInt32LE(payload.length, 0);
  tail.writeInt32LE(0, 4); // flags: footer payload not compressed
  parts.push(PUFFIN_MAGIC, payload, tail, PUFFIN_MAGIC);
  const bytes = Buffer.concat(parts);
  const files = blobs.map(
    (b): ContentFile => ({
      content: POSITION_DELETES,
      filePath,
      fileFormat: 'PUFFIN',
      specId: b.dv.specId,
      partition: b.dv.partition as ContentFile['partition'],
      recordCount: BigInt(b.cardinality),
      fileSizeInBytes: BigInt(bytes.length),
      referencedDataFile: b.dv.referencedDataFile,
      contentOffset: BigInt(b.offset),
      contentSizeInBytes: BigInt(b.length),
    }),
  );
  return { bytes, files };
}
