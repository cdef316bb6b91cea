import t from 'tap';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createFilesystemCatalog } from '../../../src/catalogs/index.js';
import { createLocalFileIO } from '../../../src/storage/index.js';
import { isIcefrontError, type ErrorCode } from '../../../src/errors/index.js';
import { catalogConfig, gzip, metadataJson, tempWarehouse, writeFiles } from './warehouse-builder.js';

async function errorCode(p: Promise<unknown>): Promise<ErrorCode | string> {
  try {
    await p;
  } catch (err) {
    return isIcefrontError(err) ? err.code : `non-Icefront error: ${String(err)}`;
  }
  return 'no error';
}

/** The `tag` property of the loaded table: which metadata file was chosen. */
async function loadedTag(warehouse: string, name: string): Promise<string | undefined> {
  const table = await createFilesystemCatalog(catalogConfig(warehouse)).loadTable({ namespace: ['db'], name });
  return table.metadata.properties['tag'];
}

const meta = (tag: string, lastUpdatedMs = 1000, location = 's3://b/db/t') => metadataJson({ location, tag, lastUpdatedMs });

t.test('namespaces and tables are discovered from directories, nested, with dots, spaces and dashes', async (t) => {
  const { warehouse } = tempWarehouse(t);
  writeFiles(warehouse, {
    'db/orders/metadata/v1.metadata.json': meta('a'),
    'db/orders/data/part-0.parquet': 'x',
    'db/my.table v2-final/metadata/00000-abc.metadata.json': meta('b'),
    'db/sub.ns/deeper ns/t1/metadata/v1.metadata.json': meta('c'),
    'db/sub.ns/deeper ns/t1/data/nested/f.parquet': 'x',
    'empty-ns/.keep': '',
    '.hidden/t/metadata/v1.metadata.json': meta('d'),
    'db/.trash/metadata/v1.metadata.json': meta('e'),
    'db/not-a-table/metadata/readme.txt': 'no metadata json here',
    'top-level-file.txt': 'ignored',
  });
  const catalog = createFilesystemCatalog(catalogConfig(warehouse));
  t.equal(catalog.type, 'filesystem');
  t.equal(catalog.name, 'test');
  t.equal(catalog.planning, true);
  t.same(await catalog.listNamespaces([]), [['db'], ['empty-ns']], 'hidden dirs and files ignored');
  t.same(await catalog.listNamespaces(['db']), [['db', 'not-a-table'], ['db', 'sub.ns']], 'table dirs are not namespaces');
  t.same(await catalog.listNamespaces(['db', 'sub.ns']), [['db', 'sub.ns', 'deeper ns']]);
  t.same(await catalog.listNamespaces(['db', 'sub.ns', 'deeper ns']), [], 'a table directory is not descended into');
  t.same(await catalog.listTables(['db']), [
    { namespace: ['db'], name: 'my.table v2-final' },
    { namespace: ['db'], name: 'orders' },
  ]);
  t.same(await catalog.listTables(['db', 'sub.ns', 'deeper ns']), [{ namespace: ['db', 'sub.ns', 'deeper ns'], name: 't1' }]);
  t.same(await catalog.listTables(['empty-ns']), []);
  t.same(await catalog.loadNamespace(['db', 'sub.ns']), { location: pathToFileURL(path.join(warehouse, 'db', 'sub.ns')).href }, 'its folder as location, as HadoopCatalog');
  t.equal((await catalog.loadTable({ namespace: ['db', 'sub.ns', 'deeper ns'], name: 't1' })).metadata.properties['tag'], 'c');
  t.equal((await catalog.loadTable({ namespace: ['db'], name: 'my.table v2-final' })).metadata.properties['tag'], 'b');
});

