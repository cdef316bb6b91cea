import type { Catalog } from '../catalogs/index.js';
import { fail } from '../errors/index.js';
import { NAMESPACE_SEPARATOR, PLANNING_ENDPOINTS, READ_ENDPOINTS, viewEndpoints, writeEndpoints } from './endpoints.js';
import { quote } from './identifiers.js';
import type { CatalogConfigResponse } from './wire-types.js';

/**
 * The prefix of the catalog a `/v1/config?warehouse=` request is about. The warehouse is the
 * catalog's name (it becomes the path prefix). With a single catalog the parameter may be omitted.
 */
export function prefixForWarehouse(catalogs: ReadonlyMap<string, Catalog>, warehouse: string | undefined): string {
  if (warehouse === undefined || warehouse === '') {
    if (catalogs.size === 1) return [...catalogs.keys()][0]!;
    throw fail('BAD_REQUEST', 'Name the catalog with the warehouse query parameter (?warehouse=<catalog name>)');
  }
  // REST spec getConfig 404: "Warehouse provided in the warehouse query parameter is not found".
  if (!catalogs.has(warehouse)) throw fail('NO_SUCH_WAREHOUSE', `Warehouse not found: ${quote(warehouse)}`);
  return warehouse;
}

/**
 * The CatalogConfig for one catalog (REST spec getConfig). `prefix` routes the client to the
 * catalog; `namespace-separator` is the default, stated explicitly (Java RESTSessionCatalog
 * reads it; clients that ignore it use %1F anyway). `endpoints` lists exactly what is served,
 * so clients never assume the default mutation endpoints: a writable catalog's mutations as its
 * store supports them (issue #40), none for a read-only one; the view endpoints only for a catalog
 * whose `views` exist (none for a filesystem catalog or a V0 sql database). No `idempotency-key-lifetime`:
 * Icefront keeps no idempotency keys.
 */
export function catalogConfig(prefix: string, catalog: Catalog): CatalogConfigResponse {
  return {
    defaults: {},
    overrides: { prefix, 'namespace-separator': NAMESPACE_SEPARATOR },
    endpoints: [
      ...READ_ENDPOINTS,
      ...(catalog.writes ? writeEndpoints(catalog.writes.supports) : []),
      ...(catalog.views ? viewEndpoints(catalog.views.writable) : []),
      ...(catalog.planning ? PLANNING_ENDPOINTS : []),
    ],
  };
}
