import zlib from 'node:zlib';
import { LRUCache } from 'lru-cache';
import { createComputeCache, type ComputeCache } from '../cache/index.js';
import { fail, isIcefrontError } from '../errors/index.js';
import type { CacheMetrics } from '../observability/index.js';
import { parseTableMetadata, type TableMetadata } from '../iceberg/index.js';
import type { FileIO } from '../storage/index.js';

export const DEFAULT_METADATA_CACHE_BYTES = 64 * 1024 * 1024;
/** Files `remember` keeps keys of: about one per table written to (each a short string). */
const MAX_WRITTEN_FILES = 10_000;

const GZIP_MAGIC = [0x1f, 0x8b] as const;

/** A metadata file as read: its parsed metadata, and its JSON text when this process wrote it. */
export interface ReadMetadata {
  readonly metadata: TableMetadata;
  /** As TableVersion.json: present for a file `remember` was told of, absent for one parsed from disk. */
  readonly json?: string;
}

/**
 * Reads and parses metadata files, caching parsed results keyed by (path, size, mtime) so a
 * rewritten file is re-read; concurrent loads of one file share one parse. The cache is bounded
 * by the total size of the files it holds (and of the JSON text kept with those this process wrote).
 */
export class MetadataReader {
  private readonly cache: ComputeCache<ReadMetadata & { bytes: number }>;
  /** The cache key of each file `remember` holds, by file (one a table, while its commits go on here). */
  private readonly written = new LRUCache<string, string>({ max: MAX_WRITTEN_FILES });

  /** The cache shows on /metrics and the status page as `table-metadata:<catalog>`. */
  constructor(
    private readonly io: FileIO,
    maxBytes: number = DEFAULT_METADATA_CACHE_BYTES,
    options: { readonly catalog?: string; readonly metrics?: CacheMetrics } = {},
  ) {
    const name = options.catalog === undefined ? 'table-metadata' : `table-metadata:${options.catalog}`;
    this.cache = createComputeCache({ name, maxBytes, sizeOf: (v) => v.bytes, ...(options.metrics && { metrics: options.metrics }) });
  }

  /** Parse the metadata file at `file` (a local path); `label` names it in error messages. */
  async read(file: string, label: string): Promise<ReadMetadata> {
    const { metadata, json } = await this.cache.get(await this.key(file), async () => {
      const raw = await this.io.readFile(file);
      return { metadata: parse(raw, label), bytes: raw.length };
    });
    return json === undefined ? { metadata } : { metadata, json };
  }

  /**
   * Holds the metadata and JSON text of a file this process has just written at `file`, so the
   * next read of it (the next commit's fresh state, the next load) neither reads nor parses it.
   * Keyed as `read` keys it, by the file's size and mtime now: a file rewritten later is read again.
   * `supersedes`, the table's previous file, is dropped when this process wrote it too: no one
   * loads a table at a version it has left, so a table with a long run of commits holds one
   * version here, not as many as the budget takes.
   */
  async remember(file: string, written: Required<ReadMetadata>, fileBytes: number, supersedes?: string): Promise<void> {
    const entry = { metadata: written.metadata, json: written.json, bytes: fileBytes + written.json.length };
    const key = await this.key(file);
    await this.cache.get(key, async () => entry);
    this.written.set(file, key);
    const previous = supersedes === undefined ? undefined : this.written.get(supersedes);
    if (previous !== undefined) {
      this.cache.delete(previous);
      this.written.delete(supersedes!);
    }
  }

  private async key(file: string): Promise<string> {
    const stat = await this.io.stat(file);
    return `${file}\0${stat.size}\0${stat.mtimeMs}`;
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