t.test('missing namespaces answer NO_SUCH_NAMESPACE; a table under one, NO_SUCH_TABLE (REST spec loadTable 404)', async (t) => {
  const { warehouse } = tempWarehouse(t);
  writeFiles(warehouse, { 'db/t/metadata/v1.metadata.json': meta('a'), 'db/ns2/.keep': '' });
  const catalog = createFilesystemCatalog(catalogConfig(warehouse));
  t.equal(await errorCode(catalog.listNamespaces(['nope'])), 'NO_SUCH_NAMESPACE');
  t.equal(await errorCode(catalog.loadNamespace(['nope'])), 'NO_SUCH_NAMESPACE');
  t.equal(await errorCode(catalog.listTables(['db', 'nope'])), 'NO_SUCH_NAMESPACE');
  t.equal(await errorCode(catalog.loadNamespace(['db', 't'])), 'NO_SUCH_NAMESPACE', 'a table is not a namespace');
  t.equal(await errorCode(catalog.listTables(['db', 't'])), 'NO_SUCH_NAMESPACE');
  t.equal(await errorCode(catalog.loadTable({ namespace: ['db', 't'], name: 'metadata' })), 'NO_SUCH_TABLE', 'no walking into a table');
  t.equal(await errorCode(catalog.loadTable({ namespace: ['nope'], name: 't' })), 'NO_SUCH_TABLE', 'Spark reads `t.branch_x` as a branch only after NoSuchTable');
  t.equal(await errorCode(catalog.loadTable({ namespace: ['db'], name: 'missing' })), 'NO_SUCH_TABLE');
  t.equal(await errorCode(catalog.loadTable({ namespace: ['db'], name: 'ns2' })), 'NO_SUCH_TABLE', 'a namespace is not a table');
  t.equal(await errorCode(catalog.loadTable({ namespace: ['db'], name: 'T' })), 'NO_SUCH_TABLE', 'names match exactly');
  const gone = createFilesystemCatalog(catalogConfig(path.join(warehouse, 'does-not-exist')));
  t.equal(await errorCode(gone.listNamespaces([])), 'NO_SUCH_WAREHOUSE');
});

t.test('names that could escape the warehouse are rejected or simply not found', async (t) => {
  const { warehouse, outside } = tempWarehouse(t);
  writeFiles(warehouse, { 'db/t/metadata/v1.metadata.json': meta('a') });
  writeFiles(outside, { 'ext/metadata/v1.metadata.json': meta('outside') });
  const catalog = createFilesystemCatalog(catalogConfig(warehouse));
  for (const level of ['..', '.', '', 'a/b', '../outside', 'x\0y']) {
    t.equal(await errorCode(catalog.listTables([level])), 'INVALID_NAMESPACE', `namespace ${JSON.stringify(level)}`);
    t.equal(await errorCode(catalog.loadTable({ namespace: ['db'], name: level })), 'INVALID_IDENTIFIER', `table ${JSON.stringify(level)}`);
  }
  t.equal(await errorCode(catalog.loadTable({ namespace: ['..'], name: 'ext' })), 'INVALID_NAMESPACE');
  t.equal(await errorCode(catalog.loadNamespace([])), 'INVALID_NAMESPACE', 'an empty namespace has no properties');
  t.equal(await errorCode(catalog.loadTable({ namespace: ['db'], name: '.hidden' })), 'NO_SUCH_TABLE');
});

t.test('symlinks pointing out of the warehouse are neither listed nor loaded', async (t) => {
  const { warehouse, outside } = tempWarehouse(t);
  writeFiles(warehouse, { 'db/t/metadata/v1.metadata.json': meta('a') });
  writeFiles(outside, { 'ext/metadata/v1.metadata.json': meta('outside'), 'ns/t2/metadata/v1.metadata.json': meta('outside') });
  fs.symlinkSync(path.join(outside, 'ext'), path.join(warehouse, 'db', 'linked-table'));
  fs.symlinkSync(path.join(outside, 'ns'), path.join(warehouse, 'linked-ns'));
  fs.symlinkSync(path.join(warehouse, 'db', 't'), path.join(warehouse, 'db', 'alias'));
  fs.mkdirSync(path.join(warehouse, 'db2', 'meta-out'), { recursive: true });
  fs.symlinkSync(path.join(outside, 'ext', 'metadata'), path.join(warehouse, 'db2', 'meta-out', 'metadata'));
  const catalog = createFilesystemCatalog(catalogConfig(warehouse));
  t.same(await catalog.listNamespaces([]), [['db'], ['db2']]);
  t.same((await catalog.listTables(['db'])).map((x) => x.name), ['alias', 't'], 'a link inside the warehouse is followed');
  t.same(await catalog.listTables(['db2']), [], 'a metadata dir linked from outside does not make a table');
  t.equal(await errorCode(catalog.loadTable({ namespace: ['db'], name: 'linked-table' })), 'NO_SUCH_TABLE');
  t.equal(await errorCode(catalog.loadTable({ namespace: ['linked-ns'], name: 't2' })), 'NO_SUCH_TABLE');
  t.equal(await errorCode(catalog.loadTable({ namespace: ['db2'], name: 'meta-out' })), 'NO_SUCH_TABLE');
});

