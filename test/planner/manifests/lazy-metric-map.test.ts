/**
 * The six metric maps (data_file 108–110, 125, 128, 137) are kept as raw bytes and decoded on first
 * read: they must equal what the eager decoding (avsc values → Maps) gives, on every real fixture
 * manifest and on the layouts other writers use, and a map nobody looks up is never built.
 */
import t from 'tap';
import { createFilesystemCatalog } from '../../../src/catalogs/index.js';
import { isIcefrontError } from '../../../src/errors/index.js';
import {
  currentSchema,
  currentSnapshot,
  partitionType,
  Schema,
  type ManifestEntry,
  type ManifestFile,
  type PartitionSpec,
} from '../../../src/iceberg/index.js';
import type { FileIO } from '../../../src/storage/index.js';
import { AvroContainer, nextBlockOffset } from '../../../src/planner/manifests/avro-container.js';
import { writerDecoder } from '../../../src/planner/manifests/avro-types.js';
import { compileEntryReader } from '../../../src/planner/manifests/entry-reader.js';
import { entrySchema } from '../../../src/planner/manifests/entry-schema.js';
import { RowIdAssigner } from '../../../src/planner/manifests/inheritance.js';
import { LazyMetricMap, metricMapBytes } from '../../../src/planner/manifests/lazy-metric-map.js';
import { readManifest, readManifestList } from '../../../src/planner/manifests/index.js';
import type { AvroRecord } from '../../../src/planner/manifests/record-access.js';
import { REAL_FIXTURES_DIR, REAL_FIXTURES_SKIP, realFixturesAvailable, realFixturesCatalogConfig } from '../../helpers/real-fixtures.js';
import { writeAvro } from './avro-file.js';
import { MemoryIO } from './memory-io.js';
import { entryRecord, field, manifestEntrySchema, manifestFile } from './manifest-schemas.js';
import fs from 'node:fs';
import path from 'node:path';

const METRICS = ['columnSizes', 'valueCounts', 'nullValueCounts', 'nanValueCounts', 'lowerBounds', 'upperBounds'] as const;

/** The entries as the eager path decodes them: avsc builds every metric array, entry-reader converts it. */
async function eagerEntries(io: FileIO, manifest: ManifestFile, spec: PartitionSpec, schema: Schema, statsFieldIds?: ReadonlySet<number>): Promise<ManifestEntry[]> {
  const container = await AvroContainer.open(io, manifest.path, false);
  const { schemaText, writerSchema } = container.header;
  const read = compileEntryReader(entrySchema(writerSchema), {
    manifest,
    spec,
    partitionType: partitionType(spec, schema),
    ...(statsFieldIds && { statsFieldIds }),
  });
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

const plain = (m: ReadonlyMap<number, unknown> | undefined) => (m === undefined ? undefined : [...m].map(([k, v]) => [k, v instanceof Uint8Array ? Buffer.from(v).toString('hex') : v]));

/** Differences between the lazily and the eagerly decoded metric maps of two entry lists. */
function differences(lazy: readonly ManifestEntry[], eager: readonly ManifestEntry[]): string[] {
  const out: string[] = [];
  if (lazy.length !== eager.length) return [`${lazy.length} entries, eagerly ${eager.length}`];
  lazy.forEach((e, i) => {
    for (const key of METRICS) {
      const a = JSON.stringify(plain(e.file[key]), (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v));
      const b = JSON.stringify(plain(eager[i]!.file[key]), (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v));
      if (a !== b) out.push(`entry ${i} ${key}: ${a} vs ${b}`);
    }
  });
  return out;
}

function lazyMaps(entries: readonly ManifestEntry[]): LazyMetricMap<unknown>[] {
  return entries.flatMap((e) => METRICS.map((k): unknown => e.file[k]).filter((m): m is LazyMetricMap<unknown> => m instanceof LazyMetricMap));
}

t.test('on every real fixture manifest, lazily decoded metric maps equal the eager ones', { skip: realFixturesAvailable() ? false : REAL_FIXTURES_SKIP }, async (t) => {
  const index = JSON.parse(fs.readFileSync(path.join(REAL_FIXTURES_DIR, 'INDEX.json'), 'utf8')) as { fixture: string }[];
  const catalog = createFilesystemCatalog(realFixturesCatalogConfig());
  let manifests = 0;
  let lazy = 0;
  const problems: string[] = [];
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
      continue; // missing files: covered by real-fixtures.test.ts
    }
    const someIds = new Set(schema.fields.slice(0, 1).map((f) => f.id));
    // a manifest listed many times (iceberg-cxx meta_perf lists one 10,000 times) is compared once
    const distinct = [...new Map(list.map((m) => [m.path, m] as const)).values()];
    for (const m of distinct) {
      for (const statsFieldIds of [undefined, someIds]) {
        let read;
        try {
          read = await readManifest(table.io, m, { specsById, schema, ...(statsFieldIds && { statsFieldIds }) });
        } catch (err) {
          if (isIcefrontError(err, 'FILE_NOT_FOUND') || isIcefrontError(err, 'PATH_OUTSIDE_WAREHOUSE')) continue;
          throw err;
        }
        const maps = lazyMaps(read.entries);
        if (maps.some((x) => x.decoded)) problems.push(`${fixture} ${path.basename(m.path)}: a map was decoded before anything read it`);
        const eager = await eagerEntries(table.io, m, read.spec, schema, statsFieldIds);
        problems.push(...differences(read.entries, eager).map((d) => `${fixture} ${path.basename(m.path)} ${statsFieldIds ? 'first column' : 'all'}: ${d}`));
        // the comparison iterated every map: iteration decodes without keeping
        if (maps.some((x) => x.decoded)) problems.push(`${fixture} ${path.basename(m.path)}: iterating kept a decoded map`);
        manifests += 1;
        lazy += maps.length;
      }
    }
  }
  t.same(problems.slice(0, 20), [], `${problems.length} differences`);
  t.ok(manifests > 100 && lazy > 1000, `${manifests} manifest reads, ${lazy} lazy maps compared`);
});

