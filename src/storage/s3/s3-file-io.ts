/**
 * A FileIO over S3 (and S3-compatible stores) for `s3://`, `s3a://` and `s3n://` locations:
 * GET, ranged GET, HEAD and ListObjectsV2, signed with SigV4 when credentials are given.
 */
import { fail } from '../../errors/index.js';
import type { DirEntry, FileIO, FileStat } from '../file-io.js';
import { contentLength, contentRangeStart, readSlice } from './s3-body.js';
import { listPages } from './s3-list.js';
import { parseS3Location } from './s3-location.js';
import { S3Transport, type S3Credentials } from './s3-transport.js';
import { s3UrlBuilder, type S3UrlBuilder } from './s3-url.js';

export interface S3FileIOOptions {
  /** Base URL of an S3-compatible service (`http://host:9000`); AWS's regional endpoint when absent. */
  readonly endpoint?: string;
  /** Signing region (and AWS endpoint region). */
  readonly region: string;
  /** `endpoint/bucket/key` URLs; `bucket.endpoint/key` otherwise (where the bucket name allows). */
  readonly pathStyle: boolean;
  /** Unsigned (anonymous) requests when absent. */
  readonly credentials?: S3Credentials;
  /** The fetch to send requests with (global fetch by default). */
  readonly fetch?: typeof fetch;
  /** Deadline of one request attempt including its body, in ms (default 30 000). */
  readonly timeoutMs?: number;
  /** Further attempts after 5xx/429 answers or dropped connections (default 2; timeouts are final). */
  readonly retries?: number;
}

export const DEFAULT_S3_TIMEOUT_MS = 30_000;
const DEFAULT_RETRIES = 2;

export function createS3FileIO(options: S3FileIOOptions): FileIO {
  const { urls, transport } = s3Connection(options);
  return new S3FileIO(urls, transport);
}

/** The URLs and the signed transport `options` describe, checked (CONFIG_INVALID); the S3 FileIO's and FileWriter's. */
export function s3Connection(options: S3FileIOOptions): { readonly urls: S3UrlBuilder; readonly transport: S3Transport } {
  const timeoutMs = options.timeoutMs ?? DEFAULT_S3_TIMEOUT_MS;
  const retries = options.retries ?? DEFAULT_RETRIES;
  if (!Number.isSafeInteger(timeoutMs) || timeoutMs <= 0) throw fail('CONFIG_INVALID', 'S3 timeoutMs must be a positive integer');
  if (!Number.isSafeInteger(retries) || retries < 0) throw fail('CONFIG_INVALID', 'S3 retries must be a non-negative integer');
  if (options.region === '') throw fail('CONFIG_INVALID', 'S3 region must not be empty');
  const c = options.credentials;
  if (c && (c.accessKeyId === '' || c.secretAccessKey === '')) throw fail('CONFIG_INVALID', 'S3 credentials need an access key id and a secret');
  const transport = new S3Transport({
    region: options.region,
    credentials: c,
    fetch: options.fetch ?? fetch,
    timeoutMs,
    retries,
  });
  return { urls: s3UrlBuilder(options), transport };
}

class S3FileIO implements FileIO {
  constructor(
    private readonly urls: S3UrlBuilder,
    private readonly transport: S3Transport,
  ) {}

  async readFile(location: string): Promise<Buffer> {
    const url = this.objectUrl(location);
    return this.transport.exchange({ method: 'GET', url, location }, async (res) => Buffer.from(await res.arrayBuffer()));
  }

  async readRange(location: string, offset: number, length: number): Promise<Buffer> {
    if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(length) || offset < 0 || length < 0 || !Number.isSafeInteger(offset + length))
      throw fail('STORAGE_FAILURE', `Invalid range ${offset}+${length} for ${location}`);
    const url = this.objectUrl(location);
    if (length === 0) return Buffer.alloc(0);
    const headers = { range: `bytes=${offset}-${offset + length - 1}` };
    return this.transport.exchange({ method: 'GET', url, location, headers, accept: [416] }, async (res) => {
      // 416 Range Not Satisfiable: the range starts at or past the end of the object
      if (res.status === 416) return readSlice(res.body, 0, 0);
      if (res.status === 206) {
        const start = contentRangeStart(res.headers.get('content-range'));
        if (start !== undefined && start !== offset) {
          await res.body?.cancel().catch(() => undefined);
          throw fail('STORAGE_FAILURE', `Cannot read ${location} (the server answered another range)`);
        }
        return readSlice(res.body, 0, length);
      }
      // 200: the server ignored Range and sends the whole object
      return readSlice(res.body, offset, length);
    });
  }

  async stat(location: string): Promise<FileStat> {
    const url = this.objectUrl(location);
    return this.transport.exchange({ method: 'HEAD', url, location }, async (res) => {
      const lastModified = Date.parse(res.headers.get('last-modified') ?? '');
      return { size: contentLength(location, res.headers.get('content-length')), mtimeMs: Number.isNaN(lastModified) ? 0 : lastModified };
    });
  }

  async exists(location: string): Promise<boolean> {
    const { bucket, key } = parseS3Location(location);
    if (key === '') return false;
    const url = this.urls.objectUrl(bucket, key);
    return this.transport.exchange({ method: 'HEAD', url, location, accept: [404] }, async (res) => {
      await res.body?.cancel().catch(() => undefined);
      return res.status !== 404;
    });
  }

  /** Keys and common prefixes one level below `location`; FILE_NOT_FOUND when there are none. */
  async list(location: string, names?: readonly string[]): Promise<DirEntry[]> {
    const { bucket, key } = parseS3Location(location);
    const prefix = key === '' || key.endsWith('/') ? key : `${key}/`;
    const entries: DirEntry[] = [];
    // the bucket root is a folder even when empty; below it, only what has keys under it
    let isFolder = prefix === '';
    for await (const page of listPages(this.transport, this.urls, { bucket, prefix, delimiter: '/', location })) {
      for (const k of page.keys) {
        isFolder = true; // any key under the prefix makes it a folder, a bare folder marker included
        if (k.startsWith(prefix) && k.length > prefix.length) entries.push({ name: k.slice(prefix.length), kind: 'file' });
      }
      for (const p of page.prefixes) {
        const name = p.startsWith(prefix) ? p.slice(prefix.length).replace(/\/$/, '') : '';
        isFolder = true;
        if (name !== '') entries.push({ name, kind: 'directory' });
      }
    }
    if (!isFolder) throw fail('FILE_NOT_FOUND', `File not found: ${location}`);
    // a store with no directories answers a few names from the listing (FileIO.list)
    const wanted = names && new Set(names);
    return (wanted ? entries.filter((e) => wanted.has(e.name)) : entries).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0));
  }

  /** The URL of the object at `location`; a bucket itself is no file. */
  private objectUrl(location: string): string {
    const { bucket, key } = parseS3Location(location);
    if (key === '') throw fail('FILE_NOT_FOUND', `File not found: ${location}`);
    return this.urls.objectUrl(bucket, key);
  }
}
