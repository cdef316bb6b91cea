import zlib from 'node:zlib';
import { LRUCache } from 'lru-cache';
import { createComputeCache, type ComputeCache } from '../cache/index.js';
import { fail, isIcefrontError } from '../errors/index.js';
import type { CacheMetrics } from '../observability/index.js';
import { parseTableMetadata, type TableMetadata } from '../iceberg/index.js';
import type { FileIO } from '../storage/index.js';

export const DEFAULT_METADATA_CACHE_BYTES = 64 * 1024 * 1024;
/** Tables whose newest version the reader keeps track of (a few short strings each). */
const MAX_TABLES = 10_000;

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
 *
 * It holds one version of a table, the newest it has seen: no one loads a table at a version it
 * has left, so a table with a long run of commits does not fill the budget with its past versions
 * and push other tables out, whether the commits are this process's or another replica's (each
 * replica then reads the versions the others write).
 */
export class MetadataReader {
  private readonly cache: ComputeCache<ReadMetadata & { bytes: number }>;
  /** The version held of each table (by its UUID, else its metadata folder): its file, cache key and last-updated-ms. */
  private readonly newest = new LRUCache<string, { readonly file: string; readonly key: string; readonly updatedMs: number }>({ max: MAX_TABLES });

  /** The cache shows on /metrics and the status page as `table-metadata:<catalog>`. */
  constructor(
    private readonly io: FileIO,
    maxBytes: number = DEFAULT_METADATA_CACHE_BYTES,
    /** `idleMs`: a version nobody has read for this long leaves the cache (ComputeCacheOptions). */
    options: { readonly catalog?: string; readonly metrics?: CacheMetrics; readonly idleMs?: number } = {},
  ) {
    const name = options.catalog === undefined ? 'table-metadata' : `table-metadata:${options.catalog}`;
    this.cache = createComputeCache({ name, maxBytes, sizeOf: (v) => v.bytes, ...(options.metrics && { metrics: options.metrics }), ...(options.idleMs !== undefined && { idleMs: options.idleMs }) });
  }

  /** Parse the metadata file at `file` (a local path); `label` names it in error messages. */
  async read(file: string, label: string): Promise<ReadMetadata> {
    const key = await this.key(file);
    const { metadata, json } = await this.cache.get(key, async () => {
      const raw = await this.io.readFile(file);
      return { metadata: parse(raw, label), bytes: raw.length };
    });
    this.hold(file, key, metadata);
    return json === undefined ? { metadata } : { metadata, json };
  }

  /**
   * Holds the metadata and JSON text of a file this process has just written at `file`, so the
   * next read of it (the next commit's fresh state, the next load) neither reads nor parses it.
   * Keyed as `read` keys it, by the file's size and mtime now: a file rewritten later is read again.
   * The table's version held before gives way to it.
   */
  async remember(file: string, written: Required<ReadMetadata>, fileBytes: number): Promise<void> {
    const entry = { metadata: written.metadata, json: written.json, bytes: fileBytes + written.json.length };
    const key = await this.key(file);
    await this.cache.get(key, async () => entry);
    this.hold(file, key, written.metadata);
  }

  /**
   * Keeps `file` as its table's version unless the one held is newer, and drops the other from the
   * cache. Newer is what the metadata says (spec "Table Metadata", `metadata-log`: each version
   * lists the files before it, the one just before always while the log is kept): a version whose
   * log names the other's file; else the later `last-updated-ms`. Files are compared by name, as
   * the log may spell a location otherwise than the path read (`file:` URI, plain path).
   */
  private hold(file: string, key: string, metadata: TableMetadata): void {
    const table = metadata.tableUuid ?? file.slice(0, file.lastIndexOf('/'));
    const held = this.newest.get(table);
    if (held?.key === key) return;
    if (held !== undefined) {
      const lists = (m: TableMetadata | undefined, other: string) => m?.metadataLog.some((e) => nameOf(e.metadataFile) === nameOf(other)) === true;
      const newer = lists(metadata, held.file) || (!lists(this.cache.peek(held.key)?.metadata, file) && metadata.lastUpdatedMs >= held.updatedMs);
      if (!newer) {
        this.cache.delete(key);
        return;
      }
      this.cache.delete(held.key);
    }
    this.newest.set(table, { file, key, updatedMs: metadata.lastUpdatedMs });
  }

  private async key(file: string): Promise<string> {
    const stat = await this.io.stat(file);
    return `${file}\0${stat.size}\0${stat.mtimeMs}`;
  }
}

const nameOf = (location: string) => location.slice(location.lastIndexOf('/') + 1);

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