const schema = new Schema([
  { id: 1, name: 'id', required: true, type: { kind: 'long' } },
  { id: 2, name: 'category', required: false, type: { kind: 'string' } },
]);
const spec: PartitionSpec = { specId: 0, fields: [] };
const opts = { specsById: new Map([[0, spec]]), schema };

/** `manifestEntrySchema` with the metric fields re-shaped by `reshape` (by field name). */
function reshaped(reshape: (f: Record<string, unknown>) => Record<string, unknown>): Record<string, unknown> {
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

async function lazyAndEager(t: { same(a: unknown, b: unknown, m: string): unknown }, name: string, writer: Record<string, unknown>, records: Record<string, unknown>[], statsFieldIds?: ReadonlySet<number>) {
  const io = new MemoryIO();
  const p = io.put(`mem://${name}.avro`, await writeAvro(writer, records, { metadata: { 'partition-spec-id': '0', 'format-version': '2', content: 'data' } }));
  const read = await readManifest(io, manifestFile(p), { ...opts, ...(statsFieldIds && { statsFieldIds }) });
  const eager = await eagerEntries(io, manifestFile(p), spec, schema, statsFieldIds);
  t.same(read.entries.length, records.length, `${name}: every entry was read`);
  t.same(differences(read.entries, eager), [], `${name}: lazy equals eager`);
  return read.entries;
}

const big = [
  [1, 2n ** 62n + 3n],
  [2, -1n],
  [3, 9007199254740993n],
] as Array<[number, bigint]>;

t.test('the usual layout: 64-bit counts exact, bounds as bytes, absent maps absent, kept columns only', async (t) => {
  const records = [entryRecord({ valueCounts: big }, 0), entryRecord({ valueCounts: null, lowerBounds: [[2, Buffer.from('zz')]] }, 1)];
  const all = await lazyAndEager(t, 'usual', manifestEntrySchema([]), records);
  t.same([...all[0]!.file.valueCounts!], big);
  t.equal(all[1]!.file.valueCounts, undefined, 'a null map stays absent');
  t.equal(all[0]!.file.nanValueCounts, undefined);
  const some = await lazyAndEager(t, 'usual-some', manifestEntrySchema([]), records, new Set([2]));
  t.same([...some[0]!.file.valueCounts!], [[2, -1n]]);
  t.equal(some[0]!.file.lowerBounds!.size, 0);
  t.same([...some[1]!.file.lowerBounds!], [[2, Buffer.from('zz')]]);
});

t.test('DuckDB-style nullable key, value and element unions, and Avro maps with string keys, decode as eagerly', async (t) => {
  const nullable = reshaped((f) => {
    const arr = (f['type'] as unknown[])[1] as { items: { fields: Record<string, unknown>[] } };
    const items = { ...arr.items, fields: arr.items.fields.map((x) => ({ name: x['name'], type: ['null', x['type']] })) };
    return { name: f['name'], type: ['null', { type: 'array', items: ['null', items] }] };
  });
  const withNulls = entryRecord({ valueCounts: big }, 0);
  (withNulls['data_file'] as Record<string, unknown>)['value_counts'] = [...big.map(([key, value]) => ({ key, value })), null, { key: 4, value: null }];
  await lazyAndEager(t, 'nullable', nullable, [withNulls, entryRecord({}, 1)]);
  await lazyAndEager(t, 'nullable-some', nullable, [withNulls], new Set([1, 4]));

  const asMaps = reshaped((f) => {
    const arr = (f['type'] as unknown[])[1] as { items: { fields: Record<string, unknown>[] } };
    return field(f['name'] as string, f['field-id'] as number, { type: 'map', values: arr.items.fields[1]!['type'] }, true);
  });
  const mapRecord = entryRecord({}, 0);
  const df = mapRecord['data_file'] as Record<string, unknown>;
  for (const k of ['column_sizes', 'value_counts', 'null_value_counts', 'lower_bounds', 'upper_bounds']) {
    const pairs = df[k] as { key: number; value: unknown }[] | null;
    df[k] = pairs && Object.fromEntries(pairs.map((p) => [String(p.key), p.value]));
  }
  const entries = await lazyAndEager(t, 'avro-map', asMaps, [mapRecord]);
  t.ok(entries[0]!.file.valueCounts instanceof LazyMetricMap, 'Avro maps are lazy too (decoded by avsc on first read)');
  t.same([...entries[0]!.file.valueCounts!], [[1, 10n], [2, 10n]]);
});

t.test('only the maps something looks up are decoded; iterating does not keep one', async (t) => {
  const io = new MemoryIO();
  const p = io.put('mem://lookups.avro', await writeAvro(manifestEntrySchema([]), [entryRecord({}, 0)], { metadata: { 'partition-spec-id': '0', content: 'data' } }));
  const [entry] = (await readManifest(io, manifestFile(p), opts)).entries;
  const file = entry!.file;
  const maps = METRICS.map((k): unknown => file[k]).filter((m) => m !== undefined) as LazyMetricMap<unknown>[];
  t.equal(maps.length, 5, 'five present (nan_value_counts is null)');
  t.ok(maps.every((m) => m instanceof LazyMetricMap && !m.decoded), 'none decoded by the read');
  t.same([...file.valueCounts!.keys()], [1, 2]);
  t.notOk((file.valueCounts as LazyMetricMap<bigint>).decoded, 'iteration decodes without keeping');
  t.equal(file.nullValueCounts!.get(1), 0n);
  t.ok((file.nullValueCounts as LazyMetricMap<bigint>).decoded, 'a lookup decodes once and keeps');
  t.same(
    maps.filter((m) => m.decoded).length,
    1,
    'the other maps stay raw',
  );
  t.same([...file.nullValueCounts!], [[1, 0n]], 'a decoded map iterates as itself');
});

t.test('a metric map that does not decode fails its reads with INVALID_METADATA naming the manifest', async (t) => {
  const writer = reshaped((f) => {
    const arr = (f['type'] as unknown[])[1] as { items: { fields: Record<string, unknown>[] } };
    const items = { ...arr.items, fields: [{ name: 'key', type: ['null', 'int'] }, arr.items.fields[1]] };
    return { ...f, type: ['null', { ...arr, items }] };
  });
  const record = entryRecord({}, 0);
  (record['data_file'] as Record<string, unknown>)['value_counts'] = [{ key: null, value: 3n }];
  const io = new MemoryIO();
  const p = io.put('mem://bad.avro', await writeAvro(writer, [record], { metadata: { 'partition-spec-id': '0', content: 'data' } }));
  const [entry] = (await readManifest(io, manifestFile(p), opts)).entries;
  for (const attempt of ['first', 'second']) {
    try {
      entry!.file.valueCounts!.get(1);
      t.fail(`${attempt} read should throw`);
    } catch (err) {
      t.ok(isIcefrontError(err, 'INVALID_METADATA') && String(err).includes(p), `${attempt} read: ${String(err)}`);
    }
  }
  t.equal(entry!.file.nullValueCounts!.get(1), 0n, 'the other maps still read');
});

t.test('a slice is sized for the cache without decoding its metric maps', async (t) => {
  const io = new MemoryIO();
  const p = io.put('mem://sized.avro', await writeAvro(manifestEntrySchema([]), [entryRecord({}, 0)], { metadata: { 'partition-spec-id': '0', content: 'data' } }));
  const [entry] = (await readManifest(io, manifestFile(p), opts)).entries;
  const maps = METRICS.map((k): unknown => entry!.file[k]).filter((m) => m !== undefined) as LazyMetricMap<unknown>[];
  t.equal(maps.length, 5, 'five present (nan_value_counts is null)');
  t.ok(maps.every((m) => metricMapBytes(m) > 0), 'every present map has a size');
  t.ok(maps.every((m) => !m.decoded), 'and none was decoded to get it');
  t.equal(metricMapBytes(undefined), 0, 'an absent map costs nothing');
});
