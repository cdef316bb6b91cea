/**
 * The six metric maps (data_file 108–110, 125, 128, 137) are kept as raw bytes and decoded on first
 * read: they must equal what the eager decoding (avsc values → Maps) gives, on every real fixture
 * manifest and on the layouts other writers use, and a map nobody looks up is never built.
 */
import t from 'tap';
import { isIcefrontError } from '../../../src/errors/index.js';
import type { ManifestEntry } from '../../../src/iceberg/index.js';
import { LazyMetricMap, metricMapBytes } from '../../../src/planner/manifests/lazy-metric-map.js';
import { readManifest } from '../../../src/planner/manifests/index.js';
import { REAL_FIXTURES_SKIP, realFixturesAvailable } from '../../helpers/real-fixtures.js';
import { writeAvro } from './avro-file.js';
import { MemoryIO } from './memory-io.js';
import { entryRecord, manifestEntrySchema, manifestFile } from './manifest-schemas.js';
import { avroMapLayout, eagerEntries, fixtureManifests, METRICS, nullableKeyLayout, nullableLayout, TEST_SCHEMA, TEST_SPEC, withAvroMaps } from './metric-fixtures.js';
import path from 'node:path';

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
  let manifests = 0;
  let lazy = 0;
  const problems: string[] = [];
  for await (const { fixture, io, manifest: m, specsById, schema } of fixtureManifests()) {
    const someIds = new Set(schema.fields.slice(0, 1).map((f) => f.id));
    for (const statsFieldIds of [undefined, someIds]) {
      let read;
      try {
        read = await readManifest(io, m, { specsById, schema, ...(statsFieldIds && { statsFieldIds }) });
      } catch (err) {
        if (isIcefrontError(err, 'FILE_NOT_FOUND') || isIcefrontError(err, 'PATH_OUTSIDE_WAREHOUSE')) continue;
        throw err;
      }
      const maps = lazyMaps(read.entries);
      if (maps.some((x) => x.decoded)) problems.push(`${fixture} ${path.basename(m.path)}: a map was decoded before anything read it`);
      const eager = await eagerEntries(io, m, read.spec, schema, statsFieldIds);
      problems.push(...differences(read.entries, eager).map((d) => `${fixture} ${path.basename(m.path)} ${statsFieldIds ? 'first column' : 'all'}: ${d}`));
      // the comparison iterated every map: iteration decodes without keeping
      if (maps.some((x) => x.decoded)) problems.push(`${fixture} ${path.basename(m.path)}: iterating kept a decoded map`);
      manifests += 1;
      lazy += maps.length;
    }
  }
  t.same(problems.slice(0, 20), [], `${problems.length} differences`);
  t.ok(manifests > 100 && lazy > 1000, `${manifests} manifest reads, ${lazy} lazy maps compared`);
});

const schema = TEST_SCHEMA;
const spec = TEST_SPEC;
const opts = { specsById: new Map([[0, spec]]), schema };

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
  const nullable = nullableLayout();
  const withNulls = entryRecord({ valueCounts: big }, 0);
  (withNulls['data_file'] as Record<string, unknown>)['value_counts'] = [...big.map(([key, value]) => ({ key, value })), null, { key: 4, value: null }];
  await lazyAndEager(t, 'nullable', nullable, [withNulls, entryRecord({}, 1)]);
  await lazyAndEager(t, 'nullable-some', nullable, [withNulls], new Set([1, 4]));

  const asMaps = avroMapLayout();
  const mapRecord = withAvroMaps(entryRecord({}, 0));
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
  const writer = nullableKeyLayout();
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
