import zlib from 'node:zlib';
import { createComputeCache, type ComputeCache } from '../cache/index.js';
import { fail, isIcefrontError } from '../errors/index.js';
import { parseTableMetadata, type TableMetadata } from '../iceberg/index.js';
import type { FileIO } from '../storage/index.js';

export const DEFAULT_METADATA_CACHE_BYTES = 64 * 1024 * 1024;

const GZIP_MAGIC = [0x1f, 0x8b] as const;

/**
 * Reads and parses metadata files, caching parsed results keyed by (path, size, mtime) so a
 * rewritten file is re-read; concurrent loads of one file share one parse. The cache is bounded
 * by the total size of the files it holds.
 */
export class MetadataReader {
  private readonly cache: ComputeCache<{ metadata: TableMetadata; bytes: number }>;

  constructor(
    private readonly io: FileIO,
    maxBytes: number = DEFAULT_METADATA_CACHE_BYTES,
  ) {
    this.cache = createComputeCache({ name: 'table-metadata', maxBytes, sizeOf: (v) => v.bytes });
  }

  /** Parse the metadata file at `file` (a local path); `label` names it in error messages. */
  async read(file: string, label: string): Promise<TableMetadata> {
    const stat = await this.io.stat(file);
    const key = `${file}\0${stat.size}\0${stat.mtimeMs}`;
    const { metadata } = await this.cache.get(key, async () => {
      const raw = await this.io.readFile(file);
      return { metadata: parse(raw, label), bytes: raw.length };
    });
    return metadata;
  }
}

function parse(raw: Buffer, label: string): TableMetadata {
  let bytes = raw;
  // Iceberg writes gzip metadata as `*.gz.metadata.json`; detect by magic so any name works.
  if (raw.length >= 2 && raw[0] === GZIP_MAGIC[0] && raw[1] === GZIP_MAGIC[1]) {
    try {
      bytes = zlib.gunzipSync(raw);
    } catch (err) {
      throw fail('INVALID_METADATA', `${label}: not a valid gzip file`, err);
    }
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch (err) {
    throw fail('INVALID_METADATA', `${label}: not valid UTF-8`, err);
  }
  try {
    return parseTableMetadata(text);
  } catch (err) {
    const reason = isIcefrontError(err) || err instanceof Error ? err.message : String(err);
    throw fail('INVALID_METADATA', `${label}: ${reason}`, err);
  }
}
