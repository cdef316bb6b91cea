/**
 * A planning catalog whose tables' reads are traced: a span per manifest list, manifest or
 * delete file read (readFile, readRange), child of whatever is active (the plan or tasks span;
 * for planning workers, the job's context re-entered on the main thread, where their reads run).
 */
import type { Catalog, LoadedTable } from '../catalogs/index.js';
import type { Tracing } from '../observability/index.js';
import type { FileIO } from '../storage/index.js';

export function tracedCatalog(catalog: Catalog, tracing: Tracing): Catalog {
  if (!tracing.enabled) return catalog;
  return {
    name: catalog.name,
    type: catalog.type,
    planning: catalog.planning,
    listNamespaces: (parent) => catalog.listNamespaces(parent),
    loadNamespace: (namespace) => catalog.loadNamespace(namespace),
    listTables: (namespace) => catalog.listTables(namespace),
    loadTable: async (identifier, options): Promise<LoadedTable> => {
      const table = await catalog.loadTable(identifier, options);
      return { ...table, io: tracedIO(table.io, tracing) };
    },
  };
}

/** No `localPath`: a planning worker then reads through this IO on the main thread, so every read has its span. */
function tracedIO(io: FileIO, tracing: Tracing): FileIO {
  return {
    readFile: (location) => tracing.span('read file', { 'icefront.file': location }, () => io.readFile(location)),
    readRange: (location, offset, length) =>
      tracing.span('read file range', { 'icefront.file': location, 'icefront.offset': offset, 'icefront.length': length }, () => io.readRange(location, offset, length)),
    stat: (location) => io.stat(location),
    exists: (location) => io.exists(location),
    list: (location, names) => io.list(location, names),
  };
}
