import type { IncomingHttpHeaders } from 'node:http';
import { fail, isIcefrontError } from '../../errors/index.js';
import { parseTableMetadata, type TableMetadata } from '../../iceberg/index.js';
import { parseJson } from '../../json/index.js';
import { isObject, stringMap } from './upstream-config.js';
import type { UpstreamResponse } from './upstream-error.js';

/** REST spec `StorageCredential`: config for locations under `prefix`. */
export interface StorageCredential {
  readonly prefix: string;
  readonly config: Record<string, string>;
}

/** An upstream's LoadTableResult. `config` and `storageCredentials` may hold vended secrets: never log them. */
export interface UpstreamTable {
  /** Absent only for staged tables (REST spec `LoadTableResult.metadata-location`). */
  readonly metadataLocation: string | undefined;
  readonly metadata: TableMetadata;
  readonly config: Record<string, string>;
  readonly storageCredentials: readonly StorageCredential[];
  /** The upstream's response headers (ETag …). */
  readonly headers: IncomingHttpHeaders;
  /** The exact body bytes. */
  readonly raw: Buffer;
}

/** Parses a LoadTableResult body (REST spec `LoadTableResult`); anything else is UPSTREAM_BAD_GATEWAY. */
export function parseLoadTableResult(res: UpstreamResponse, catalog: string): UpstreamTable {
  const bad = (why: string, cause?: unknown) =>
    fail('UPSTREAM_BAD_GATEWAY', `Catalog '${catalog}': the upstream's table load ${why}`, cause);
  let json: unknown;
  try {
    json = parseJson(res.body.toString('utf8'));
  } catch (err) {
    if (isIcefrontError(err, 'INVALID_JSON')) throw bad('is not JSON');
    throw err;
  }
  if (!isObject(json)) throw bad('is not a JSON object');
  const location = json['metadata-location'];
  if (location !== undefined && location !== null && typeof location !== 'string') throw bad('has a malformed `metadata-location`');
  let metadata: TableMetadata;
  try {
    metadata = parseTableMetadata(json['metadata']);
  } catch (err) {
    if (isIcefrontError(err)) throw bad(`carries table metadata Icefront cannot read: ${err.message}`, err);
    throw err;
  }
  // the messages never quote values: these maps hold vended credentials
  const config = stringMap(json['config'], () => bad('has a malformed `config`'));
  return {
    metadataLocation: typeof location === 'string' ? location : undefined,
    metadata,
    config,
    storageCredentials: storageCredentials(json['storage-credentials'], () => bad('has malformed `storage-credentials`')),
    headers: res.headers,
    raw: res.body,
  };
}

function storageCredentials(value: unknown, onError: () => Error): StorageCredential[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw onError();
  return value.map((entry: unknown) => {
    if (!isObject(entry) || typeof entry['prefix'] !== 'string') throw onError();
    return { prefix: entry['prefix'], config: stringMap(entry['config'], onError) };
  });
}
