/**
 * Endpoint strings as `/v1/config` advertises them: "<VERB> <path template>", compared by clients
 * exactly against Iceberg Java's Endpoint constants (wire-format.md §1), placeholders included.
 */
export const ENDPOINTS = {
  listNamespaces: 'GET /v1/{prefix}/namespaces',
  loadNamespace: 'GET /v1/{prefix}/namespaces/{namespace}',
  namespaceExists: 'HEAD /v1/{prefix}/namespaces/{namespace}',
  listTables: 'GET /v1/{prefix}/namespaces/{namespace}/tables',
  loadTable: 'GET /v1/{prefix}/namespaces/{namespace}/tables/{table}',
  tableExists: 'HEAD /v1/{prefix}/namespaces/{namespace}/tables/{table}',
  // Java Endpoint.V1_SUBMIT_TABLE_SCAN_PLAN (wire-format §1): exact string clients gate planning on.
  planTableScan: 'POST /v1/{prefix}/namespaces/{namespace}/tables/{table}/plan',
  fetchPlanningResult: 'GET /v1/{prefix}/namespaces/{namespace}/tables/{table}/plan/{plan-id}',
  cancelPlanning: 'DELETE /v1/{prefix}/namespaces/{namespace}/tables/{table}/plan/{plan-id}',
  fetchScanTasks: 'POST /v1/{prefix}/namespaces/{namespace}/tables/{table}/tasks',
  // the mutations (Java Endpoint V1_CREATE_NAMESPACE … V1_COMMIT_TRANSACTION)
  createNamespace: 'POST /v1/{prefix}/namespaces',
  dropNamespace: 'DELETE /v1/{prefix}/namespaces/{namespace}',
  updateNamespace: 'POST /v1/{prefix}/namespaces/{namespace}/properties',
  createTable: 'POST /v1/{prefix}/namespaces/{namespace}/tables',
  registerTable: 'POST /v1/{prefix}/namespaces/{namespace}/register',
  updateTable: 'POST /v1/{prefix}/namespaces/{namespace}/tables/{table}',
  dropTable: 'DELETE /v1/{prefix}/namespaces/{namespace}/tables/{table}',
  renameTable: 'POST /v1/{prefix}/tables/rename',
  commitTransaction: 'POST /v1/{prefix}/transactions/commit',
  // the views (Java Endpoint V1_LIST_VIEWS … V1_REGISTER_VIEW)
  listViews: 'GET /v1/{prefix}/namespaces/{namespace}/views',
  loadView: 'GET /v1/{prefix}/namespaces/{namespace}/views/{view}',
  viewExists: 'HEAD /v1/{prefix}/namespaces/{namespace}/views/{view}',
  createView: 'POST /v1/{prefix}/namespaces/{namespace}/views',
  updateView: 'POST /v1/{prefix}/namespaces/{namespace}/views/{view}',
  dropView: 'DELETE /v1/{prefix}/namespaces/{namespace}/views/{view}',
  renameView: 'POST /v1/{prefix}/views/rename',
  registerView: 'POST /v1/{prefix}/namespaces/{namespace}/register-view',
} as const;

/** What every catalog served by Icefront implements: the read half of the catalog API. */
export const READ_ENDPOINTS: readonly string[] = [
  ENDPOINTS.listNamespaces,
  ENDPOINTS.loadNamespace,
  ENDPOINTS.namespaceExists,
  ENDPOINTS.listTables,
  ENDPOINTS.loadTable,
  ENDPOINTS.tableExists,
];

/**
 * Scan-planning endpoints served for catalogs with planning on. All four: iceberg-go plans
 * server-side only when all are advertised, and Java needs /tasks for plan tasks (wire-format §10.3).
 */
export const PLANNING_ENDPOINTS: readonly string[] = [
  ENDPOINTS.planTableScan,
  ENDPOINTS.fetchPlanningResult,
  ENDPOINTS.cancelPlanning,
  ENDPOINTS.fetchScanTasks,
];

/** The mutations a writable catalog serves, by what its store supports (`/v1/config` advertises exactly these). */
export function writeEndpoints(supports: { readonly namespaceProperties: boolean; readonly renameTable: boolean; readonly registerTable: boolean; readonly transactions: boolean }): string[] {
  return [
    ENDPOINTS.createNamespace,
    ENDPOINTS.dropNamespace,
    ...(supports.namespaceProperties ? [ENDPOINTS.updateNamespace] : []),
    ENDPOINTS.createTable,
    ...(supports.registerTable ? [ENDPOINTS.registerTable] : []),
    ENDPOINTS.updateTable,
    ENDPOINTS.dropTable,
    ...(supports.renameTable ? [ENDPOINTS.renameTable] : []),
    ...(supports.transactions ? [ENDPOINTS.commitTransaction] : []),
  ];
}

/** The views of a catalog that keeps them: reads always, the mutations when it takes writes. */
export function viewEndpoints(writable: boolean): string[] {
  return [
    ENDPOINTS.listViews,
    ENDPOINTS.loadView,
    ENDPOINTS.viewExists,
    ...(writable ? [ENDPOINTS.createView, ENDPOINTS.updateView, ENDPOINTS.dropView, ENDPOINTS.renameView, ENDPOINTS.registerView] : []),
  ];
}

/**
 * The namespace separator advertised in `/v1/config` overrides, URL-encoded as the spec asks
 * (parameters.namespace: "defaults to the unit separator 0x1F (url encoded %1F)").
 */
export const NAMESPACE_SEPARATOR = '%1F';
