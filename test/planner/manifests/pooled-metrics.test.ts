/**
 * A manifest read with every column's metrics pooled (`allMetrics`) must give, for every entry and
 * column, what the eager decoding (avsc values → Maps) gives: through the cursor the metrics
 * evaluator reads, through the maps a matching entry is given, and through a range cut from the
 * slice. On every real fixture manifest, on the layouts other writers use, and on random maps.
 */
import fc from 'fast-check';
import t from 'tap';
import { isIcefrontError } from '../../../src/errors/index.js';
import type { ContentFile, ManifestEntry } from '../../../src/iceberg/index.js';
import { readManifest, type ManifestReadResult } from '../../../src/planner/manifests/index.js';
import type { PooledMetrics } from '../../../src/planner/manifests/pooled-metrics.js';
import { REAL_FIXTURES_SKIP, realFixturesAvailable } from '../../helpers/real-fixtures.js';
import { writeAvro } from './avro-file.js';
import { MemoryIO } from './memory-io.js';
import { entryRecord, manifestEntrySchema, manifestFile } from './manifest-schemas.js';
import { avroMapLayout, eagerEntries, fixtureManifests, METRICS, nullableKeyLayout, nullableLayout, TEST_SCHEMA, TEST_SPEC, withAvroMaps } from './metric-fixtures.js';
import path from 'node:path';

const text = (v: unknown) => JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? `${x}n` : x instanceof Uint8Array ? Buffer.from(x).toString('hex') : x));
const pairs = (m: ReadonlyMap<number, unknown> | undefined) => (m === undefined ? [] : [...m]);

/** Differences between what the pooled metrics give entry by entry and the eager maps. */
function differences(read: ManifestReadResult, eager: readonly ManifestEntry[], keep: ReadonlySet<number>): string[] {
  const out: string[] = [];
  const pooled = read.metrics;
  if (pooled === undefined) return ['no pooled metrics'];
  if (read.entries.length !== eager.length || pooled.count !== eager.length) return [`${read.entries.length} entries (${pooled.count} pooled), eagerly ${eager.length}`];
  read.entries.forEach((entry, i) => {
    const want = eager[i]!.file;
    for (const key of METRICS) {
      const held = entry.file[key];
      if (held !== undefined && held.size !== 0) out.push(`entry ${i} ${key}: the entry itself holds ${held.size} pairs`);
      const cursor = pooled.at(i, entry.file) as unknown as Pick<ContentFile, (typeof METRICS)[number]>;
      const ids = new Set([...pairs(want[key]).map(([id]) => id), 9_999]);
      for (const id of ids) {
        if (text(cursor[key]?.get(id)) !== text(want[key]?.get(id))) out.push(`entry ${i} ${key} column ${id}: ${text(cursor[key]?.get(id))} vs ${text(want[key]?.get(id))}`);
      }
      if (text(pairs(cursor[key])) !== text(pairs(want[key]))) out.push(`entry ${i} ${key}: iterated ${text(pairs(cursor[key]))} vs ${text(pairs(want[key]))}`);
      const given = pooled.withMetrics(entry, i, keep).file[key];
      const wantKept = pairs(want[key]).filter(([id]) => keep.has(id));
      if ((given === undefined) !== (want[key] === undefined) || text(pairs(given)) !== text(wantKept)) out.push(`entry ${i} ${key} kept: ${text(pairs(given))} vs ${text(wantKept)}`);
    }
  });
  return out;
}

/** Whether a range cut from the pool reads as the same entries of the whole. */
function cutAgrees(metrics: PooledMetrics, entries: readonly ManifestEntry[], start: number, end: number): boolean {
  const cut = metrics.slice(start, end);
  for (let i = 0; i < cut.count; i += 1) {
    for (let k = 0; k < METRICS.length; k += 1) {
      if (text(cut.raw(i, k)) !== text(metrics.raw(start + i, k))) return false;
    }
    const file = entries[start + i]!.file;
    if (text(pairs(cut.at(i, file).lowerBounds)) !== text(pairs(metrics.at(start + i, file).lowerBounds))) return false;
  }
  return cut.count === Math.max(0, Math.min(end, metrics.count) - start);
}

