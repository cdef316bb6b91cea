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

/** The snapshots of a table in commit order, with what their writer recorded in the summary. */
async function snapshotsOf(table: string): Promise<Array<{ id: bigint; operation: string; added: number }>> {
  const [ns, name] = table.split('.') as [string, string];
  const { metadata } = await catalog.loadTable({ namespace: [ns], name });
  return [...metadata.snapshots]
    .sort((a, b) => (a.sequenceNumber < b.sequenceNumber ? -1 : 1))
    .map((s) => ({ id: s.snapshotId, operation: s.summary['operation'] ?? '', added: Number(s.summary['added-data-files'] ?? 0) }));
}

/** The demo returns table (position deletes) with plan options whose delete indexes are shared, as a server shares them, and counted. */
async function returnsWithSharedDeleteIndexes() {
  const loaded = await catalog.loadTable({ namespace: ['sales'], name: 'returns' });
  const shared = new Map<string, Promise<unknown>>();
  let builds = 0;
  const deleteIndexCache: NonNullable<Parameters<typeof planFiles>[2]['deleteIndexCache']> = (key, build) => {
    if (!shared.has(key)) shared.set(key, (builds++, build()));
    return shared.get(key) as ReturnType<typeof build>;
  };
  const options = { source: fileManifestSource(loaded.io, loaded.metadata), tableKey: loaded.metadata.tableUuid ?? loaded.metadata.location, deleteIndexCache };
  return { loaded, options, builds: () => builds };
}

t.test('an incremental append scan returns the files the appends in (start, end] added', async (t) => {
  const [s1, s2, s3] = await snapshotsOf('sales.orders');
  t.same([s1!.operation, s2!.operation, s3!.operation], ['append', 'append', 'overwrite'], 'the demo orders table: two appends, then an overwrite');
  const at1 = await plan('sales.orders', { 'snapshot-id': s1!.id });
  const at2 = await plan('sales.orders', { 'snapshot-id': s2!.id });
  const added = await plan('sales.orders', { 'start-snapshot-id': s1!.id, 'end-snapshot-id': s2!.id });
  t.equal(added.length, s2!.added, `(s1, s2] = the ${s2!.added} files s2's summary says it added`);
  t.same(added, at2.filter((f) => !at1.includes(f)), '(s1, s2] = the files live at s2 and not at s1');
  t.same(await plan('sales.orders', { 'end-snapshot-id': s2!.id }), at2, 'no start: every append up to s2');
  // Java BaseIncrementalAppendScan: only appends contribute, and each contributes every file it
  // added, even one the later overwrite removed (the overwrite deleted 2 files).
  const throughOverwrite = await plan('sales.orders', { 'start-snapshot-id': s1!.id, 'end-snapshot-id': s3!.id });
  t.same(throughOverwrite, added, 'the overwrite at s3 adds nothing to the range and takes nothing from it');
  t.same(await plan('sales.orders', { 'start-snapshot-id': s2!.id, 'end-snapshot-id': s2!.id }), [], 'an empty range is empty');
  try {
    await plan('sales.orders', { 'start-snapshot-id': s3!.id, 'end-snapshot-id': s1!.id });
    t.fail('a start that is not an ancestor of the end must fail');
  } catch (err) {
    t.ok(isIcefrontError(err, 'INVALID_SCAN'), 'start after end → 400 INVALID_SCAN');
    t.match((err as Error).message, `${s3!.id}`, 'the message names the start');
    t.match((err as Error).message, `${s1!.id}`, 'and the end');
  }
});