t.test('version-hint.text names where the search for the current metadata starts, as in Iceberg Java', async (t) => {
  const { warehouse } = tempWarehouse(t);
  const three = (hint: string, hintFile = 'version-hint.text') => ({
    'metadata/v1.metadata.json': meta('v1', 3000),
    'metadata/v2.metadata.json': meta('v2', 2000),
    'metadata/v3.metadata.json': meta('v3', 1000),
    [`metadata/${hintFile}`]: hint,
  });
  const tables: Record<string, Record<string, string>> = {
    plain: three('2'),
    newline: three('2\n'),
    spaces: three('  v2 \n'),
    txt: three('2', 'version-hint.txt'),
    empty: three(''),
    dangling: three('7'),
    stem: { ...three('00005-x'), 'metadata/00005-x.metadata.json': meta('stem', 0) },
    lagging: three('1'),
    gap: { 'metadata/v1.metadata.json': meta('v1', 1), 'metadata/v2.metadata.json': meta('v2', 2), 'metadata/v4.metadata.json': meta('v4', 4), 'metadata/version-hint.text': '2' },
  };
  for (const [name, files] of Object.entries(tables)) writeFiles(path.join(warehouse, 'db', name), files);
  t.equal(await loadedTag(warehouse, 'plain'), 'v3', 'a hint of 2 is followed to v3, which exists');
  t.equal(await loadedTag(warehouse, 'newline'), 'v3');
  t.equal(await loadedTag(warehouse, 'spaces'), 'v3');
  t.equal(await loadedTag(warehouse, 'txt'), 'v3', 'Impala writes version-hint.txt');
  t.equal(await loadedTag(warehouse, 'lagging'), 'v3', 'a hint two commits behind is followed to the last version');
  t.equal(await loadedTag(warehouse, 'gap'), 'v2', 'following stops where v3 is missing: the hint beats the higher v4');
  t.equal(await loadedTag(warehouse, 'empty'), 'v3', 'an empty hint falls back to the highest version');
  t.equal(await loadedTag(warehouse, 'dangling'), 'v3', 'a dangling hint falls back to the highest version');
  t.equal(await loadedTag(warehouse, 'stem'), 'stem', 'a hint may name a file stem');
});

t.test('one catalog follows a table as other writers move it: later versions, a dropped and recreated table, a version only listing finds', async (t) => {
  const { warehouse } = tempWarehouse(t);
  const dir = path.join(warehouse, 'db', 't');
  writeFiles(dir, { 'metadata/v1.metadata.json': meta('v1'), 'metadata/version-hint.text': '1' });
  const catalog = createFilesystemCatalog(catalogConfig(warehouse));
  const tag = async () => (await catalog.loadTable({ namespace: ['db'], name: 't' })).metadata.properties['tag'];
  t.equal(await tag(), 'v1');
  // HadoopTableOperations' writer: the next versions, the hint rewritten after them (here not yet)
  writeFiles(dir, { 'metadata/v2.metadata.json': meta('v2'), 'metadata/v3.metadata.json': meta('v3'), 'metadata/v4.metadata.json': meta('v4'), 'metadata/v5.metadata.json': meta('v5'), 'metadata/v6.metadata.json': meta('v6'), 'metadata/v7.gz.metadata.json': gzip(meta('v7')) });
  t.equal(await tag(), 'v7', 'every later version followed, a gzip one included');
  fs.rmSync(dir, { recursive: true });
  t.equal(await errorCode(tag()), 'NO_SUCH_TABLE', 'a dropped table is gone at once');
  writeFiles(dir, { 'metadata/v1.metadata.json': meta('new v1'), 'metadata/version-hint.text': '1' });
  t.equal(await tag(), 'new v1', 'recreated: found from its own hint, not from the version the old table had reached');
  fs.rmSync(path.join(dir, 'metadata', 'version-hint.text'));
  writeFiles(dir, { 'metadata/00002-x.metadata.json': meta('sequenced v2') });
  t.equal(await tag(), 'new v1', 'v2 is not a Hadoop file: the v1 found last still stands, as HadoopTableOperations would have it');
  fs.rmSync(path.join(dir, 'metadata', 'v1.metadata.json'));
  t.equal(await tag(), 'sequenced v2', 'with no v<N> file and no hint, the listing decides');
});

