/**
 * The caching manifest source over the demo table's real manifests and a real byte-bounded cache:
 * which whole-manifest reads it keeps, by what they would take with the column stats they keep.
 */
import t from 'tap';
import { createComputeCache } from '../../../src/cache/index.js';
import { currentSchema, currentSnapshot, type ManifestFile } from '../../../src/iceberg/index.js';
import { fileManifestSource, type ManifestSlice } from '../../../src/planner/index.js';
import { cachingManifestSource, manifestListBytes, sliceBytes } from '../../../src/service/engine/caching-source.js';
import { loadDemoTable } from '../../helpers/rows/index.js';

t.test('a snapshot whose manifests would not fit with the stats a read keeps is read without storing them; without stats it is kept', async (t) => {
  const table = await loadDemoTable('sales.orders');
  const { metadata } = table;
  const schema = currentSchema(metadata);
  const specsById = new Map(metadata.partitionSpecs.map((s) => [s.specId, s] as const));
  const every = new Set(schema.fields.map((f) => f.id));
  const stored = async (statsFieldIds: ReadonlySet<number>, maxBytes: number) => {
    const slices = createComputeCache<ManifestSlice>({ name: 'manifests', maxBytes, sizeOf: sliceBytes });
    const lists = createComputeCache<readonly ManifestFile[]>({ name: 'manifest-lists', maxBytes: 1 << 20, sizeOf: manifestListBytes });
    const source = cachingManifestSource(fileManifestSource(table.io, metadata), { slices, lists }, 'sales.orders');
    const manifests = (await source.manifests(currentSnapshot(metadata)!)).filter((m) => m.content === 0);
    let bytes = 0;
    for (const m of manifests) bytes += sliceBytes(await source.read(m, { specsById, schema, statsFieldIds }));
    return { held: slices.bytes, bytes };
  };
  // what the data manifests take cached, measured with a cache large enough for anything
  const bare = await stored(new Set(), 1 << 20);
  const full = await stored(every, 1 << 20);
  t.equal(bare.held, bare.bytes, `without stats: all ${bare.bytes} bytes held in a large cache`);
  t.ok(full.bytes > 2 * bare.bytes, `every column's stats: ${full.bytes} bytes, more than twice ${bare.bytes}`);
  // a cache between the two holds the plan without stats, and stores nothing of the one with them
  const between = Math.round((bare.bytes + full.bytes) / 2);
  t.equal((await stored(new Set(), between)).held, bare.bytes, `a ${between}-byte cache keeps the manifests read without stats`);
  t.equal((await stored(every, between)).held, 0, `a ${between}-byte cache stores none of them read with every column's stats (they would only churn it)`);
  // one filter column's stats hold what every column's do until the maps are read (lazy)
  const one = new Set([schema.fields[0]!.id]);
  const single = await stored(one, 1 << 20);
  t.ok(single.bytes > (bare.bytes + full.bytes) / 2, `one column's stats, as read: ${single.bytes} bytes, nearer every column's than none`);
  t.equal((await stored(one, between)).held, 0, `a ${between}-byte cache stores none of them read with one column's stats either`);
});

t.test("a planning worker's cache is judged against its share of the snapshot: kept when the share fits, though the whole would not", async (t) => {
  const table = await loadDemoTable('sales.orders');
  const { metadata } = table;
  const schema = currentSchema(metadata);
  const specsById = new Map(metadata.partitionSpecs.map((s) => [s.specId, s] as const));
  const held = async (maxBytes: number, shares: number) => {
    const slices = createComputeCache<ManifestSlice>({ name: 'manifests', maxBytes, sizeOf: sliceBytes });
    const lists = createComputeCache<readonly ManifestFile[]>({ name: 'manifest-lists', maxBytes: 1 << 20, sizeOf: manifestListBytes });
    const source = cachingManifestSource(fileManifestSource(table.io, metadata), { slices, lists, shares }, 'sales.orders');
    const manifests = (await source.manifests(currentSnapshot(metadata)!)).filter((m) => m.content === 0);
    // one worker's share: every other manifest
    for (const m of manifests.filter((_, i) => i % shares === 0)) await source.read(m, { specsById, schema, statsFieldIds: new Set() });
    return { held: slices.bytes, manifests: manifests.length };
  };
  const whole = await held(1 << 20, 1);
  t.ok(whole.manifests >= 2 && whole.held > 0, `${whole.manifests} data manifests, ${whole.held} bytes held in a large cache`);
  t.ok((await held(1 << 20, 2)).held > 0, 'a half share is held in a large cache too');
  // a cache below the whole snapshot's estimated slices, above half of them
  const small = Math.ceil(whole.held * 0.7);
  t.equal((await held(small, 1)).held, 0, `a ${small}-byte cache, alone, stores none of a snapshot that would not fit it`);
  t.ok((await held(small, 2)).held > 0, `the same cache as one of two workers' keeps its share`);
});
