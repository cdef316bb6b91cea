/**
 * The changes a view commit carries (REST spec `ViewUpdate`), read as Java's
 * MetadataUpdateParser.fromJson reads them: `action` case-insensitively, the legacy member names
 * `updated` / `removed` beside the spec's `updates` / `removals`, the deprecated `last-column-id`
 * of add-schema ignored.
 */
import { fail } from '../../errors/index.js';
import { parseSchema, parseViewVersion, type Schema, type ViewVersion } from '../../iceberg/index.js';
import {
  at,
  badRequest,
  fromRequest,
  reqInt,
  reqMember,
  reqString,
  requestObject,
  stringList,
  stringMap,
  type RequestObject,
} from './request-fields.js';

export type ViewUpdate =
  | { readonly action: 'assign-uuid'; readonly uuid: string }
  | { readonly action: 'upgrade-format-version'; readonly formatVersion: number }
  | { readonly action: 'add-schema'; readonly schema: Schema }
  | { readonly action: 'set-location'; readonly location: string }
  | { readonly action: 'set-properties'; readonly updates: Readonly<Record<string, string>> }
  | { readonly action: 'remove-properties'; readonly removals: readonly string[] }
  | { readonly action: 'add-view-version'; readonly viewVersion: ViewVersion }
  /** -1 means the version added last in this commit. */
  | { readonly action: 'set-current-view-version'; readonly viewVersionId: number };

// Java MetadataUpdate.applyTo(ViewMetadata.Builder) of these: UnsupportedOperationException
const TABLE_UPDATES: ReadonlySet<string> = new Set([
  'set-current-schema',
  'add-spec',
  'set-default-spec',
  'add-sort-order',
  'set-default-sort-order',
  'add-snapshot',
  'remove-snapshots',
  'remove-snapshot-ref',
  'set-snapshot-ref',
  'set-statistics',
  'remove-statistics',
  'set-partition-statistics',
  'remove-partition-statistics',
  'remove-partition-specs',
  'remove-schemas',
  'add-encryption-key',
  'remove-encryption-key',
]);

export function parseViewUpdate(json: unknown, path: string): ViewUpdate {
  const obj = requestObject(json, path);
  const action = reqString(obj, 'action', path).toLowerCase();
  switch (action) {
    case 'assign-uuid':
      return { action, uuid: reqString(obj, 'uuid', path) };
    case 'upgrade-format-version':
      return { action, formatVersion: reqInt(obj, 'format-version', path) };
    case 'add-schema':
      return { action, schema: fromRequest(() => parseSchema(reqMember(obj, 'schema', path), at(path, 'schema'))) };
    case 'set-location':
      return { action, location: reqString(obj, 'location', path) };
    case 'set-properties': {
      const key = legacyKey(obj, 'updates', 'updated');
      return { action, updates: stringMap(reqMember(obj, key, path), at(path, key)) };
    }
    case 'remove-properties': {
      const key = legacyKey(obj, 'removals', 'removed');
      // Java reads a set: a key named twice is removed once
      return { action, removals: [...new Set(stringList(reqMember(obj, key, path), at(path, key)))] };
    }
    case 'add-view-version':
      return { action, viewVersion: parseRequestViewVersion(reqMember(obj, 'view-version', path), at(path, 'view-version')) };
    case 'set-current-view-version':
      return { action, viewVersionId: reqInt(obj, 'view-version-id', path) };
    default:
      if (TABLE_UPDATES.has(action)) throw fail('UNSUPPORTED_OPERATION', `Cannot apply update ${action} to a view (${path})`);
      throw badRequest(at(path, 'action'), `is not a view update: ${JSON.stringify(action)}`);
  }
}

// Java MetadataUpdateParser: the spec's name wins when both are present, the legacy one is read alone
function legacyKey(obj: RequestObject, name: string, legacy: string): string {
  return !Object.hasOwn(obj, name) && Object.hasOwn(obj, legacy) ? legacy : name;
}

/**
 * A view version in a request. The REST spec's `ViewRepresentation` is a SQL representation only;
 * another type is refused here (Java reads it, then can neither create a view with it,
 * CatalogHandlers.createView, nor write it, ViewRepresentationParser.toJson).
 */
export function parseRequestViewVersion(json: unknown, path: string): ViewVersion {
  const version = fromRequest(() => parseViewVersion(json, path));
  version.representations.forEach((r, i) => {
    if (r.kind !== 'sql') throw badRequest(at(at(at(path, 'representations'), i), 'type'), `is not a supported view representation: ${JSON.stringify(r.type)}`);
  });
  return version;
}
