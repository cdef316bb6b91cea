import { gzipSync } from 'node:zlib';
import { stringifyJson } from '../json/index.js';

/**
 * The bytes of a table or view metadata file for its JSON model: gzip-compressed when the file's
 * name says so (`.gz.metadata.json`), as Java's TableMetadataParser and ViewMetadataParser write
 * it (Codec.fromFileName). Every store writes its metadata files through this.
 */
export function metadataFileBytes(location: string, json: unknown): Buffer {
  const text = Buffer.from(stringifyJson(json));
  return location.endsWith('.gz.metadata.json') ? gzipSync(text) : text;
}
