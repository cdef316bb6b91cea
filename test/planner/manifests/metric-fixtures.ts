/**
 * What the metric-map tests compare against: the eager decoding of a manifest (avsc builds every
 * metric array, entry-reader converts it), the real fixture manifests to compare on, and the
 * metric-field layouts other writers use.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createFilesystemCatalog } from '../../../src/catalogs/index.js';
import { currentSchema, currentSnapshot, partitionType, Schema, type ManifestEntry, type ManifestFile, type PartitionSpec } from '../../../src/iceberg/index.js';
import type { FileIO } from '../../../src/storage/index.js';
import { AvroContainer, nextBlockOffset } from '../../../src/planner/manifests/avro-container.js';
import { writerDecoder } from '../../../src/planner/manifests/avro-types.js';
import { compileEntryReader } from '../../../src/planner/manifests/entry-reader.js';
import { entrySchema } from '../../../src/planner/manifests/entry-schema.js';
import { RowIdAssigner } from '../../../src/planner/manifests/inheritance.js';
import { readManifestList } from '../../../src/planner/manifests/index.js';
import type { AvroRecord } from '../../../src/planner/manifests/record-access.js';
import { REAL_FIXTURES_DIR, realFixturesCatalogConfig } from '../../helpers/real-fixtures.js';
import { field, manifestEntrySchema } from './manifest-schemas.js';

export const METRICS = ['columnSizes', 'valueCounts', 'nullValueCounts', 'nanValueCounts', 'lowerBounds', 'upperBounds'] as const;

/** The entries as the eager path decodes them: avsc builds every metric array, entry-reader converts it. */
export async function eagerEntries(io: FileIO, manifest: ManifestFile, spec: PartitionSpec, schema: Schema, statsFieldIds?: ReadonlySet<number>): Promise<ManifestEntry[]> {
  const container = await AvroContainer.open(io, manifest.path, false);
  const { schemaText, writerSchema } = container.header;
  const read = compileEntryReader(entrySchema(writerSchema), { manifest, spec, partitionType: partitionType(spec, schema), ...(statsFieldIds && { statsFieldIds }) });
  const decoder = writerDecoder(schemaText, writerSchema);
  const rowIds = new RowIdAssigner(RowIdAssigner.appliesTo(manifest) ? manifest.firstRowId : undefined);
  const out: ManifestEntry[] = [];
  let offset = container.header.length;
  let first = 0;
  for (let block = await container.blockAt(offset, first); block; block = await container.blockAt(offset, first)) {
    await container.decodeBlock(block, decoder, (v, i) => out.push(read(v as AvroRecord, i, rowIds)));
    offset = nextBlockOffset(block);
    first += block.recordCount;
  }
  return out;
}

export interface FixtureManifest {
  readonly fixture: string;
  readonly io: FileIO;
  readonly manifest: ManifestFile;
  readonly specsById: ReadonlyMap<number, PartitionSpec>;
  readonly schema: Schema;
}

/**
 * Every distinct data or delete manifest of every real fixture table's current snapshot (a
 * manifest listed many times, as iceberg-cxx meta_perf lists one 10,000 times, comes once).
 * Tables whose manifest list is missing are left to real-fixtures.test.ts.
 */
export async function* fixtureManifests(): AsyncGenerator<FixtureManifest> {
  const index = JSON.parse(fs.readFileSync(path.join(REAL_FIXTURES_DIR, 'INDEX.json'), 'utf8')) as { fixture: string }[];
  const catalog = createFilesystemCatalog(realFixturesCatalogConfig());
  for (const { fixture } of index) {
    const levels = fixture.split('/');
    const table = await catalog.loadTable({ namespace: levels.slice(0, -1), name: levels[levels.length - 1]! });
    const snapshot = currentSnapshot(table.metadata);
    if (snapshot?.manifestList === undefined) continue;
    const specsById = new Map(table.metadata.partitionSpecs.map((s) => [s.specId, s]));
    const schema = currentSchema(table.metadata);
    let list: ManifestFile[];
    try {
      list = await readManifestList(table.io, snapshot.manifestList, { formatVersion: table.metadata.formatVersion, snapshotId: snapshot.snapshotId });
    } catch {
      continue;
    }
    for (const manifest of new Map(list.map((m) => [m.path, m] as const)).values()) yield { fixture, io: table.io, manifest, specsById, schema };
  }
}

/** A two-column table schema and unpartitioned spec for manifests written by a test. */
export const TEST_SCHEMA = new Schema([
  { id: 1, name: 'id', required: true, type: { kind: 'long' } },
  { id: 2, name: 'category', required: false, type: { kind: 'string' } },
]);
export const TEST_SPEC: PartitionSpec = { specId: 0, fields: [] };

/** `manifestEntrySchema` with the six metric fields re-shaped by `reshape` (by field name). */
export function reshaped(reshape: (f: Record<string, unknown>) => Record<string, unknown>): Record<string, unknown> {
  const root = manifestEntrySchema([]) as { fields: Record<string, unknown>[] };
  const metricNames = ['column_sizes', 'value_counts', 'null_value_counts', 'nan_value_counts', 'lower_bounds', 'upper_bounds'];
  return {
    ...root,
    fields: root.fields.map((f) => {
      if (f['name'] !== 'data_file') return f;
      const df = f['type'] as { fields: Record<string, unknown>[] };
      return { ...f, type: { ...df, fields: df.fields.map((x) => (metricNames.includes(x['name'] as string) ? reshape(x) : x)) } };
    }),
  };
}

/** DuckDB's layout: nullable keys, values and elements. */
export function nullableLayout(): Record<string, unknown> {
  return reshaped((f) => {
    const arr = (f['type'] as unknown[])[1] as { items: { fields: Record<string, unknown>[] } };
    const items = { ...arr.items, fields: arr.items.fields.map((x) => ({ name: x['name'], type: ['null', x['type']] })) };
    return { name: f['name'], type: ['null', { type: 'array', items: ['null', items] }] };
  });
}

/** A layout whose key may be null, which no map can hold: reading one fails. */
export function nullableKeyLayout(): Record<string, unknown> {
  return reshaped((f) => {
    const arr = (f['type'] as unknown[])[1] as { items: { fields: Record<string, unknown>[] } };
    const items = { ...arr.items, fields: [{ name: 'key', type: ['null', 'int'] }, arr.items.fields[1]] };
    return { ...f, type: ['null', { ...arr, items }] };
  });
}

/** Avro maps with decimal string keys instead of arrays of pairs (read through avsc). */
export function avroMapLayout(): Record<string, unknown> {
  return reshaped((f) => {
    const arr = (f['type'] as unknown[])[1] as { items: { fields: Record<string, unknown>[] } };
    return field(f['name'] as string, f['field-id'] as number, { type: 'map', values: arr.items.fields[1]!['type'] }, true);
  });
}

/** An `entryRecord` whose metric maps are written as Avro maps (for `avroMapLayout`). */
export function withAvroMaps(record: Record<string, unknown>): Record<string, unknown> {
  const df = record['data_file'] as Record<string, unknown>;
  for (const k of ['column_sizes', 'value_counts', 'null_value_counts', 'lower_bounds', 'upper_bounds']) {
    const pairs = df[k] as { key: number; value: unknown }[] | null;
    df[k] = pairs && Object.fromEntries(pairs.map((p) => [String(p.key), p.value]));
  }
  return record;
}