t.test('on every real fixture manifest, pooled metrics read as the eager maps, column by column', { skip: realFixturesAvailable() ? false : REAL_FIXTURES_SKIP }, async (t) => {
  let pooledReads = 0;
  let onEntries = 0;
  let entries = 0;
  const problems: string[] = [];
  for await (const { fixture, io, manifest: m, specsById, schema } of fixtureManifests()) {
    const keep = new Set(schema.fields.slice(0, 1).map((f) => f.id));
    let read: ManifestReadResult;
    try {
      read = await readManifest(io, m, { specsById, schema, statsFieldIds: new Set(), allMetrics: true });
    } catch (err) {
      if (isIcefrontError(err, 'FILE_NOT_FOUND') || isIcefrontError(err, 'PATH_OUTSIDE_WAREHOUSE')) continue;
      throw err;
    }
    const eager = await eagerEntries(io, m, read.spec, schema);
    const where = `${fixture} ${path.basename(m.path)}`;
    if (read.metrics === undefined) {
      // a layout avsc cannot hand over as bytes: every column's maps stay on the entries
      onEntries += 1;
      read.entries.forEach((e, i) => {
        for (const key of METRICS) if (text(pairs(e.file[key])) !== text(pairs(eager[i]!.file[key]))) problems.push(`${where} entry ${i} ${key}: not every column kept`);
      });
      continue;
    }
    pooledReads += 1;
    entries += read.entries.length;
    problems.push(...differences(read, eager, keep).map((d) => `${where}: ${d}`));
    const n = read.metrics.count;
    if (!cutAgrees(read.metrics, read.entries, Math.floor(n / 3), n - 1)) problems.push(`${where}: a range cut from the pool reads otherwise`);
  }
  t.same(problems.slice(0, 20), [], `${problems.length} differences`);
  t.ok(pooledReads > 100 && entries > 1000, `${pooledReads} pooled manifest reads (${entries} entries), ${onEntries} with the maps on the entries`);
});

const schema = TEST_SCHEMA;
const spec = TEST_SPEC;
const opts = { specsById: new Map([[0, spec]]), schema };
const HEADER = { metadata: { 'partition-spec-id': '0', 'format-version': '2', content: 'data' } };

async function pooledAndEager(name: string, writer: Record<string, unknown>, records: Record<string, unknown>[], keep: ReadonlySet<number> = new Set([1])) {
  const io = new MemoryIO();
  const p = io.put(`mem://${name}.avro`, await writeAvro(writer, records, HEADER));
  const read = await readManifest(io, manifestFile(p), { ...opts, statsFieldIds: new Set(), allMetrics: true });
  const eager = await eagerEntries(io, manifestFile(p), spec, schema);
  return { read, problems: differences(read, eager, keep), path: p };
}

const big = [
  [1, 2n ** 62n + 3n],
  [2, -1n],
  [300, 9007199254740993n],
] as Array<[number, bigint]>;

t.test('the usual layout: 64-bit counts exact, long keys, absent maps absent, the last of a repeated key', async (t) => {
  const repeated = entryRecord({ valueCounts: [[1, 5n], [2, 1n], [1, 7n]] }, 1);
  const records = [entryRecord({ valueCounts: big, lowerBounds: [[1, Buffer.alloc(200, 7)]] }, 0), repeated, entryRecord({ valueCounts: null, lowerBounds: [[2, Buffer.from('')]] }, 2)];
  const { read, problems } = await pooledAndEager('usual', manifestEntrySchema([]), records, new Set([1, 300]));
  t.same(problems, []);
  t.equal(read.metrics!.at(1, read.entries[1]!.file).valueCounts.get(1), 7n, 'a key written twice reads as its last pair, as a Map fills');
  t.equal(read.metrics!.at(2, read.entries[2]!.file).valueCounts.get(1), undefined, 'a null map has no values');
  t.same([...read.metrics!.at(2, read.entries[2]!.file).lowerBounds], [[2, Buffer.from('')]], 'an empty bound is a bound');
  t.equal(read.entries[0]!.file.lowerBounds, undefined, 'the entries themselves carry no map');
});