t.test('without a hint the highest version number wins; ties go to last-updated-ms', async (t) => {
  const { warehouse } = tempWarehouse(t);
  writeFiles(path.join(warehouse, 'db'), {
    'numbers/metadata/v9.metadata.json': meta('v9', 9000),
    'numbers/metadata/v10.metadata.json': meta('v10', 1000),
    'sequenced/metadata/00009-aaa.metadata.json': meta('9', 9000),
    'sequenced/metadata/00010-bbb.metadata.json': meta('10', 1000),
    'sequenced/metadata/vfinal.metadata.json': meta('final', 99999),
    'tie/metadata/v3.metadata.json': meta('plain', 5000),
    'tie/metadata/v3.gz.metadata.json': gzip(meta('gz', 6000)) as unknown as string,
    'bigquery/metadata/v0.metadata.json': meta('v0', 1),
    'bigquery/metadata/v1749025517.metadata.json': meta('epoch', 2),
    'gzip/metadata/v1.metadata.json': meta('v1', 1),
    'gzip/metadata/v2.gz.metadata.json': gzip(meta('gzipped', 2)) as unknown as string,
    'unnumbered/metadata/first.metadata.json': meta('first', 10),
    'unnumbered/metadata/second.metadata.json': meta('second', 20),
  });
  t.equal(await loadedTag(warehouse, 'numbers'), 'v10', 'v10 beats v9 although v9 is newer');
  t.equal(await loadedTag(warehouse, 'sequenced'), '10', 'unnumbered files rank below numbered ones');
  t.equal(await loadedTag(warehouse, 'tie'), 'gz', 'same version: newest last-updated-ms');
  t.equal(await loadedTag(warehouse, 'bigquery'), 'epoch');
  t.equal(await loadedTag(warehouse, 'gzip'), 'gzipped', 'gzip metadata is gunzipped');
  t.equal(await loadedTag(warehouse, 'unnumbered'), 'second');
});

t.test('a loaded table reports its metadata under its recorded location and reads through its own FileIO', async (t) => {
  const { warehouse } = tempWarehouse(t);
  writeFiles(path.join(warehouse, 'db', 't'), {
    'metadata/v1.metadata.json': metadataJson({ location: 's3a://bucket/wh/db/t/', withSnapshot: true }),
    'metadata/snap-1.avro': 'manifest list bytes',
  });
  const catalog = createFilesystemCatalog(catalogConfig(warehouse));
  const table = await catalog.loadTable({ namespace: ['db'], name: 't' });
  t.same(table.identifier, { namespace: ['db'], name: 't' });
  t.equal(table.metadataLocation, 's3a://bucket/wh/db/t/metadata/v1.metadata.json');
  t.same(table.config, {});
  t.equal(await table.io.exists(table.metadataLocation), true, 'the reported location resolves back');
  t.equal((await table.io.readFile('s3://bucket/wh/db/t/metadata/snap-1.avro')).toString(), 'manifest list bytes');
  t.equal(await errorCode(table.io.readFile('s3://bucket/wh/db/other/metadata/snap-2.avro')), 'PATH_OUTSIDE_WAREHOUSE', 'nothing maps it and no suffix of it exists in the table folder');
});

t.test('a table recorded with an empty location reports a file:// metadata location', async (t) => {
  const { warehouse } = tempWarehouse(t);
  writeFiles(path.join(warehouse, 'db', 't'), { 'metadata/v1.metadata.json': metadataJson({ location: '' }) });
  const catalog = createFilesystemCatalog(catalogConfig(warehouse));
  let table;
  try {
    table = await catalog.loadTable({ namespace: ['db'], name: 't' });
  } catch (err) {
    t.ok(isIcefrontError(err, 'INVALID_METADATA'), 'or the parser refuses an empty location');
    return;
  }
  t.ok(table.metadataLocation.startsWith('file://'));
  t.equal(fileURLToPath(table.metadataLocation), path.join(warehouse, 'db/t/metadata/v1.metadata.json'));
});

