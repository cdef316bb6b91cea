export {
  callerKeyOf,
  createRestUpstream,
  type RestUpstream,
  type RestUpstreamOptions,
  type UpstreamRequestOptions,
} from './rest-upstream.js';
export type { ClientConfigResponse } from './client-config.js';
export type { StorageCredential, UpstreamTable } from './load-table-result.js';
export { DEFAULT_ENDPOINTS, VIEW_ENDPOINTS, type UpstreamConfig } from './upstream-config.js';
export { DEFAULT_NAMESPACE_SEPARATOR } from './paths.js';
export {
  UpstreamResponseError,
  isUpstreamResponseError,
  type UpstreamErrorModel,
  type UpstreamResponse,
} from './upstream-error.js';
export { upstreamTableCatalog } from './upstream-table-catalog.js';
export { askUpstreamPlan, planOnUpstream, type UpstreamPlanAnswer, type UpstreamPlanOptions } from './upstream-plan.js';
export { probeUpstream, type ProbeFailure, type UpstreamProbe } from './upstream-probe.js';
export type { StreamedAnswer, StreamedExchange, StreamRequest } from './http-client.js';
export { transportCode, transportFault, upstreamFault, type TransportFault } from './transport-faults.js';
export { awsRefusalOf, describeAwsRefusal, type AwsRefusal } from './aws-error.js';