t.test('an incremental scan attaches no deletes, where a point-in-time scan of the same files does', async (t) => {
  const snapshots = await snapshotsOf('sales.returns');
  const end = snapshots[snapshots.length - 1]!;
  const appended = snapshots.filter((s) => s.operation === 'append').reduce((n, s) => n + s.added, 0);
  const loaded = await catalog.loadTable({ namespace: ['sales'], name: 'returns' });
  const source = fileManifestSource(loaded.io, loaded.metadata);
  // One delete-index cache for both plans, as a server shares it between requests: an incremental
  // plan must not leave an empty index where the point-in-time plan of its end snapshot looks.
  const shared = new Map<string, Promise<unknown>>();
  const deleteIndexCache: NonNullable<Parameters<typeof planFiles>[2]['deleteIndexCache']> = (key, build) => {
    if (!shared.has(key)) shared.set(key, build());
    return shared.get(key) as ReturnType<typeof build>;
  };
  const options = { source, tableKey: loaded.metadata.tableUuid ?? loaded.metadata.location, deleteIndexCache };
  const incremental = await planFiles(loaded.metadata, parseScanRequest({ 'end-snapshot-id': end.id }), options);
  const pointInTime = await planFiles(loaded.metadata, parseScanRequest({ 'snapshot-id': end.id }), options);
  t.equal(incremental.tasks.length, appended, `every file the appends added (${appended}, by their summaries), the overwritten one too`);
  t.same(incremental.tasks.filter((task) => task.deletes.length > 0).map((task) => task.data.file.filePath), [], 'no task of the incremental plan carries a delete');
  const withDeletes = pointInTime.tasks.filter((task) => task.deletes.length > 0).map((task) => task.data.file.filePath);
  t.ok(withDeletes.length > 0, `the point-in-time plan of the end snapshot attaches deletes to ${withDeletes.length} files`);
  const incrementalFiles = incremental.tasks.map((task) => task.data.file.filePath);
  t.ok(withDeletes.some((f) => incrementalFiles.includes(f)), 'to files the incremental plan also holds');
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
  const { loaded, options, builds } = await returnsWithSharedDeleteIndexes();
  const first = await planFiles(loaded.metadata, parseScanRequest({}), options);
  const second = await planFiles(loaded.metadata, parseScanRequest({}), options);
  t.equal(builds(), 1, 'the second plan took the index from the cache');
  t.ok(first.stats.deleteManifestsRead > 0, `the table has ${first.stats.deleteManifestsRead} delete manifests`);
  t.equal(first.stats.manifestsSkipped, 0, 'an unfiltered scan skips no manifest');
  t.same(second.stats, first.stats, 'read, skipped and indexed alike: none of its delete manifests counted as skipped');
});

t.test('a delete index is shared by the snapshots with the same delete manifests: an append after deletes builds none', async (t) => {
  const snapshots = await snapshotsOf('sales.returns');
  t.same(
    snapshots.map((s) => s.operation),
    ['append', 'delete', 'delete', 'append', 'overwrite'],
    'the demo returns table: an append, two deletes, an append, an overwrite',
  );
  const [, firstDelete, secondDelete, append] = snapshots;
  const { loaded, options, builds } = await returnsWithSharedDeleteIndexes();
  const at = async (snapshot: { id: bigint }) => {
    const request = parseScanRequest({ 'snapshot-id': snapshot.id });
    const shared = await planFiles(loaded.metadata, request, options);
    const own = await planFiles(loaded.metadata, request, { source: options.source });
    t.same(
      shared.tasks.map((x) => [x.data.file.filePath, x.deletes.map((d) => d.file.filePath).sort()]),
      own.tasks.map((x) => [x.data.file.filePath, x.deletes.map((d) => d.file.filePath).sort()]),
      `at ${snapshot.id}: the same files and deletes as a plan with an index of its own`,
    );
    return shared;
  };
  await at(firstDelete!);
  t.equal(builds(), 1);
  await at(secondDelete!);
  t.equal(builds(), 2, 'the second delete added a delete manifest: an index of its own');
  const appended = await at(append!);
  t.equal(builds(), 2, 'the append after it kept its delete manifests: its index is shared, not built again');
  t.ok(appended.tasks.some((x) => x.deletes.length > 0), 'and it does attach deletes');
});
