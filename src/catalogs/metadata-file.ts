import { gzipSync } from 'node:zlib';
import { tableMetadataText, type TableMetadata } from '../iceberg/index.js';
import { stringifyJson } from '../json/index.js';

/**
 * The bytes of a table or view metadata file for its JSON model: gzip-compressed when the file's
 * name says so (`.gz.metadata.json`), as Java's TableMetadataParser and ViewMetadataParser write
 * it (Codec.fromFileName). Every store writes its metadata files through this.
 */
export function metadataFileBytes(location: string, json: unknown): Buffer {
  return metadataTextBytes(location, stringifyJson(json));
}

/** A table metadata file as a store writes it: its JSON text (what answers embed) and its bytes. */
export interface TableMetadataFile {
  readonly json: string;
  readonly bytes: Buffer;
}

/** The table metadata file at `location` for `metadata`, serialised once for the file and the answers. */
export function tableMetadataFile(location: string, metadata: TableMetadata): TableMetadataFile {
  const json = tableMetadataText(metadata);
  return { json, bytes: metadataTextBytes(location, json) };
}

function metadataTextBytes(location: string, text: string): Buffer {
  const bytes = Buffer.from(text);
  return location.endsWith('.gz.metadata.json') ? gzipSync(bytes) : bytes;
}
