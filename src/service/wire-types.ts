/**
 * Response bodies of the read API, shaped as the REST spec's schemas (rest-catalog-open-api.yaml,
 * components/schemas). Optional keys are omitted, never `null`.
 */
import type { Namespace } from '../iceberg/index.js';
import type { RawJson } from '../json/index.js';

/** CatalogConfig. */
export interface CatalogConfigResponse {
  readonly defaults: Readonly<Record<string, string>>;
  readonly overrides: Readonly<Record<string, string>>;
  readonly endpoints: readonly string[];
}

/** ListNamespacesResponse. */
export interface ListNamespacesResponse {
  readonly namespaces: readonly Namespace[];
  readonly 'next-page-token'?: string;
}

/** GetNamespaceResponse. */
export interface GetNamespaceResponse {
  readonly namespace: Namespace;
  readonly properties: Readonly<Record<string, string>>;
}

/** TableIdentifier as it appears on the wire. */
export interface WireTableIdentifier {
  readonly namespace: Namespace;
  readonly name: string;
}

/** ListTablesResponse. */
export interface ListTablesResponse {
  readonly identifiers: readonly WireTableIdentifier[];
  readonly 'next-page-token'?: string;
}

/**
 * LoadTableResult. `metadata` is the TableMetadata JSON model (64-bit ids as bigint), or the
 * RawJson text of it a catalog wrote to the table's metadata file.
 */
export interface LoadTableResult {
  readonly 'metadata-location': string;
  readonly metadata: unknown;
  readonly config: Readonly<Record<string, string>>;
}

/** A loaded table plus the ETag identifying this representation of it. */
export interface LoadTableResponse {
  readonly result: LoadTableResult;
  /** `result` serialised (int64-exact) and UTF-8 encoded once, as sent. */
  readonly body: Buffer;
  /** A strong entity tag, quoted (`"…"`). */
  readonly etag: string;
  /** The table's current snapshot (main), when it has one. */
  readonly currentSnapshotId?: bigint;
}

/**
 * PlanTableScanResult with status `completed` (REST spec CompletedPlanningWithIDResult):
 * ScanTasks plus `status` and `plan-id`.
 */
export interface PlanTableScanResult {
  readonly status: 'completed';
  readonly 'plan-id': string;
  readonly 'delete-files'?: readonly Record<string, unknown>[] | RawJson;
  readonly 'file-scan-tasks': readonly Record<string, unknown>[] | RawJson;
  readonly 'plan-tasks'?: readonly string[];
}

/** REST spec FetchScanTasksResult (ScanTasks): always `file-scan-tasks`, possibly empty. */
export interface FetchScanTasksResult {
  readonly 'delete-files'?: readonly Record<string, unknown>[] | RawJson;
  readonly 'file-scan-tasks': readonly Record<string, unknown>[] | RawJson;
  readonly 'plan-tasks'?: readonly string[];
}

/** REST spec FetchPlanningResult, `completed` (CompletedPlanningResult: no plan-id). */
export interface FetchPlanningResult extends FetchScanTasksResult {
  readonly status: 'completed';
}

/** The `snapshots` query parameter of loadTable. */
export type SnapshotsMode = 'all' | 'refs';

/** Raw pagination query parameters, exactly as the client sent them. */
export interface PageRequest {
  readonly pageToken?: string;
  readonly pageSize?: string;
}
