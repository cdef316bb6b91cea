/**
 * The view use cases of the REST catalog API (REST spec listViews … registerView) on the catalogs
 * Icefront keeps itself, as Iceberg Java's CatalogHandlers serves them: each request body checked
 * (400 naming the field), then handed to the catalog's views. A catalog without views (a
 * filesystem catalog, as Java's HadoopCatalog; a sql catalog on a V0 database) answers every view
 * route with 406; a read-only catalog lists and loads its views and answers every mutation with 406.
 */
import type { Catalog, CatalogViews, LoadedView } from '../catalogs/index.js';
import { parseCreateViewRequest, parseViewChange } from '../commits/index.js';
import { fail } from '../errors/index.js';
import { viewMetadataToJson, type Namespace, type TableIdentifier } from '../iceberg/index.js';
import { checkNamespace, checkTableIdentifier, quote } from './identifiers.js';
import { paginate } from './pagination.js';
import type { ListTablesResponse, PageRequest } from './wire-types.js';
import { parseRename } from './write-requests.js';

/** REST spec LoadViewResult. */
export interface LoadViewResult {
  readonly 'metadata-location': string;
  /** The ViewMetadata JSON model. */
  readonly metadata: unknown;
  readonly config: Readonly<Record<string, string>>;
}

export interface ViewUseCases {
  /** REST listViews (a ListTablesResponse); `keep` (what the caller may read) filters before pagination. */
  listViews(prefix: string, namespace: Namespace, page: PageRequest, keep?: (view: TableIdentifier) => boolean): Promise<ListTablesResponse>;
  loadView(prefix: string, identifier: TableIdentifier): Promise<LoadViewResult>;
  /** REST viewExists: resolves when the view exists, NO_SUCH_VIEW otherwise. */
  viewExists(prefix: string, identifier: TableIdentifier): Promise<void>;
  /** REST createView: CreateViewRequest → LoadViewResult. */
  createView(prefix: string, namespace: Namespace, body: unknown): Promise<LoadViewResult>;
  /** REST replaceView: CommitViewRequest → LoadViewResult. */
  updateView(prefix: string, identifier: TableIdentifier, body: unknown): Promise<LoadViewResult>;
  dropView(prefix: string, identifier: TableIdentifier): Promise<void>;
  /** REST renameView: a RenameTableRequest. */
  renameView(prefix: string, body: unknown): Promise<void>;
  /** REST registerView: RegisterViewRequest → LoadViewResult. */
  registerView(prefix: string, namespace: Namespace, body: unknown): Promise<LoadViewResult>;
}

const SEP = '\x1f';

export function createViewUseCases(catalogFor: (prefix: string) => Catalog): ViewUseCases {
  function viewsOf(prefix: string): CatalogViews {
    const views = catalogFor(prefix).views;
    if (!views) throw fail('UNSUPPORTED_OPERATION', `Catalog ${quote(prefix)} keeps no views`);
    return views;
  }

  function writableViewsOf(prefix: string, operation: string): CatalogViews {
    const views = viewsOf(prefix);
    if (!views.writable) throw fail('UNSUPPORTED_OPERATION', `Catalog ${quote(prefix)} is read-only: it does not ${operation}`);
    return views;
  }

  const viewId = (identifier: TableIdentifier) => checkTableIdentifier(identifier.namespace, identifier.name);

  return {
    // CatalogHandlers.listViews: ListTablesResponse, paged like listTables
    async listViews(prefix, namespace, page, keep) {
      const views = viewsOf(prefix);
      const listed = await views.listViews(checkNamespace(namespace, false));
      const kept = keep ? listed.filter(keep) : listed;
      const { items, nextPageToken } = paginate(kept, (v) => v.name, ['views', prefix, ...namespace].join(SEP), page);
      return {
        identifiers: items.map((v) => ({ namespace: [...v.namespace], name: v.name })),
        ...(nextPageToken ? { 'next-page-token': nextPageToken } : {}),
      };
    },

    async loadView(prefix, identifier) {
      return result(await viewsOf(prefix).loadView(viewId(identifier)));
    },

    // ViewCatalog.viewExists: loadView, NoSuchViewException meaning no
    async viewExists(prefix, identifier) {
      await viewsOf(prefix).loadView(viewId(identifier));
    },

    async createView(prefix, namespace, body) {
      const views = writableViewsOf(prefix, 'create views');
      checkNamespace(namespace, false);
      const request = parseCreateViewRequest(body);
      checkTableIdentifier(namespace, request.name);
      return result(await views.createView(namespace, request));
    },

    // CatalogHandlers.updateView: the path names the view; the body's identifier, if any, is not read
    async updateView(prefix, identifier, body) {
      const views = writableViewsOf(prefix, 'commit to views');
      const id = viewId(identifier);
      return result(await views.commitView(id, parseViewChange(body)));
    },

    async dropView(prefix, identifier) {
      await writableViewsOf(prefix, 'drop views').dropView(viewId(identifier));
    },

    async renameView(prefix, body) {
      const views = writableViewsOf(prefix, 'rename views');
      const { source, destination } = parseRename(body);
      await views.renameView(source, destination);
    },

    async registerView(prefix, namespace, body) {
      const views = writableViewsOf(prefix, 'register views');
      const { name, metadataLocation } = parseRegisterView(body);
      const registered = await views.registerView(checkTableIdentifier(namespace, name), metadataLocation);
      // CatalogHandlers.registerView answers the request's metadata-location
      return { ...result(registered), 'metadata-location': metadataLocation };
    },
  };
}

function result(view: LoadedView): LoadViewResult {
  return { 'metadata-location': view.metadataLocation, metadata: viewMetadataToJson(view.metadata), config: { ...view.config } };
}

/**
 * REST spec RegisterViewRequest (Java RegisterViewRequestParser: both members required strings;
 * BaseMetastoreViewCatalog.registerView refuses an empty location, TableIdentifier.of an empty name).
 */
export function parseRegisterView(body: unknown): { name: string; metadataLocation: string } {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw fail('BAD_REQUEST', 'Invalid RegisterViewRequest: the body must be a JSON object');
  const obj = body as Record<string, unknown>;
  if (typeof obj['name'] !== 'string' || obj['name'] === '') throw fail('BAD_REQUEST', 'Invalid name: must be a non-empty string');
  if (typeof obj['metadata-location'] !== 'string' || obj['metadata-location'] === '') throw fail('BAD_REQUEST', 'Invalid metadata-location: must be a non-empty string');
  return { name: obj['name'], metadataLocation: obj['metadata-location'] };
}