t.test('DuckDB-style nullable unions and Avro maps with string keys read as eagerly (through avsc)', async (t) => {
  const nullable = nullableLayout();
  const withNulls = entryRecord({ valueCounts: big }, 0);
  (withNulls['data_file'] as Record<string, unknown>)['value_counts'] = [...big.map(([key, value]) => ({ key, value })), null, { key: 4, value: null }];
  t.same((await pooledAndEager('nullable', nullable, [withNulls, entryRecord({}, 1)], new Set([1, 4]))).problems, []);

  const asMaps = avroMapLayout();
  const mapRecord = withAvroMaps(entryRecord({}, 0));
  const { read, problems } = await pooledAndEager('avro-map', asMaps, [mapRecord]);
  t.same(problems, []);
  t.equal(read.metrics!.at(0, read.entries[0]!.file).valueCounts.get(2), 10n);
});

t.test('random maps: every lookup reads what the eager decoding holds', async (t) => {
  const counts = fc.array(fc.tuple(fc.integer({ min: 0, max: 100_000 }), fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n })), { maxLength: 30 });
  const bounds = fc.array(fc.tuple(fc.integer({ min: 0, max: 100_000 }), fc.uint8Array({ maxLength: 80 }).map((b) => Buffer.from(b))), { maxLength: 30 });
  const entry = fc.record({ valueCounts: counts, lowerBounds: bounds });
  await fc.assert(
    fc.asyncProperty(fc.array(entry, { minLength: 1, maxLength: 8 }), async (inputs) => {
      const records = inputs.map((e, i) => entryRecord({ valueCounts: e.valueCounts, lowerBounds: e.lowerBounds }, i));
      const keep = new Set(inputs.flatMap((e) => e.valueCounts.slice(0, 1).map(([id]) => id)));
      const { problems } = await pooledAndEager('random', manifestEntrySchema([]), records, keep);
      return problems.length === 0;
    }),
    { numRuns: 60 },
  );
  t.pass('60 random manifests');
});

t.test('a pooled map that does not decode fails a lookup with INVALID_METADATA naming the manifest', async (t) => {
  const writer = nullableKeyLayout();
  const record = entryRecord({}, 0);
  (record['data_file'] as Record<string, unknown>)['value_counts'] = [{ key: null, value: 3n }];
  const io = new MemoryIO();
  const p = io.put('mem://bad.avro', await writeAvro(writer, [record], HEADER));
  const read = await readManifest(io, manifestFile(p), { ...opts, statsFieldIds: new Set(), allMetrics: true });
  const cursor = read.metrics!.at(0, read.entries[0]!.file);
  try {
    cursor.valueCounts.get(1);
    t.fail('the lookup should throw');
  } catch (err) {
    t.ok(isIcefrontError(err, 'INVALID_METADATA') && String(err).includes(p), String(err));
  }
  t.equal(cursor.nullValueCounts.get(1), 0n, 'the other maps still read');
});

t.test('truncated map bytes are refused, not read past', async (t) => {
  const io = new MemoryIO();
  const p = io.put('mem://cut.avro', await writeAvro(manifestEntrySchema([]), [entryRecord({ valueCounts: big }, 0)], HEADER));
  const read = await readManifest(io, manifestFile(p), { ...opts, statsFieldIds: new Set(), allMetrics: true });
  const raw = read.metrics!.raw(0, 1)!;
  const cut = read.metrics!.at(0, read.entries[0]!.file);
  // the same bytes less their last one, read as the cursor reads them
  const lookup = (cut.valueCounts as unknown as { reader: { find(buf: Buffer, id: number, start?: number, end?: number): unknown } }).reader;
  t.throws(() => lookup.find(raw, 300, 0, raw.length - 1), { code: 'INVALID_METADATA' });
  t.equal(lookup.find(raw, 300), 9007199254740993n, 'the whole bytes read');
});