t.test('broken metadata is INVALID_METADATA naming the file', async (t) => {
  const { warehouse } = tempWarehouse(t);
  writeFiles(path.join(warehouse, 'db'), {
    'json/metadata/v1.metadata.json': '{ "format-version": 2, ',
    'fields/metadata/v1.metadata.json': '{"format-version": 2}',
    'gz/metadata/v1.gz.metadata.json': Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x01]) as unknown as string,
    'utf/metadata/v1.metadata.json': Buffer.from([0x7b, 0xff, 0xfe, 0x7d]) as unknown as string,
  });
  const catalog = createFilesystemCatalog(catalogConfig(warehouse));
  for (const name of ['json', 'fields', 'gz', 'utf']) {
    try {
      await catalog.loadTable({ namespace: ['db'], name });
      t.fail(`${name}: expected INVALID_METADATA`);
    } catch (err) {
      t.ok(isIcefrontError(err, 'INVALID_METADATA'), `${name}: INVALID_METADATA`);
      t.match((err as Error).message, /metadata\/v1\.(gz\.)?metadata\.json/, `${name}: names the file`);
      t.notOk((err as Error).message.includes(warehouse), `${name}: no local path in the message`);
    }
  }
});

t.test('a rewritten metadata file is re-read, not served from the cache', async (t) => {
  const { warehouse } = tempWarehouse(t);
  const file = path.join(warehouse, 'db/t/metadata/v1.metadata.json');
  writeFiles(warehouse, { 'db/t/metadata/v1.metadata.json': meta('before') });
  const catalog = createFilesystemCatalog(catalogConfig(warehouse));
  const first = await catalog.loadTable({ namespace: ['db'], name: 't' });
  t.equal(first.metadata.properties['tag'], 'before');
  t.equal((await catalog.loadTable({ namespace: ['db'], name: 't' })).metadata, first.metadata, 'unchanged file: cached');
  fs.writeFileSync(file, meta('after, longer'));
  fs.utimesSync(file, new Date(), new Date(Date.now() + 5000));
  t.equal((await catalog.loadTable({ namespace: ['db'], name: 't' })).metadata.properties['tag'], 'after, longer');
});

