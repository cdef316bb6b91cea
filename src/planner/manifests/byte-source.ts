/**
 * Where a container reader gets its bytes: the whole file read once, or ranged reads through
 * `FileIO.readRange` with a read-ahead window so that walking small blocks does not turn into
 * one request per block. Both count what they fetched, so callers can measure.
 */
import type { FileIO } from '../../storage/index.js';

export interface ReadStats {
  /** FileIO calls made (readFile or readRange). */
  reads: number;
  bytesRead: number;
}

export interface ByteSource {
  /**
   * Up to `length` bytes at `offset`; fewer only at the end of the file. A ranged source
   * fetches at least `readAhead` bytes (its window by default) when it has to fetch.
   */
  read(offset: number, length: number, readAhead?: number): Promise<Buffer>;
  readonly stats: ReadStats;
}

/** The whole file, read on first use. */
export class WholeFileSource implements ByteSource {
  readonly stats: ReadStats = { reads: 0, bytesRead: 0 };
  #bytes: Promise<Buffer> | undefined;

  constructor(
    private readonly io: FileIO,
    private readonly location: string,
  ) {}

  async read(offset: number, length: number): Promise<Buffer> {
    this.#bytes ??= this.io.readFile(this.location).then((b) => {
      this.stats.reads += 1;
      this.stats.bytesRead += b.length;
      return b;
    });
    const all = await this.#bytes;
    return all.subarray(Math.min(offset, all.length), Math.min(offset + length, all.length));
  }
}

/** First read of a header: Java manifest headers (Avro schema, table schema, spec) are a few KiB. */
export const HEADER_WINDOW = 16 * 1024;
/** Read-ahead when walking blocks: Java closes a block at ~64 KB uncompressed, a few KiB deflated. */
const DEFAULT_WINDOW = 64 * 1024;

/** Ranged reads; a request inside the last fetched window costs nothing. */
export class RangeSource implements ByteSource {
  readonly stats: ReadStats = { reads: 0, bytesRead: 0 };
  #windowOffset = 0;
  #window: Buffer = Buffer.alloc(0);
  #eofAt: number | undefined;

  constructor(
    private readonly io: FileIO,
    private readonly location: string,
    private readonly windowSize = DEFAULT_WINDOW,
  ) {}

  async read(offset: number, length: number, readAhead = this.windowSize): Promise<Buffer> {
    const end = offset + length;
    const windowEnd = this.#windowOffset + this.#window.length;
    const coveredToEof = this.#eofAt !== undefined && windowEnd === this.#eofAt;
    if (offset >= this.#windowOffset && (end <= windowEnd || coveredToEof)) {
      return this.#window.subarray(offset - this.#windowOffset, Math.min(end, windowEnd) - this.#windowOffset);
    }
    const want = Math.max(length, readAhead);
    const got = await this.io.readRange(this.location, offset, want);
    this.stats.reads += 1;
    this.stats.bytesRead += got.length;
    if (got.length < want) this.#eofAt = offset + got.length;
    this.#windowOffset = offset;
    this.#window = got;
    return got.subarray(0, Math.min(length, got.length));
  }
}
