/**
 * A new view (REST spec `CreateViewRequest`), built as Java's CatalogHandlers.createView builds it
 * through BaseMetastoreViewCatalog's ViewBuilder.create and ViewMetadata.builder(): version 1 with
 * the request's SQL representations, default namespace and catalog, timestamped now; the schema
 * gets id 0 (the request's `schema-id` and the version's `schema-id` are not kept); a fresh
 * view-uuid; the version log starts with version 1.
 */
import { fail } from '../../errors/index.js';
import { parseSchema, type Schema, type ViewMetadata, type ViewVersion } from '../../iceberg/index.js';
import { at, fromRequest, member, optString, reqMember, reqString, requestObject, stringMap } from './request-fields.js';
import { parseRequestViewVersion } from './view-updates.js';
import { ViewMetadataBuilder, type ViewClock } from './view-builder.js';

/** REST spec CreateViewRequest, validated. */
export interface CreateViewRequest {
  readonly name: string;
  readonly location?: string;
  readonly schema: Schema;
  /** Its representations are SQL ones (parseCreateViewRequest refuses others). */
  readonly viewVersion: ViewVersion;
  readonly properties: Readonly<Record<string, string>>;
}

/** Catalog-level view properties (Java CatalogProperties `view-default.` and `view-override.`). */
export interface NewViewOptions {
  /** Set before the request's properties, which may change them. */
  readonly defaultProperties?: Readonly<Record<string, string>>;
  /** Set after the request's properties, which cannot change them. */
  readonly overrideProperties?: Readonly<Record<string, string>>;
}

/** Java CreateViewRequestParser.fromJson; `properties` may be absent (Java reads it only when present). */
export function parseCreateViewRequest(body: unknown): CreateViewRequest {
  const obj = requestObject(body, '');
  const name = reqString(obj, 'name', '');
  const location = optString(obj, 'location', '');
  const viewVersion = parseRequestViewVersion(reqMember(obj, 'view-version', ''), 'view-version');
  const schema = fromRequest(() => parseSchema(reqMember(obj, 'schema', ''), 'schema'));
  const properties = member(obj, 'properties');
  return {
    name,
    ...(location !== undefined && { location }),
    schema,
    viewVersion,
    properties: properties === undefined ? {} : stringMap(properties, at('', 'properties')),
  };
}

/**
 * The metadata of the new view. `defaultLocation` is where the catalog puts a view whose request
 * names no `location` (Java: defaultWarehouseLocation).
 */
export function newViewMetadata(
  request: CreateViewRequest,
  defaultLocation: string,
  clock: ViewClock,
  options: NewViewOptions = {},
): ViewMetadata {
  const representations = request.viewVersion.representations;
  // Java BaseViewBuilder.create: Preconditions.checkState(!representations.isEmpty(), …)
  if (representations.length === 0) throw fail('ILLEGAL_ARGUMENT', 'Cannot create view without specifying a query');
  const version: ViewVersion = {
    versionId: 1,
    timestampMs: clock.now(),
    schemaId: request.schema.schemaId,
    // Java puts the server's EnvironmentContext here; the client's summary says more about the view
    summary: request.viewVersion.summary,
    // ViewBuilder.withQuery(dialect, sql) for each SQL representation, in order
    representations: representations.map((r) => (r.kind === 'sql' ? { kind: 'sql', sql: r.sql, dialect: r.dialect } : r)),
    ...(request.viewVersion.defaultCatalog !== undefined && { defaultCatalog: request.viewVersion.defaultCatalog }),
    defaultNamespace: request.viewVersion.defaultNamespace,
  };
  const properties = { ...options.defaultProperties, ...request.properties, ...options.overrideProperties };
  return new ViewMetadataBuilder(clock)
    .setProperties(properties)
    .setLocation(request.location ?? defaultLocation)
    .setCurrentVersion(version, request.schema)
    .build().metadata;
}