/** The catalog over `warehouse` with refresh-ms `refreshMs`, counting every directory listing and file read. */
function countingCatalog(warehouse: string, refreshMs: number) {
  const io = createLocalFileIO({ roots: [warehouse], remaps: [] });
  const counts = { reads: 0 };
  const counted = new Proxy(io, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (prop !== 'forTable') counts.reads++;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { catalog: createFilesystemCatalog({ ...catalogConfig(warehouse), refreshMs }, counted), counts };
}

t.test('refresh-ms: loads within it reuse the resolution without touching the disk; concurrent loads share one', async (t) => {
  const { warehouse } = tempWarehouse(t);
  writeFiles(warehouse, { 'db/t/metadata/v1.metadata.json': meta('one') });
  const { catalog, counts } = countingCatalog(warehouse, 60_000);
  const loads = await Promise.all(Array.from({ length: 10 }, () => catalog.loadTable({ namespace: ['db'], name: 't' })));
  const once = counts.reads;
  t.ok(once > 0, 'the first resolution read the folder');
  t.ok(loads.every((l) => l === loads[0]), 'ten concurrent loads got one resolution');
  await catalog.loadTable({ namespace: ['db'], name: 't' });
  t.equal(counts.reads, once, 'a warm load reads nothing');
});

t.test('refresh-ms: a commit (a new metadata file) is seen by the first load after the interval', async (t) => {
  const { warehouse } = tempWarehouse(t);
  writeFiles(warehouse, { 'db/t/metadata/v1.metadata.json': meta('one') });
  const { catalog } = countingCatalog(warehouse, 50);
  t.equal((await catalog.loadTable({ namespace: ['db'], name: 't' })).metadata.properties['tag'], 'one');
  writeFiles(warehouse, { 'db/t/metadata/v2.metadata.json': meta('two') });
  await new Promise((r) => setTimeout(r, 120));
  t.equal((await catalog.loadTable({ namespace: ['db'], name: 't' })).metadata.properties['tag'], 'two');
});

t.test('refresh-ms: what a load would answer is at hand without waiting only while the resolution is reused', async (t) => {
  const { warehouse } = tempWarehouse(t);
  writeFiles(warehouse, { 'db/t/metadata/v1.metadata.json': meta('one') });
  const { catalog, counts } = countingCatalog(warehouse, 80);
  const id = { namespace: ['db'], name: 't' };
  t.equal(catalog.loadedTable?.(id), undefined, 'nothing before a first load');
  const pending = catalog.loadTable(id);
  t.equal(catalog.loadedTable?.(id), undefined, 'nothing while it runs');
  const first = await pending;
  const reads = counts.reads;
  t.equal(catalog.loadedTable?.(id), first, 'the same table a load answers');
  t.equal(counts.reads, reads, 'read nothing');
  t.equal(catalog.loadedTable?.({ namespace: ['db'], name: 'other' }), undefined, 'another table is not it');
  t.equal(catalog.loadedTable?.({ namespace: ['db\0t'], name: '' }), undefined, 'a name loads refuse is never held');
  writeFiles(warehouse, { 'db/t/metadata/v2.metadata.json': meta('two') });
  await new Promise((r) => setTimeout(r, 150));
  t.equal(catalog.loadedTable?.(id), undefined, 'past refresh-ms: to be loaded again');
  t.equal((await catalog.loadTable(id)).metadata.properties['tag'], 'two');
  t.equal(catalog.loadedTable?.(id)?.metadata.properties['tag'], 'two', 'then the new commit');
  const never = countingCatalog(warehouse, 0).catalog;
  await never.loadTable(id);
  t.equal(never.loadedTable?.(id), undefined, 'refresh-ms 0: every load resolves again');
});

t.test('refresh-ms: a failed load is never reused, so a table that appears is found at once', async (t) => {
  const { warehouse } = tempWarehouse(t);
  writeFiles(warehouse, { 'db/other/metadata/v1.metadata.json': meta('x') });
  const { catalog } = countingCatalog(warehouse, 60_000);
  t.equal(await errorCode(catalog.loadTable({ namespace: ['db'], name: 't' })), 'NO_SUCH_TABLE');
  writeFiles(warehouse, { 'db/t/metadata/v1.metadata.json': meta('new') });
  t.equal((await catalog.loadTable({ namespace: ['db'], name: 't' })).metadata.properties['tag'], 'new');
});

t.test('a level sent with a dot where levels were meant is told how levels are separated', async (t) => {
  const { warehouse } = tempWarehouse(t);
  writeFiles(warehouse, { 'db/sub/t/metadata/v1.metadata.json': meta('a'), 'db/has.dot/u/metadata/v1.metadata.json': meta('b') });
  const catalog = createFilesystemCatalog(catalogConfig(warehouse));
  const message = async (p: Promise<unknown>) => p.then(() => 'no error', (err: Error) => (isIcefrontError(err, 'NO_SUCH_NAMESPACE') ? err.message : `other: ${String(err)}`));
  const tableMessage = async (p: Promise<unknown>) => p.then(() => 'no error', (err: Error) => (isIcefrontError(err, 'NO_SUCH_TABLE') ? err.message : `other: ${String(err)}`));
  const hinted = await tableMessage(catalog.loadTable({ namespace: ['db.sub'], name: 't' }));
  t.match(hinted, /^Table does not exist: db\.sub\.t\. Namespace does not exist: db\.sub\. /, 'NO_SUCH_TABLE (spec loadTable), naming what was asked');
  t.match(hinted, /"db", "sub" exists/);
  t.match(hinted, /%1F/);
  t.match(hinted, /db%1Fsub/, 'with the path to send');
  // no hint when the split does not exist either, or when the dotted level is real
  t.equal(await message(catalog.listTables(['db.nope'])), 'Namespace does not exist: db.nope');
  t.same(await catalog.listTables(['db', 'has.dot']), [{ namespace: ['db', 'has.dot'], name: 'u' }]);
  t.equal(await message(catalog.listTables(['db', 'has.dot', 'x'])), 'Namespace does not exist: db.has.dot.x');
});
