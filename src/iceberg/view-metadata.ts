/**
 * View metadata, format v1 (view spec "View Metadata"; REST spec `ViewMetadata`), read as Java's
 * ViewMetadataParser.fromJson does: properties may be absent, several SQL texts for one dialect
 * are readable, a representation of an unknown type is kept verbatim (Java reads it as an
 * UnknownViewRepresentation). Strict where the metadata is unusable: a current version that is
 * not in `versions`, a current schema not in `schemas`, duplicate version or schema ids (Java
 * fails on the first access to them). Unknown top-level keys are kept in `extra`.
 */
import { isIcefrontError } from '../errors/index.js';
import { parseJson } from '../json/index.js';
import type { Namespace } from './identifiers.js';
import { parseSchema, type Schema } from './schema.js';
import {
  asArray,
  asObject,
  asString,
  at,
  invalid,
  optObject,
  optString,
  reqArray,
  reqInt,
  reqMillis,
  reqString,
  setKey,
  stringMap,
  type JsonObject,
} from './json-fields.js';

/** ViewMetadata.SUPPORTED_VIEW_FORMAT_VERSION */
export const VIEW_FORMAT_VERSION = 1;

/** View spec "SQL representation": `type` is `sql` (read case-insensitively, as Java). */
export interface SqlViewRepresentation {
  readonly kind: 'sql';
  readonly sql: string;
  readonly dialect: string;
}

/** A representation of a type this reader does not know, kept as written. */
export interface OtherViewRepresentation {
  readonly kind: 'other';
  /** The `type` as written. */
  readonly type: string;
  readonly json: Readonly<Record<string, unknown>>;
}

export type ViewRepresentation = SqlViewRepresentation | OtherViewRepresentation;

/** View spec "Versions". */
export interface ViewVersion {
  readonly versionId: number;
  readonly timestampMs: number;
  /** -1 in a commit's `add-view-version` means "the schema added last in this commit". */
  readonly schemaId: number;
  readonly summary: Readonly<Record<string, string>>;
  readonly representations: readonly ViewRepresentation[];
  readonly defaultCatalog?: string;
  readonly defaultNamespace: Namespace;
}

/** View spec "Version log": at `timestampMs` the current version became `versionId`. */
export interface ViewHistoryEntry {
  readonly timestampMs: number;
  readonly versionId: number;
}

export interface ViewMetadata {
  readonly viewUuid: string;
  readonly formatVersion: 1;
  readonly location: string;
  readonly currentVersionId: number;
  readonly versions: readonly ViewVersion[];
  readonly versionLog: readonly ViewHistoryEntry[];
  readonly schemas: readonly Schema[];
  readonly properties: Readonly<Record<string, string>>;
  /** Top-level keys this parser does not know, kept verbatim for round trips. */
  readonly extra: Readonly<Record<string, unknown>>;
}

const KNOWN_VIEW_KEYS: ReadonlySet<string> = new Set([
  'view-uuid',
  'format-version',
  'location',
  'current-version-id',
  'versions',
  'version-log',
  'schemas',
  'properties',
  // written by early view writers (Java's own test files carry it); derived from the current
  // version, so it is dropped rather than kept stale after a commit
  'current-schema-id',
]);

