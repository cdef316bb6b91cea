/**
 * The caching manifest source over the demo table's real manifests and a real byte-bounded cache:
 * which whole-manifest reads it keeps, pooled with every column's stats or as read, by what they
 * would take.
 */
import t from 'tap';
import { createComputeCache } from '../../../src/cache/index.js';
import { currentSchema, currentSnapshot, type ManifestFile } from '../../../src/iceberg/index.js';
import { fileManifestSource, type ManifestSlice, type ManifestSource } from '../../../src/planner/index.js';
import { cachingManifestSource, estimatedSliceBytes, manifestListBytes, sliceBytes } from '../../../src/service/engine/caching-source.js';
import { loadDemoTable } from '../../helpers/rows/index.js';

/** The demo table's data manifests read through a caching source of `maxBytes` (one worker of `shares`, owning every `shares`-th data manifest). */
async function readThrough(maxBytes: number, statsFieldIds: ReadonlySet<number>, options: { shares?: number; again?: ReadonlySet<number>; largest?: boolean } = {}) {
  const table = await loadDemoTable('sales.orders');
  const { metadata } = table;
  const schema = currentSchema(metadata);
  const specsById = new Map(metadata.partitionSpecs.map((s) => [s.specId, s] as const));
  const shares = options.shares ?? 1;
  const base = fileManifestSource(table.io, metadata);
  const data = (await base.manifests(currentSnapshot(metadata)!)).filter((m) => m.content === 0);
  const files = (m: ManifestFile) => (m.addedFilesCount ?? 0) + (m.existingFilesCount ?? 0) + (m.deletedFilesCount ?? 0);
  // every `shares`-th manifest, or (`largest`) all but the smallest: an uneven share, as a hash of the path may give
  const smallest = [...data].sort((a, b) => files(a) - files(b))[0];
  const owned = new Set(data.flatMap((m, i) => ((options.largest ? m !== smallest : i % shares === 0) ? [m.path] : [])));
  let reads = 0;
  const counted: ManifestSource = { manifests: (s) => base.manifests(s), read: (m, r) => (reads++, base.read(m, r)) };
  const slices = createComputeCache<ManifestSlice>({ name: 'manifests', maxBytes, sizeOf: sliceBytes });
  const lists = createComputeCache<readonly ManifestFile[]>({ name: 'manifest-lists', maxBytes: 1 << 20, sizeOf: manifestListBytes });
  const source = cachingManifestSource(counted, { slices, lists, ...(shares > 1 && { owns: (m: ManifestFile) => owned.has(m.path) }) }, 'sales.orders');
  const manifests = (await source.manifests(currentSnapshot(metadata)!)).filter((m) => owned.has(m.path));
  const read = await Promise.all(manifests.map((m) => source.read(m, { specsById, schema, statsFieldIds })));
  const first = reads;
  // a later scan with other stats columns (a new filter): what it reads again
  if (options.again) for (const m of manifests) await source.read(m, { specsById, schema, statsFieldIds: options.again });
  // what the same manifests take read bare, uncached
  let bare = 0;
  for (const m of manifests) bare += sliceBytes(await base.read(m, { specsById, schema, statsFieldIds: new Set() }));
  const entries = read.reduce((n, x) => n + x.entries.length, 0);
  const estimate = (pooled: boolean) => estimatedSliceBytes(entries, { specsById, schema, statsFieldIds: new Set() }, pooled);
  return { held: slices.bytes, pooled: read.filter((x) => x.metrics !== undefined).length, manifests: manifests.length, reads: first, readsAgain: reads - first, bare, estimate };
}

t.test("a snapshot's data manifests are kept with every column's stats pooled when they fit so, and a new filter column reads nothing again", async (t) => {
  const table = await loadDemoTable('sales.orders');
  const schema = currentSchema(table.metadata);
  const one = new Set([schema.fields[0]!.id]);
  const large = await readThrough(1 << 22, new Set(), { again: one });
  t.ok(large.manifests >= 2, `${large.manifests} data manifests`);
  t.equal(large.pooled, large.manifests, 'every slice holds its stats pooled');
  t.equal(large.readsAgain, 0, 'a scan filtering on a column no scan asked about reads no manifest again');
  t.ok(large.held > large.bare, `pooled: ${large.held} bytes held, against ${large.bare} bare`);
  // a cache the pooled slices would not fit (by the estimate it judges a snapshot with), the bare ones would
  const between = Math.max(large.bare, large.estimate(false));
  t.ok(between < large.estimate(true), `${between} bytes hold the bare slices, not the pooled ones (${large.estimate(true)} estimated)`);
  const bare = await readThrough(between, new Set(), { again: one });
  t.equal(bare.pooled, 0, `a ${between}-byte cache does not pool`);
  t.equal(bare.held, bare.bare, `it keeps the manifests read without stats (${bare.held} bytes)`);
  t.equal(bare.readsAgain, bare.manifests, 'so a filter on a column reads each manifest again');
  const every = await readThrough(between, new Set(schema.fields.map((f) => f.id)));
  t.equal(every.held, 0, `a ${between}-byte cache stores none of them read with every column's stats (they would only churn it)`);
  const single = await readThrough(between, one);
  t.equal(single.held, 0, `nor read with one column's stats (the metric maps hold every column's until read)`);
});

t.test("a planning worker's cache is judged against its share of the snapshot: kept when the share fits, though the whole would not", async (t) => {
  const whole = await readThrough(1 << 22, new Set());
  // a cache below the whole snapshot's bare slices (by the estimate it is judged with), above half of them
  const small = Math.ceil(whole.estimate(false) * 0.9);
  t.equal((await readThrough(small, new Set())).held, 0, `a ${small}-byte cache, alone, stores none of a snapshot that would not fit it`);
  const half = await readThrough(small, new Set(), { shares: 2 });
  t.ok(half.held > 0, `the same cache as one of two workers' keeps its share (${half.held} bytes)`);
  // a worker holding the larger part of an uneven split: its own share decides, not the average
  const uneven = Math.ceil((whole.estimate(false) / 2) * 1.1);
  const larger = await readThrough(uneven, new Set(), { shares: 2, largest: true });
  t.ok(larger.estimate(false) > uneven, `the larger share (${larger.manifests} of the manifests) takes ${larger.estimate(false)} bytes by the estimate, more than ${uneven}`);
  t.equal(larger.held, 0, `a ${uneven}-byte cache, above half the snapshot, stores none of a larger share that would not fit (it would only churn)`);
});
