/**
 * Snapshots and snapshot references (spec "Snapshots", "Snapshot References"; REST spec
 * `Snapshot`, `SnapshotReference`), read and written as Java's SnapshotParser and
 * SnapshotRefParser do. Unknown snapshot keys are kept.
 */
import {
  asArray,
  asObject,
  asString,
  at,
  invalid,
  optInt,
  optLong,
  optObject,
  optString,
  reqLong,
  reqMillis,
  reqString,
  setKey,
  stringMap,
  type JsonObject,
} from './json-fields.js';

export interface Snapshot {
  readonly snapshotId: bigint;
  readonly parentSnapshotId?: bigint;
  /** 0 when absent (v1). */
  readonly sequenceNumber: bigint;
  readonly timestampMs: number;
  readonly manifestList?: string;
  /** v1 snapshots that embed manifest paths instead of a manifest list. */
  readonly manifests?: readonly string[];
  /** Includes `operation` when the writer recorded one; `{}` when the snapshot has no summary. */
  readonly summary: Readonly<Record<string, string>>;
  readonly schemaId?: number;
  readonly firstRowId?: bigint;
  readonly addedRows?: bigint;
  readonly keyId?: string;
  /** Keys this parser does not know, kept verbatim for round trips. */
  readonly extra: Readonly<Record<string, unknown>>;
}

export type SnapshotRefType = 'branch' | 'tag';

export interface SnapshotRef {
  readonly snapshotId: bigint;
  readonly type: SnapshotRefType;
  readonly minSnapshotsToKeep?: number;
  readonly maxSnapshotAgeMs?: bigint;
  readonly maxRefAgeMs?: bigint;
}

/** Spec "Snapshot References": the branch that tracks the table's current state. */
export const MAIN_BRANCH = 'main';

const SNAPSHOT_KEYS: ReadonlySet<string> = new Set([
  'snapshot-id',
  'parent-snapshot-id',
  'sequence-number',
  'timestamp-ms',
  'manifest-list',
  'manifests',
  'summary',
  'schema-id',
  'first-row-id',
  'added-rows',
  'key-id',
]);

export function parseSnapshot(json: unknown, path = ''): Snapshot {
  const obj = asObject(json, path);
  const manifestList = optString(obj, 'manifest-list', path);
  const rawManifests = obj['manifests'];
  const manifests =
    manifestList === undefined && rawManifests !== undefined && rawManifests !== null
      ? asArray(rawManifests, at(path, 'manifests')).map((m, i) => asString(m, at(at(path, 'manifests'), i)))
      : undefined;
  if (manifestList === undefined && manifests === undefined) throw invalid(at(path, 'manifest-list'), 'is missing');
  const summaryJson = optObject(obj, 'summary', path);
  const extra: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) if (!SNAPSHOT_KEYS.has(k)) setKey(extra, k, v);
  const parent = optLong(obj, 'parent-snapshot-id', path);
  const schemaId = optInt(obj, 'schema-id', path);
  const firstRowId = optLong(obj, 'first-row-id', path);
  const addedRows = optLong(obj, 'added-rows', path);
  const keyId = optString(obj, 'key-id', path);
  return {
    snapshotId: reqLong(obj, 'snapshot-id', path),
    ...(parent !== undefined && { parentSnapshotId: parent }),
    sequenceNumber: optLong(obj, 'sequence-number', path) ?? 0n,
    timestampMs: reqMillis(obj, 'timestamp-ms', path),
    ...(manifestList !== undefined && { manifestList }),
    ...(manifests !== undefined && { manifests }),
    summary: summaryJson === undefined ? {} : stringMap(summaryJson, at(path, 'summary')),
    ...(schemaId !== undefined && { schemaId }),
    ...(firstRowId !== undefined && { firstRowId }),
    ...(addedRows !== undefined && { addedRows }),
    ...(keyId !== undefined && { keyId }),
    extra,
  };
}

/**
 * Java SnapshotParser.toJson key order: sequence-number (only when > 0), snapshot-id,
 * parent-snapshot-id, timestamp-ms, summary (operation first), manifest-list or manifests,
 * schema-id, first-row-id, added-rows, key-id; then unknown keys.
 */
export function snapshotToJson(s: Snapshot): unknown {
  const out: JsonObject = {};
  if (s.sequenceNumber > 0n) out['sequence-number'] = s.sequenceNumber;
  out['snapshot-id'] = s.snapshotId;
  if (s.parentSnapshotId !== undefined) out['parent-snapshot-id'] = s.parentSnapshotId;
  out['timestamp-ms'] = s.timestampMs;
  if (Object.keys(s.summary).length > 0) {
    const summary: Record<string, string> = {};
    if (s.summary['operation'] !== undefined) summary['operation'] = s.summary['operation'];
    for (const [k, v] of Object.entries(s.summary)) if (k !== 'operation') setKey(summary, k, v);
    out['summary'] = summary;
  }
  if (s.manifestList !== undefined) out['manifest-list'] = s.manifestList;
  else out['manifests'] = [...(s.manifests ?? [])];
  if (s.schemaId !== undefined) out['schema-id'] = s.schemaId;
  if (s.firstRowId !== undefined) out['first-row-id'] = s.firstRowId;
  if (s.addedRows !== undefined) out['added-rows'] = s.addedRows;
  if (s.keyId !== undefined) out['key-id'] = s.keyId;
  for (const [k, v] of Object.entries(s.extra)) if (!Object.hasOwn(out, k)) setKey(out, k, v);
  return out;
}

export function parseSnapshotRef(json: unknown, path = ''): SnapshotRef {
  const obj = asObject(json, path);
  const type = reqString(obj, 'type', path).toLowerCase();
  if (type !== 'branch' && type !== 'tag') {
    throw invalid(at(path, 'type'), `must be "branch" or "tag", got ${JSON.stringify(type)}`);
  }
  const minSnapshotsToKeep = optInt(obj, 'min-snapshots-to-keep', path);
  const maxSnapshotAgeMs = optLong(obj, 'max-snapshot-age-ms', path);
  const maxRefAgeMs = optLong(obj, 'max-ref-age-ms', path);
  return {
    snapshotId: reqLong(obj, 'snapshot-id', path),
    type,
    ...(minSnapshotsToKeep !== undefined && { minSnapshotsToKeep }),
    ...(maxSnapshotAgeMs !== undefined && { maxSnapshotAgeMs }),
    ...(maxRefAgeMs !== undefined && { maxRefAgeMs }),
  };
}

/** Java SnapshotRefParser.toJson: snapshot-id, type, then the retention fields that are set. */
export function snapshotRefToJson(ref: SnapshotRef): unknown {
  const out: JsonObject = { 'snapshot-id': ref.snapshotId, type: ref.type };
  if (ref.minSnapshotsToKeep !== undefined) out['min-snapshots-to-keep'] = ref.minSnapshotsToKeep;
  if (ref.maxSnapshotAgeMs !== undefined) out['max-snapshot-age-ms'] = ref.maxSnapshotAgeMs;
  if (ref.maxRefAgeMs !== undefined) out['max-ref-age-ms'] = ref.maxRefAgeMs;
  return out;
}
