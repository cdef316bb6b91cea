/** Builders for the view commit tests: a fixed clock, a stored view, view versions and updates as JSON. */
import { parseViewMetadata, type ViewMetadata } from '../../src/iceberg/index.js';
import { parseViewUpdate, type StoredView, type ViewClock, type ViewUpdate } from '../../src/commits/views/index.js';

export const NOW = 1_800_000_000_000;

/** A clock at NOW whose UUIDs count up: uuid-1, uuid-2, … */
export function fixedClock(now = NOW): ViewClock & { uuids: number } {
  const clock = {
    uuids: 0,
    now: () => now,
    newUuid: () => `uuid-${++clock.uuids}`,
  };
  return clock;
}

export function stored(metadata: string | ViewMetadata, metadataLocation = 's3://bucket/views/v/metadata/00002.metadata.json'): StoredView {
  return { metadata: typeof metadata === 'string' ? parseViewMetadata(metadata) : metadata, metadataLocation };
}

/** A view-version member as a client sends it. */
export function versionJson(sql: string | Record<string, string>, over: Record<string, unknown> = {}): Record<string, unknown> {
  const queries = typeof sql === 'string' ? { spark: sql } : sql;
  return {
    'version-id': 1,
    'timestamp-ms': NOW - 5000,
    'schema-id': 0,
    summary: { 'engine-name': 'spark' },
    'default-namespace': ['analytics'],
    representations: Object.entries(queries).map(([dialect, text]) => ({ type: 'sql', sql: text, dialect })),
    ...over,
  };
}

export function schemaJson(names: readonly string[], over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    type: 'struct',
    'schema-id': 0,
    fields: names.map((name, i) => ({ id: i + 1, name, required: false, type: 'string' })),
    ...over,
  };
}

/** Parsed updates from their JSON forms. */
export function updates(...json: unknown[]): ViewUpdate[] {
  return json.map((u, i) => parseViewUpdate(u, `updates[${i}]`));
}
