/**
 * Metadata file names and locations as Java's catalogs write them: BaseMetastoreTableOperations
 * (`00001-<uuid>.metadata.json`, version = the base file's + 1), HadoopTableOperations
 * (`v1.metadata.json`), TableMetadataParser.Codec (`.gz` before `.metadata.json` when
 * write.metadata.compression-codec=gzip) and CatalogUtil.deleteRemovedMetadataFiles.
 */
import { fail } from '../errors/index.js';
import type { TableMetadata } from '../iceberg/index.js';
import type { CommitClock } from './api.js';
import {
  METADATA_COMPRESSION,
  METADATA_DELETE_AFTER_COMMIT_ENABLED,
  WRITE_METADATA_LOCATION,
  parseJavaInt,
  propertyAsBoolean,
} from './table-properties.js';

export type MetadataCompression = 'none' | 'gzip';

/** Java TableMetadataParser.Codec.fromName: `none` (default) or `gzip`, any case; anything else is refused. */
export function metadataCompression(properties: Readonly<Record<string, string>>): MetadataCompression {
  const name = Object.hasOwn(properties, METADATA_COMPRESSION) ? properties[METADATA_COMPRESSION]! : 'none';
  const codec = name.toLowerCase();
  if (codec !== 'none' && codec !== 'gzip') throw fail('ILLEGAL_ARGUMENT', `Invalid codec name: ${name}`);
  return codec;
}

/** Java TableMetadataParser.getFileExtension. */
function fileExtension(properties: Readonly<Record<string, string>>): string {
  return metadataCompression(properties) === 'gzip' ? '.gz.metadata.json' : '.metadata.json';
}

/**
 * Java BaseMetastoreTableOperations.parseVersion: the number before the first `-` of the file
 * name; undefined (Java -1) when there is none or it is not an int.
 */
export function parseMetadataVersion(metadataLocation: string): number | undefined {
  const start = metadataLocation.lastIndexOf('/') + 1;
  const end = metadataLocation.indexOf('-', start);
  if (end < 0) return undefined;
  return parseJavaInt(metadataLocation.slice(start, end));
}

/**
 * Java BaseMetastoreTableOperations.newTableMetadataFilePath's file name:
 * `<version, 5 digits>-<random uuid><extension>`, the version one above the base file's (0 for a
 * new table or a base file without a version). `properties`: the new metadata's.
 */
export function nextMetadataFileName(
  baseLocation: string | undefined,
  properties: Readonly<Record<string, string>>,
  clock: CommitClock,
): string {
  const version = (baseLocation === undefined ? undefined : parseMetadataVersion(baseLocation)) ?? -1;
  return `${String(version + 1).padStart(5, '0')}-${clock.newUuid()}${fileExtension(properties)}`;
}

/** Java HadoopTableOperations.metadataFilePath's file name: `v<version><extension>`. */
export function hadoopMetadataFileName(version: number | bigint, properties: Readonly<Record<string, string>>): string {
  return `v${version}${fileExtension(properties)}`;
}

/**
 * Java BaseMetastoreTableOperations.metadataFileLocation: the file goes under write.metadata.path
 * when set (trailing slashes dropped), else under `<table location>/metadata`.
 */
export function metadataFileLocation(metadata: TableMetadata, fileName: string): string {
  const dir = Object.hasOwn(metadata.properties, WRITE_METADATA_LOCATION) ? metadata.properties[WRITE_METADATA_LOCATION] : undefined;
  if (dir !== undefined) return `${stripTrailingSlash(dir)}/${fileName}`;
  return `${metadata.location}/metadata/${fileName}`;
}

/** Java LocationUtil.stripTrailingSlash (keeps the `//` of a bare `scheme://`; an empty path is refused). */
export function stripTrailingSlash(location: string): string {
  if (location === '') throw fail('ILLEGAL_ARGUMENT', 'path must not be null or empty');
  let out = location;
  while (!out.endsWith('://') && out.endsWith('/')) out = out.slice(0, -1);
  return out;
}

/**
 * Java CatalogUtil.deleteRemovedMetadataFiles: when the new metadata has
 * write.metadata.delete-after-commit.enabled=true, the files of the base's metadata log that the
 * new log no longer holds (trimmed by write.metadata.previous-versions-max) may be deleted.
 */
export function removedMetadataFiles(base: TableMetadata, next: TableMetadata): string[] {
  if (!propertyAsBoolean(next.properties, METADATA_DELETE_AFTER_COMMIT_ENABLED, false)) return [];
  const kept = new Set(next.metadataLog.map((e) => `${e.timestampMs}\u0000${e.metadataFile}`));
  const removed = base.metadataLog.filter((e) => !kept.has(`${e.timestampMs}\u0000${e.metadataFile}`)).map((e) => e.metadataFile);
  return [...new Set(removed)];
}
