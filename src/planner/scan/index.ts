export {
  planByManifest,
  planEachManifest,
  type ByManifestOptions,
  planFiles,
  planRanges,
  type ManifestOrderedPlan,
  type ManifestTasks,
  type RangeToRead,
  type ScanPlan,
} from './plan-files.js';
export { ScanContext, type PlanOptions, type PlanStats } from './scan-context.js';
export { parseScanRequest, DEFAULT_SCAN, type ScanRequest } from './scan-request.js';
export { resolveScanTarget, type ScanTarget } from './scan-target.js';
export { ScanTasksWriter, scanTasksToJson, type ScanTasksJson, type ScanTasksJsonContext } from './scan-tasks-json.js';
export { fileManifestSource, type EntriesRequest, type ManifestSlice, type ManifestSource } from './manifest-source.js';
export { compareTasks, type FileTask } from './file-task.js';
