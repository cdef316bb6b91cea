/**
 * Bases and clocks for the commit core's tests (test/commits): a fixed clock, real table metadata
 * from ../shared/fixtures/real as a TableVersion, a small hand-written v2 table, and shorthands
 * that read updates and requirements from their wire JSON.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { CommitClock, TableRequirement, TableUpdate, TableVersion } from '../../src/commits/index.js';
import { applyUpdates, parseRequirement, parseUpdate } from '../../src/commits/index.js';
import { metadataFileText, parseTableMetadata, tableMetadataToJson, type TableMetadata } from '../../src/iceberg/index.js';
import { parseJson, stringifyJson } from '../../src/json/index.js';
import { REAL_FIXTURES_DIR, realFixturesAvailable } from './real-fixtures.js';

/** 2030-01-01T00:00:00Z: later than every fixture's timestamps. */
export const NOW = 1_893_456_000_000;

/** A clock that always says `now` and hands out uuid-1, uuid-2, … */
export function fixedClock(now = NOW): CommitClock & { readonly uuids: string[] } {
  const uuids: string[] = [];
  return {
    uuids,
    now: () => now,
    newUuid: () => {
      const u = `00000000-0000-4000-8000-${String(uuids.length + 1).padStart(12, '0')}`;
      uuids.push(u);
      return u;
    },
  };
}

/** A real table's metadata file (path below ../shared/fixtures/real) as the version a store holds. */
export function realVersion(relativePath: string): TableVersion {
  const file = path.join(REAL_FIXTURES_DIR, relativePath);
  const metadata = parseTableMetadata(metadataFileText(fs.readFileSync(file)));
  return { metadata, metadataLocation: `${metadata.location}/metadata/${path.basename(file)}` };
}

export { realFixturesAvailable };
export { REAL_FIXTURES_SKIP } from './real-fixtures.js';

/** Real fixtures the commit tests use as bases. */
export const REAL = {
  /** Spark v1: two schemas, four snapshots, a metadata log of five. */
  v1: 'databend/iceberg_data/iceberg_tbl/metadata/00005-032145b7-6a0c-4a53-bc3d-b7b571ccab3b.metadata.json',
  /** Trino v2: two specs (partition evolution), statistics for two snapshots. */
  v2Specs: 'iceberg-cxx/tables/partition_evolution/metadata/00005-218c3743-5886-48b9-88d6-86c202862e0f.metadata.json',
  /** Spark v2: a branch with retention and a tag besides main, five snapshots. */
  v2Refs: 'iceberg-cxx/warehouse/gperov/test/metadata/00007-2ed28880-9928-4670-934a-bda11c8130c9.metadata.json',
  /** Impala v3: row lineage over four snapshots, next-row-id 6. */
  v3: 'impala/iceberg_v3/iceberg_v3_row_lineage/metadata/v5.metadata.json',
  /** 1000 snapshots and refs, a metadata log already trimmed to 100. */
  manySnapshots: 'iceberg-cxx/meta_perf/warehouse/performance/snapshots/metadata/01999-084000f2-7dd9-4e7c-adfd-24ec13d717c0.metadata.json',
} as const;

/** A small v2 table (hand-written): schema 0 {1 id long required, 2 data string, 3 ts timestamptz}, unpartitioned, two snapshots. */
export const SMALL_V2 = `{
  "format-version": 2,
  "table-uuid": "11111111-2222-4333-8444-555555555555",
  "location": "s3://bucket/db/t",
  "last-sequence-number": 2,
  "last-updated-ms": 1700000002000,
  "last-column-id": 3,
  "current-schema-id": 0,
  "schemas": [{"type": "struct", "schema-id": 0, "identifier-field-ids": [1], "fields": [
    {"id": 1, "name": "id", "required": true, "type": "long"},
    {"id": 2, "name": "data", "required": false, "type": "string"},
    {"id": 3, "name": "ts", "required": false, "type": "timestamptz"}]}],
  "default-spec-id": 0,
  "partition-specs": [{"spec-id": 0, "fields": []}],
  "last-partition-id": 999,
  "default-sort-order-id": 0,
  "sort-orders": [{"order-id": 0, "fields": []}],
  "properties": {"owner": "ana"},
  "current-snapshot-id": 2,
  "refs": {"main": {"snapshot-id": 2, "type": "branch"}},
  "snapshots": [
    {"sequence-number": 1, "snapshot-id": 1, "timestamp-ms": 1700000001000, "summary": {"operation": "append"}, "manifest-list": "s3://bucket/db/t/metadata/snap-1.avro", "schema-id": 0},
    {"sequence-number": 2, "snapshot-id": 2, "parent-snapshot-id": 1, "timestamp-ms": 1700000002000, "summary": {"operation": "append"}, "manifest-list": "s3://bucket/db/t/metadata/snap-2.avro", "schema-id": 0}
  ],
  "statistics": [],
  "partition-statistics": [],
  "snapshot-log": [{"timestamp-ms": 1700000001000, "snapshot-id": 1}, {"timestamp-ms": 1700000002000, "snapshot-id": 2}],
  "metadata-log": [{"timestamp-ms": 1700000000000, "metadata-file": "s3://bucket/db/t/metadata/00000-a.metadata.json"},
                   {"timestamp-ms": 1700000001000, "metadata-file": "s3://bucket/db/t/metadata/00001-b.metadata.json"}]
}`;

/** SMALL_V2 as stored in `00002-c.metadata.json`; `edit` may change its JSON first. */
export function smallV2(edit?: (json: Record<string, unknown>) => void): TableVersion {
  const json = parseJson(SMALL_V2) as Record<string, unknown>;
  edit?.(json);
  return { metadata: parseTableMetadata(json), metadataLocation: 's3://bucket/db/t/metadata/00002-c.metadata.json' };
}

/** Updates from their wire JSON (a JSON text, so 64-bit ids stay exact). */
export function updates(json: string): TableUpdate[] {
  return (parseJson(json) as unknown[]).map((u, i) => parseUpdate(u, `updates[${i}]`));
}

export function requirements(json: string): TableRequirement[] {
  return (parseJson(json) as unknown[]).map((r, i) => parseRequirement(r, `requirements[${i}]`));
}

/** Applies wire-JSON updates to `base` with a fixed clock. */
export function apply(base: TableVersion | undefined, json: string, clock: CommitClock = fixedClock()) {
  return applyUpdates(base, updates(json), clock);
}

/** The metadata written and read back, as a store would (Java TableMetadataParser round trip). */
export function roundTrip(metadata: TableMetadata): TableMetadata {
  return parseTableMetadata(stringifyJson(tableMetadataToJson(metadata)));
}
