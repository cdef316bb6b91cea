export { MIN_KEY_BYTES } from './envelope.js';
export { tokenKey } from './token-key.js';
export { canonicalScanJson, parsedFilter, type PlanScan } from './scan-json.js';
export { NO_SNAPSHOT, planRefOf, planTaskMatches, type PlanRef, type TableBinding } from './plan-ref.js';
export {
  PLAN_TASK_MAX_LENGTH,
  decodePlanTask,
  encodePlanTask,
  type ListedManifest,
  type ListFacts,
  type PlanTask,
} from './plan-task.js';
export { PLAN_ID_MAX_LENGTH, decodePlanId, encodePlanId } from './plan-id.js';
export { decodePageTask, encodePageTask, type PageRange, type PageTask } from './page-task.js';
