import path from 'node:path';
import t from 'tap';
import { createFilesystemCatalog } from '../../../src/catalogs/index.js';
import { loadConfigFile, type FilesystemCatalogConfig } from '../../../src/config/index.js';
import { isIcefrontError } from '../../../src/errors/index.js';
import { fileManifestSource, parseScanRequest, planByManifest, planFiles } from '../../../src/planner/index.js';

const REPO = path.resolve(import.meta.dirname, '../../..');
const catalog = createFilesystemCatalog(loadConfigFile(path.join(REPO, 'fixtures/test-config.yaml')).catalogs.get('demo') as FilesystemCatalogConfig);

async function plan(table: string, body: Record<string, unknown>): Promise<string[]> {
  const [ns, name] = table.split('.') as [string, string];
  const loaded = await catalog.loadTable({ namespace: [ns], name });
  const result = await planFiles(loaded.metadata, parseScanRequest(body), { source: fileManifestSource(loaded.io, loaded.metadata) });
  return result.tasks.map((task) => task.data.file.filePath);
}

async function snapshotIds(table: string): Promise<bigint[]> {
  const [ns, name] = table.split('.') as [string, string];
  const { metadata } = await catalog.loadTable({ namespace: [ns], name });
  return [...metadata.snapshots].sort((a, b) => (a.sequenceNumber < b.sequenceNumber ? -1 : 1)).map((s) => s.snapshotId);
}

t.test('an incremental append scan returns the files the appends in (start, end] added', async (t) => {
  const [s1, s2, s3] = await snapshotIds('sales.orders');
  const at1 = await plan('sales.orders', { 'snapshot-id': s1 });
  const at2 = await plan('sales.orders', { 'snapshot-id': s2 });
  const added = await plan('sales.orders', { 'start-snapshot-id': s1, 'end-snapshot-id': s2 });
  t.same(added, at2.filter((f) => !at1.includes(f)), '(s1, s2] = the files s2 appended');
  t.ok(added.length > 0);
  const fromStart = await plan('sales.orders', { 'end-snapshot-id': s2 });
  t.same(fromStart, at2, 'no start: every append up to s2');
  const throughOverwrite = await plan('sales.orders', { 'start-snapshot-id': s1, 'end-snapshot-id': s3 });
  t.ok(throughOverwrite.every((f) => added.includes(f)), 'the overwrite at s3 is not an append: it adds nothing to the range');
  t.same(await plan('sales.orders', { 'start-snapshot-id': s2, 'end-snapshot-id': s2 }), [], 'an empty range is empty');
  try {
    await plan('sales.orders', { 'start-snapshot-id': s3, 'end-snapshot-id': s1 });
    t.fail('a start that is not an ancestor of the end must fail');
  } catch (err) {
    t.ok(isIcefrontError(err, 'INVALID_SCAN'), 'start after end → 400 INVALID_SCAN');
  }
});

t.test('an incremental scan attaches no deletes (Java BaseIncrementalAppendScan)', async (t) => {
  const ids = await snapshotIds('sales.returns');
  const [ns, name] = ['sales', 'returns'];
  const loaded = await catalog.loadTable({ namespace: [ns], name });
  const result = await planFiles(
    loaded.metadata,
    parseScanRequest({ 'end-snapshot-id': ids[ids.length - 1] }),
    { source: fileManifestSource(loaded.io, loaded.metadata) },
  );
  t.ok(result.tasks.length > 0);
  t.ok(result.tasks.every((task) => task.deletes.length === 0));
});

t.test('case-sensitive false binds column names in any case; true refuses them', async (t) => {
  const filter = { type: 'eq', term: 'REGION', value: 'EU' };
  const insensitive = await plan('sales.orders', { filter, 'case-sensitive': false });
  t.same(insensitive, await plan('sales.orders', { filter: { ...filter, term: 'region' } }));
  try {
    await plan('sales.orders', { filter });
    t.fail('case-sensitive binding of REGION must fail');
  } catch (err) {
    t.ok(isIcefrontError(err, 'INVALID_FILTER'));
  }
});

t.test('min-rows-requested: manifests are read in order only until enough rows are covered', async (t) => {
  const loaded = await catalog.loadTable({ namespace: ['sales'], name: 'orders' });
  const source = fileManifestSource(loaded.io, loaded.metadata);
  const all = await planByManifest(loaded.metadata, parseScanRequest({}), { source });
  const some = await planByManifest(loaded.metadata, parseScanRequest({}), { source, concurrency: 1, minRows: 1n });
  t.ok(all.manifests.length > 1, `${all.manifests.length} data manifests`);
  t.equal(some.manifests.length, 1, 'one manifest read, the rest skipped');
  t.equal(some.stats.dataManifestsRead, 1);
  t.same(
    some.manifests[0]!.tasks.map((x) => x.data.file.filePath),
    all.manifests[0]!.tasks.map((x) => x.data.file.filePath),
    'a prefix of the full plan',
  );
});

t.test('a delete index shared from the cache counts its delete manifests as the plan that built it did', async (t) => {
  const loaded = await catalog.loadTable({ namespace: ['sales'], name: 'returns' });
  const source = fileManifestSource(loaded.io, loaded.metadata);
  const shared = new Map<string, Promise<unknown>>();
  let builds = 0;
  const deleteIndexCache: NonNullable<Parameters<typeof planFiles>[2]['deleteIndexCache']> = (key, build) => {
    if (!shared.has(key)) shared.set(key, (builds++, build()));
    return shared.get(key) as ReturnType<typeof build>;
  };
  const options = { source, tableKey: loaded.metadata.tableUuid ?? loaded.metadata.location, deleteIndexCache };
  const first = await planFiles(loaded.metadata, parseScanRequest({}), options);
  const second = await planFiles(loaded.metadata, parseScanRequest({}), options);
  t.equal(builds, 1, 'the second plan took the index from the cache');
  t.ok(first.stats.deleteManifestsRead > 0, `the table has ${first.stats.deleteManifestsRead} delete manifests`);
  t.equal(first.stats.manifestsSkipped, 0, 'an unfiltered scan skips no manifest');
  t.same(second.stats, first.stats, 'read, skipped and indexed alike: none of its delete manifests counted as skipped');
});
