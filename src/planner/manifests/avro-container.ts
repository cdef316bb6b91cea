/**
 * A reader of Avro object container files (Avro spec "Object Container Files") that can skip:
 * each block starts with its record count and byte size, so blocks outside a wanted record
 * range are stepped over without being read in full, decompressed or decoded.
 */
import { fail, isIcefrontError, type IcefrontError } from '../../errors/index.js';
import type { FileIO } from '../../storage/index.js';
import { AvroCursor, EncryptedInput, MalformedInput, TruncatedInput } from './avro-binary.js';
import { decompressBlock, isSupportedCodec } from './avro-codecs.js';
import { parseHeader, SYNC_LENGTH, type AvroHeader } from './avro-header.js';
import type { RecordDecoder } from './avro-types.js';
import { HEADER_WINDOW, RangeSource, WholeFileSource, type ByteSource, type ReadStats } from './byte-source.js';

/** Where one data block sits and which records it holds. */
export interface AvroBlock {
  /** File offset of the block's record-count varint. */
  readonly offset: number;
  /** Ordinal (0-based, file order) of the block's first record. */
  readonly firstRecord: number;
  readonly recordCount: number;
  /** File offset and length of the (compressed) block data; the 16-byte sync marker follows. */
  readonly dataOffset: number;
  readonly dataLength: number;
}

/** Offset of the block after `block`. */
export function nextBlockOffset(block: AvroBlock): number {
  return block.dataOffset + block.dataLength + SYNC_LENGTH;
}

export interface ContainerStats extends ReadStats {
  /** Block headers parsed. */
  blocksWalked: number;
  /** Blocks whose data was read, decompressed and decoded. */
  blocksDecoded: number;
}

/** Two varints of at most 10 bytes each. */
const BLOCK_HEADER_MAX = 20;

/** Maps anything thrown while reading `location` to an IcefrontError that names the file. */
export function containerError(location: string, err: unknown): IcefrontError {
  // storage errors (FILE_NOT_FOUND, STORAGE_FAILURE, …) and errors that already name the file pass through
  const invalid = isIcefrontError(err, 'INVALID_VALUE') || isIcefrontError(err, 'INVALID_METADATA');
  if (isIcefrontError(err) && (!invalid || err.message.includes(location))) return err;
  const detail = err instanceof Error ? err.message : String(err);
  if (err instanceof EncryptedInput) return fail('UNSUPPORTED_OPERATION', `Cannot read ${location}: ${detail}`, err);
  return fail('INVALID_METADATA', `Invalid Avro file ${location}: ${detail}`, err);
}

export class AvroContainer {
  readonly stats: ContainerStats;

  private constructor(
    readonly location: string,
    readonly header: AvroHeader,
    private readonly source: ByteSource,
  ) {
    this.stats = Object.assign(source.stats, { blocksWalked: 0, blocksDecoded: 0 });
  }

  /**
   * Opens a container and parses its header. `ranged` reads through `FileIO.readRange` (header
   * plus the blocks asked for); otherwise the whole file is read once.
   */
  static async open(io: FileIO, location: string, ranged: boolean): Promise<AvroContainer> {
    const source: ByteSource = ranged ? new RangeSource(io, location) : new WholeFileSource(io, location);
    try {
      let want = HEADER_WINDOW;
      for (;;) {
        const bytes = await source.read(0, want, want);
        try {
          const header = parseHeader(bytes);
          if (!isSupportedCodec(header.codec)) throw new MalformedInput(`unsupported Avro codec ${JSON.stringify(header.codec)}`);
          return new AvroContainer(location, header, source);
        } catch (err) {
          if (!(err instanceof TruncatedInput) || bytes.length < want) throw err;
          want *= 4;
        }
      }
    } catch (err) {
      throw containerError(location, err);
    }
  }

  /** Fetches `[offset, offset + length)` in one read, for blocks whose place is already known. */
  async prefetch(offset: number, length: number): Promise<void> {
    try {
      await this.source.read(offset, length, length);
    } catch (err) {
      throw containerError(this.location, err);
    }
  }

  /** The block at `offset` holding records from `firstRecord`, or undefined at the end of the file. */
  async blockAt(offset: number, firstRecord: number): Promise<AvroBlock | undefined> {
    try {
      const head = await this.source.read(offset, BLOCK_HEADER_MAX);
      if (head.length === 0) return undefined;
      const cur = new AvroCursor(head);
      const recordCount = cur.long('block record count');
      const dataLength = cur.long('block size');
      if (recordCount < 0 || dataLength < 0) throw new MalformedInput(`block at byte ${offset} has a negative count or size`);
      this.stats.blocksWalked += 1;
      return { offset, firstRecord, recordCount, dataOffset: offset + cur.pos, dataLength };
    } catch (err) {
      throw containerError(this.location, err instanceof TruncatedInput ? new TruncatedInput(`block header at byte ${offset}`) : err);
    }
  }

  /** Reads, checks and decompresses a block, then decodes its records in order. */
  async decodeBlock(block: AvroBlock, decoder: RecordDecoder, onRecord: (value: unknown, ordinal: number) => void): Promise<void> {
    try {
      const want = block.dataLength + SYNC_LENGTH;
      const raw = await this.source.read(block.dataOffset, want);
      if (raw.length < want) throw new TruncatedInput(`block at byte ${block.offset} needs ${want} bytes, the file has ${raw.length}`);
      if (!raw.subarray(block.dataLength).equals(this.header.sync)) {
        throw new MalformedInput(`block at byte ${block.offset} is not followed by the sync marker`);
      }
      const data = decompressBlock(this.header.codec, raw.subarray(0, block.dataLength));
      this.stats.blocksDecoded += 1;
      let pos = 0;
      for (let i = 0; i < block.recordCount; i += 1) {
        const { value, offset } = decoder.decode(data, pos);
        if (offset < 0) throw new TruncatedInput(`record ${block.firstRecord + i} in the block at byte ${block.offset}`);
        pos = offset;
        onRecord(value, block.firstRecord + i);
      }
      if (pos !== data.length) {
        throw new MalformedInput(`block at byte ${block.offset} has ${data.length - pos} bytes after its ${block.recordCount} records`);
      }
    } catch (err) {
      throw containerError(this.location, err);
    }
  }
}
