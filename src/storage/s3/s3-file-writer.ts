/**
 * How a catalog Icefront keeps itself writes its metadata to S3 (FileWriter, ../file-writer.ts),
 * over the S3 FileIO's signed transport. Every location must be an object below one of the
 * writer's roots (`s3://bucket/prefix`), compared literally, as S3 stores keys: anything else is
 * PATH_OUTSIDE_WAREHOUSE, before any request is sent.
 *
 * S3 has no folders: a "directory" is the set of keys below `<key>/`. So making one changes
 * nothing (a key made below it later makes it exist), an empty one is a prefix with no keys, and
 * removing a tree deletes every key below the prefix.
 */
import { fail, isIcefrontError } from '../../errors/index.js';
import type { FileWriter } from '../file-writer.js';
import { deleteKey, deleteKeys } from './s3-delete.js';
import { s3Connection, type S3FileIOOptions } from './s3-file-io.js';
import { listPages } from './s3-list.js';
import { parseS3Location, type S3ObjectLocation } from './s3-location.js';
import type { S3Transport } from './s3-transport.js';
import type { S3UrlBuilder } from './s3-url.js';

export interface S3FileWriterOptions extends S3FileIOOptions {
  /** Where writes may go: `s3://bucket/prefix` (s3a:// and s3n:// too), a whole bucket as `s3://bucket`. */
  readonly roots: readonly string[];
}

export function createS3FileWriter(options: S3FileWriterOptions): FileWriter {
  if (options.roots.length === 0) throw fail('INTERNAL', 'An S3 FileWriter needs at least one root');
  const roots = options.roots.map((root) => {
    const { bucket, key } = parseS3Location(root);
    return { bucket, key: key.replace(/\/+$/, '') };
  });
  const { urls, transport } = s3Connection(options);
  return new S3FileWriter(roots, urls, transport);
}

class S3FileWriter implements FileWriter {
  constructor(
    private readonly roots: readonly S3ObjectLocation[],
    private readonly urls: S3UrlBuilder,
    private readonly transport: S3Transport,
  ) {}

  /**
   * S3 conditional writes (PutObject `If-None-Match: *`): 412 PreconditionFailed when the key
   * exists, 409 ConditionalRequestConflict when a concurrent conditional write to it is under
   * way; either way this write did not happen and the answer is false. Not retried after a
   * dropped connection or a 5xx other than 503: it may have been written, and a retry's 412 would
   * then be taken for another writer's file (STORAGE_FAILURE instead: the caller cannot know).
   */
  async createExclusive(location: string, bytes: Uint8Array): Promise<boolean> {
    const { bucket, key } = this.object(location);
    const request = { method: 'PUT', url: this.urls.objectUrl(bucket, key), location, body: bytes, headers: { 'if-none-match': '*' } } as const;
    return this.transport.exchange({ ...request, action: 'write', idempotent: false, accept: [409, 412] }, async (res) => {
      await res.body?.cancel().catch(() => undefined);
      return res.status !== 409 && res.status !== 412;
    });
  }

  /** PutObject: S3 replaces an object whole and atomically (readers see the old or the new bytes), so `durable` changes nothing. */
  async replace(location: string, bytes: Uint8Array): Promise<void> {
    const { bucket, key } = this.object(location);
    await this.transport.exchange({ method: 'PUT', url: this.urls.objectUrl(bucket, key), location, body: bytes, action: 'write' }, async (res) => {
      await res.body?.cancel().catch(() => undefined);
    });
  }

  async deleteFile(location: string): Promise<void> {
    const { bucket, key } = this.object(location);
    await deleteKey(this.transport, this.urls, bucket, key, location);
  }

  /** Nothing to make: a folder exists in S3 once a key below it does. Confined all the same. */
  async makeDirectory(location: string): Promise<boolean> {
    this.folder(location);
    return true;
  }

  /** True when no key is below the folder (a bare folder marker `<key>/`, which some tools write, is removed). */
  async removeEmptyDirectory(location: string): Promise<boolean> {
    const { bucket, prefix } = this.folder(location);
    try {
      for await (const page of listPages(this.transport, this.urls, { bucket, prefix, maxKeys: 2, location })) {
        if (page.keys.some((k) => k !== prefix)) return false;
        if (page.keys.includes(prefix) && prefix !== '') await deleteKey(this.transport, this.urls, bucket, prefix, location);
        break;
      }
    } catch (err) {
      // a bucket that is not there holds nothing (as a folder already gone)
      if (!isIcefrontError(err, 'FILE_NOT_FOUND')) throw err;
    }
    return true;
  }

  /** Every key below the folder, deleted a listing page (up to 1,000 keys) at a time. */
  async removeTree(location: string): Promise<void> {
    const { bucket, prefix } = this.folder(location);
    try {
      for await (const page of listPages(this.transport, this.urls, { bucket, prefix, location }))
        await deleteKeys(this.transport, this.urls, bucket, page.keys, location);
    } catch (err) {
      // a bucket that is not there holds no tree
      if (!isIcefrontError(err, 'FILE_NOT_FOUND')) throw err;
    }
  }

  /** Bucket and key of an object below a root (never a root itself). */
  private object(location: string): S3ObjectLocation {
    const target = this.parse(location);
    if (target.key === '' || !this.roots.some((root) => below(target, root, false))) throw outside(location);
    return target;
  }

  /** Bucket and listing prefix (`<key>/`, '' for a bucket) of a folder at or below a root. */
  private folder(location: string): { readonly bucket: string; readonly prefix: string } {
    const parsed = this.parse(location);
    const target = { bucket: parsed.bucket, key: parsed.key.replace(/\/+$/, '') };
    if (!this.roots.some((root) => below(target, root, true))) throw outside(location);
    return { bucket: target.bucket, prefix: target.key === '' ? '' : `${target.key}/` };
  }

  private parse(location: string): S3ObjectLocation {
    try {
      return parseS3Location(location);
    } catch {
      throw outside(location);
    }
  }
}

/** Whether `target` lies below `root` (or is it, when `orSelf`), by whole key segments. */
function below(target: S3ObjectLocation, root: S3ObjectLocation, orSelf: boolean): boolean {
  if (target.bucket !== root.bucket) return false;
  if (target.key === root.key) return orSelf;
  return root.key === '' || target.key.startsWith(`${root.key}/`);
}

function outside(location: string) {
  return fail('PATH_OUTSIDE_WAREHOUSE', `Location is outside the configured warehouse roots: ${location}`);
}