/** Parses view metadata JSON text (or a value already parsed by `parseJson`). */
export function parseViewMetadata(input: string | unknown): ViewMetadata {
  let json = input;
  if (typeof input === 'string') {
    try {
      json = parseJson(input);
    } catch (err) {
      if (isIcefrontError(err, 'INVALID_JSON')) throw invalid('', `is not valid JSON: ${err.message}`);
      throw err;
    }
  }
  const obj = asObject(json, '');
  const formatVersion = reqInt(obj, 'format-version', '');
  // Java ViewMetadata.check: 0 < format-version <= SUPPORTED_VIEW_FORMAT_VERSION
  if (formatVersion !== VIEW_FORMAT_VERSION) throw invalid('format-version', `is not supported: ${formatVersion}`);

  const schemas = reqArray(obj, 'schemas', '').map((s, i) => parseSchema(s, at('schemas', i)));
  uniqueIds(schemas.map((s) => s.schemaId), 'schemas', 'schema-id');
  const versions = reqArray(obj, 'versions', '').map((v, i) => parseViewVersion(v, at('versions', i)));
  uniqueIds(versions.map((v) => v.versionId), 'versions', 'version-id');

  // Java ViewMetadata.currentVersion / currentSchemaId: both must resolve
  const currentVersionId = reqInt(obj, 'current-version-id', '');
  const current = versions.find((v) => v.versionId === currentVersionId);
  if (current === undefined) throw invalid('current-version-id', `names version ${currentVersionId}, which is not in versions`);
  if (!schemas.some((s) => s.schemaId === current.schemaId)) {
    const i = versions.indexOf(current);
    throw invalid(at(at('versions', i), 'schema-id'), `names schema ${current.schemaId} of the current version, which is not in schemas`);
  }

  const versionLog = reqArray(obj, 'version-log', '').map((e, i) => {
    const p = at('version-log', i);
    const entry = asObject(e, p);
    return { timestampMs: reqMillis(entry, 'timestamp-ms', p), versionId: reqInt(entry, 'version-id', p) };
  });

  const properties = optObject(obj, 'properties', '');
  const extra: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) if (!KNOWN_VIEW_KEYS.has(k)) setKey(extra, k, v);
  return {
    viewUuid: reqString(obj, 'view-uuid', ''),
    formatVersion: VIEW_FORMAT_VERSION,
    location: reqString(obj, 'location', ''),
    currentVersionId,
    versions,
    versionLog,
    schemas,
    properties: properties === undefined ? {} : stringMap(properties, 'properties'),
    extra,
  };
}

function uniqueIds(ids: readonly number[], path: string, key: string): void {
  const seen = new Set<number>();
  ids.forEach((id, i) => {
    if (seen.has(id)) throw invalid(at(at(path, i), key), `repeats ${key} ${id}`);
    seen.add(id);
  });
}

/** Java ViewVersionParser.fromJson; `default-catalog` may be absent or null. */
export function parseViewVersion(json: unknown, path = ''): ViewVersion {
  const obj = asObject(json, path);
  const defaultCatalog = optString(obj, 'default-catalog', path);
  const nsPath = at(path, 'default-namespace');
  const ns = obj['default-namespace'];
  if (ns === undefined || ns === null) throw invalid(nsPath, 'is missing');
  const summary = obj['summary'];
  if (summary === undefined || summary === null) throw invalid(at(path, 'summary'), 'is missing');
  return {
    versionId: reqInt(obj, 'version-id', path),
    timestampMs: reqMillis(obj, 'timestamp-ms', path),
    schemaId: reqInt(obj, 'schema-id', path),
    summary: stringMap(summary, at(path, 'summary')),
    representations: reqArray(obj, 'representations', path).map((r, i) =>
      parseViewRepresentation(r, at(at(path, 'representations'), i)),
    ),
    ...(defaultCatalog !== undefined && { defaultCatalog }),
    defaultNamespace: asArray(ns, nsPath).map((level, i) => asString(level, at(nsPath, i))),
  };
}

/** Java ViewRepresentationParser.fromJson: `sql` by its lower-cased type, any other kept as is. */
export function parseViewRepresentation(json: unknown, path = ''): ViewRepresentation {
  const obj = asObject(json, path);
  const type = reqString(obj, 'type', path);
  if (type.toLowerCase() === 'sql') {
    return { kind: 'sql', sql: reqString(obj, 'sql', path), dialect: reqString(obj, 'dialect', path) };
  }
  const copy: JsonObject = {};
  for (const [k, v] of Object.entries(obj)) setKey(copy, k, v);
  return { kind: 'other', type, json: copy };
}

export function viewVersionById(meta: ViewMetadata, versionId: number): ViewVersion | undefined {
  return meta.versions.find((v) => v.versionId === versionId);
}

/** The current version; parseViewMetadata guarantees it exists. */
export function currentViewVersion(meta: ViewMetadata): ViewVersion {
  const version = viewVersionById(meta, meta.currentVersionId);
  if (version === undefined) throw invalid('current-version-id', `names version ${meta.currentVersionId}, which is not in versions`);
  return version;
}

/** The current version's schema (Java ViewMetadata.schema()); parseViewMetadata guarantees it exists. */
export function currentViewSchema(meta: ViewMetadata): Schema {
  const schemaId = currentViewVersion(meta).schemaId;
  const schema = meta.schemas.find((s) => s.schemaId === schemaId);
  if (schema === undefined) throw invalid('schemas', `has no schema ${schemaId}, the current version's`);
  return schema;
}
