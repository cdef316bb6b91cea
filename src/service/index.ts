export { createService, type CallerContext, type Service, type ServiceOptions } from './service.js';
export type { PlanExplanation } from './plan-scan.js';
export { holdService, type HeldService, type ServiceHolder } from './service-holder.js';
export { createReadiness, type CatalogReadiness, type Readiness, type ReadinessCheck, type ReadinessReport } from './readiness.js';
export type { OutcomeSink, PruningSummary, ScanOutcome } from './scan-outcome.js';
export type { CatalogStatus } from './catalog-status.js';
export { createScanPlanning, keptAnswerBytes, type KeptAnswer, type ScanPlanning, type ScanPlanningOptions } from './planning/scan-planning.js';
export type { ManifestCaches } from './engine/caching-source.js';
export { createLocalPlanEngine, type PlanEngine } from './engine/plan-engine.js';
export { CACHE_SHARES, createPlanningCaches } from './engine/planning-caches.js';
export { createWorkerPlanEngine, defaultPlanningWorkers } from './engine/worker-pool.js';
export { orderedPlanBytes, type OrderedPlan } from './planning/upstream-pages.js';
export { createPagedPlanning, type PagedPlanning, type PagedPlanningOptions, type UpstreamPlanner } from './planning/paged-planning.js';
export { ENDPOINTS, READ_ENDPOINTS, PLANNING_ENDPOINTS, NAMESPACE_SEPARATOR, viewEndpoints, writeEndpoints } from './endpoints.js';
export type { CatalogWriteUseCases, WrittenTable } from './catalog-writes.js';
export type { LoadViewResult, ViewUseCases } from './view-use-cases.js';
export { MAX_PAGE_SIZE } from './pagination.js';
export type {
  CatalogConfigResponse,
  GetNamespaceResponse,
  ListNamespacesResponse,
  ListTablesResponse,
  LoadTableResponse,
  LoadTableResult,
  PageRequest,
  PlanTableScanResult,
  FetchPlanningResult,
  FetchScanTasksResult,
  SnapshotsMode,
  WireTableIdentifier,
} from './wire-types.js';
export { Federation, type UpstreamAccess, type UpstreamCatalog, type UpstreamReply, type UpstreamTarget } from './federation.js';
export { TO_ICEFRONT, type RequestRoute, type UpstreamWay } from './request-route.js';
