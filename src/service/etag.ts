import { createHash } from 'node:crypto';
import type { TableIdentifier } from '../iceberg/index.js';
import type { SnapshotsMode } from './wire-types.js';

/**
 * The ETag of a LoadTableResult. Java's ETagProvider hashes the metadata location; the spec's
 * ETag parameter asks for distinct tags per `snapshots` representation, and the table config is
 * part of the body too, so those are hashed as well, with the table's identity (two copies of a
 * table record the same metadata location). Strong and quoted (RFC 9110 §8.8.3).
 */
export function loadTableETag(
  prefix: string,
  identifier: TableIdentifier,
  metadataLocation: string,
  snapshots: SnapshotsMode,
  config: Readonly<Record<string, string>>,
): string {
  const input = [prefix, identifier.namespace, identifier.name, metadataLocation, snapshots, Object.entries(config)];
  return `"${createHash('sha256').update(JSON.stringify(input)).digest('hex').slice(0, 32)}"`;
}
