/**
 * Table statistics files, partition statistics files (spec "Table Statistics", "Partition
 * Statistics") and v3 encryption keys (spec "Encryption Keys"), read and written as Java's
 * StatisticsFileParser, PartitionStatisticsFileParser and EncryptedKeyParser do.
 */
import {
  asArray,
  asObject,
  at,
  intList,
  optObject,
  optString,
  reqLong,
  reqString,
  stringMap,
  type JsonObject,
} from './json-fields.js';

export interface BlobMetadata {
  readonly type: string;
  readonly snapshotId: bigint;
  readonly sequenceNumber: bigint;
  readonly fields: readonly number[];
  readonly properties?: Readonly<Record<string, string>>;
}

export interface StatisticsFile {
  readonly snapshotId: bigint;
  readonly statisticsPath: string;
  readonly fileSizeInBytes: bigint;
  readonly fileFooterSizeInBytes: bigint;
  /** Base64 key metadata of an encrypted statistics file, as written. */
  readonly keyMetadata?: string;
  readonly blobMetadata: readonly BlobMetadata[];
}

export interface PartitionStatisticsFile {
  readonly snapshotId: bigint;
  readonly statisticsPath: string;
  readonly fileSizeInBytes: bigint;
}

export interface EncryptedKey {
  readonly keyId: string;
  /** Base64, as written. */
  readonly encryptedKeyMetadata: string;
  readonly encryptedById?: string;
  readonly properties?: Readonly<Record<string, string>>;
}

function optStringMap(obj: JsonObject, key: string, path: string): Record<string, string> | undefined {
  const raw = optObject(obj, key, path);
  return raw === undefined ? undefined : stringMap(raw, at(path, key));
}

export function parseStatisticsFile(json: unknown, path = ''): StatisticsFile {
  const obj = asObject(json, path);
  const blobsPath = at(path, 'blob-metadata');
  const keyMetadata = optString(obj, 'key-metadata', path);
  return {
    snapshotId: reqLong(obj, 'snapshot-id', path),
    statisticsPath: reqString(obj, 'statistics-path', path),
    fileSizeInBytes: reqLong(obj, 'file-size-in-bytes', path),
    fileFooterSizeInBytes: reqLong(obj, 'file-footer-size-in-bytes', path),
    ...(keyMetadata !== undefined && { keyMetadata }),
    blobMetadata: asArray(obj['blob-metadata'] ?? [], blobsPath).map((b, i) => parseBlob(b, at(blobsPath, i))),
  };
}

function parseBlob(json: unknown, path: string): BlobMetadata {
  const obj = asObject(json, path);
  const properties = optStringMap(obj, 'properties', path);
  return {
    type: reqString(obj, 'type', path),
    snapshotId: reqLong(obj, 'snapshot-id', path),
    sequenceNumber: reqLong(obj, 'sequence-number', path),
    fields: intList(obj['fields'] ?? [], at(path, 'fields')),
    ...(properties !== undefined && { properties }),
  };
}

export function statisticsFileToJson(f: StatisticsFile): unknown {
  const out: JsonObject = {
    'snapshot-id': f.snapshotId,
    'statistics-path': f.statisticsPath,
    'file-size-in-bytes': f.fileSizeInBytes,
    'file-footer-size-in-bytes': f.fileFooterSizeInBytes,
  };
  if (f.keyMetadata !== undefined) out['key-metadata'] = f.keyMetadata;
  out['blob-metadata'] = f.blobMetadata.map((b) => {
    const blob: JsonObject = {
      type: b.type,
      'snapshot-id': b.snapshotId,
      'sequence-number': b.sequenceNumber,
      fields: [...b.fields],
    };
    if (b.properties !== undefined) blob['properties'] = { ...b.properties };
    return blob;
  });
  return out;
}

export function parsePartitionStatisticsFile(json: unknown, path = ''): PartitionStatisticsFile {
  const obj = asObject(json, path);
  return {
    snapshotId: reqLong(obj, 'snapshot-id', path),
    statisticsPath: reqString(obj, 'statistics-path', path),
    fileSizeInBytes: reqLong(obj, 'file-size-in-bytes', path),
  };
}

export function partitionStatisticsFileToJson(f: PartitionStatisticsFile): unknown {
  return {
    'snapshot-id': f.snapshotId,
    'statistics-path': f.statisticsPath,
    'file-size-in-bytes': f.fileSizeInBytes,
  };
}

export function parseEncryptedKey(json: unknown, path = ''): EncryptedKey {
  const obj = asObject(json, path);
  const encryptedById = optString(obj, 'encrypted-by-id', path);
  const properties = optStringMap(obj, 'properties', path);
  return {
    keyId: reqString(obj, 'key-id', path),
    encryptedKeyMetadata: reqString(obj, 'encrypted-key-metadata', path),
    ...(encryptedById !== undefined && { encryptedById }),
    ...(properties !== undefined && { properties }),
  };
}

export function encryptedKeyToJson(k: EncryptedKey): unknown {
  const out: JsonObject = { 'key-id': k.keyId, 'encrypted-key-metadata': k.encryptedKeyMetadata };
  if (k.encryptedById !== undefined) out['encrypted-by-id'] = k.encryptedById;
  if (k.properties !== undefined) out['properties'] = { ...k.properties };
  return out;
}
