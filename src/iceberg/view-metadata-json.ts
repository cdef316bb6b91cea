/**
 * Writes view metadata as Java's ViewMetadataParser.toJson does (key order; `properties` only
 * when there are any; a version's `default-catalog` only when set), with unknown top-level keys
 * kept after the known ones and representations of unknown types written back as they were read
 * (Java cannot write those at all). Serialise the result with `stringifyJson`.
 */
import type { ViewHistoryEntry, ViewMetadata, ViewRepresentation, ViewVersion } from './view-metadata.js';
import { schemaToJson } from './schema.js';
import { setKey, type JsonObject } from './json-fields.js';

export function viewMetadataToJson(meta: ViewMetadata): unknown {
  const out: JsonObject = {
    'view-uuid': meta.viewUuid,
    'format-version': meta.formatVersion,
    location: meta.location,
  };
  if (Object.keys(meta.properties).length > 0) out['properties'] = { ...meta.properties };
  out['schemas'] = meta.schemas.map(schemaToJson);
  out['current-version-id'] = meta.currentVersionId;
  out['versions'] = meta.versions.map(viewVersionToJson);
  out['version-log'] = meta.versionLog.map(viewHistoryEntryToJson);
  for (const [k, v] of Object.entries(meta.extra)) if (!Object.hasOwn(out, k)) setKey(out, k, v);
  return out;
}

/** Java ViewVersionParser.toJson. */
export function viewVersionToJson(version: ViewVersion): unknown {
  const out: JsonObject = {
    'version-id': version.versionId,
    'timestamp-ms': version.timestampMs,
    'schema-id': version.schemaId,
    summary: { ...version.summary },
  };
  if (version.defaultCatalog !== undefined) out['default-catalog'] = version.defaultCatalog;
  out['default-namespace'] = [...version.defaultNamespace];
  out['representations'] = version.representations.map(viewRepresentationToJson);
  return out;
}

/** Java SQLViewRepresentationParser.toJson: type, sql, dialect. */
export function viewRepresentationToJson(repr: ViewRepresentation): unknown {
  if (repr.kind === 'sql') return { type: 'sql', sql: repr.sql, dialect: repr.dialect };
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(repr.json)) setKey(out, k, v);
  return out;
}

/** Java ViewHistoryEntryParser.toJson: timestamp-ms, version-id. */
export function viewHistoryEntryToJson(entry: ViewHistoryEntry): unknown {
  return { 'timestamp-ms': entry.timestampMs, 'version-id': entry.versionId };
}
