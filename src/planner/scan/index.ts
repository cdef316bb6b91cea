export { planFiles, type PlanOptions, type PlanStats, type ScanPlan } from './plan-files.js';
export { parseScanRequest, DEFAULT_SCAN, type ScanRequest } from './scan-request.js';
export { resolveScanTarget, type ScanTarget } from './scan-target.js';
export { scanTasksToJson, type ScanTasksJson, type ScanTasksJsonContext } from './scan-tasks-json.js';
export { fileManifestSource, type EntriesRequest, type ManifestSource } from './manifest-source.js';
export { compareTasks, type FileTask } from './file-task.js';
