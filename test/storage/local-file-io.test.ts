import t from 'tap';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isIcefrontError, type ErrorCode } from '../../src/errors/index.js';
import { createLocalFileIO } from '../../src/storage/index.js';

/** A fresh temp dir holding `warehouse/` (the root) and `outside/` (never readable). */
function sandbox(t: { teardown(fn: () => void): void }): { base: string; wh: string; outside: string } {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'icefront-io-')));
  t.teardown(() => fs.rmSync(base, { recursive: true, force: true }));
  const wh = path.join(base, 'warehouse');
  const outside = path.join(base, 'outside');
  fs.mkdirSync(path.join(wh, 'db', 't', 'data'), { recursive: true });
  fs.mkdirSync(outside);
  fs.writeFileSync(path.join(wh, 'db', 't', 'data', 'f.bin'), Buffer.from('0123456789'));
  fs.writeFileSync(path.join(outside, 'secret.txt'), 'top secret');
  return { base, wh, outside };
}

async function errorCode(p: Promise<unknown>): Promise<ErrorCode | string> {
  try {
    await p;
  } catch (err) {
    return isIcefrontError(err) ? err.code : `non-Icefront error: ${String(err)}`;
  }
  return 'no error';
}

t.test('a file inside the warehouse reads through every local spelling', async (t) => {
  const { wh } = sandbox(t);
  const io = createLocalFileIO({ roots: [wh] });
  const file = path.join(wh, 'db/t/data/f.bin');
  for (const loc of [file, `file:${file}`, `file://${file}`, `file://localhost${file}`]) {
    t.equal((await io.readFile(loc)).toString(), '0123456789', loc);
  }
  t.same(await io.stat(file).then((s) => s.size), 10);
  t.equal(await io.exists(`file://${file}`), true);
  t.equal(await io.exists(path.join(wh, 'db/t/data/nope.bin')), false);
  t.equal(await io.exists(path.join(wh, 'db/t/data')), false, 'a directory is not a file');
});

t.test('range reads return exactly the requested bytes, fewer only at end of file', async (t) => {
  const { wh } = sandbox(t);
  const io = createLocalFileIO({ roots: [wh] });
  const file = path.join(wh, 'db/t/data/f.bin');
  t.equal((await io.readRange(file, 2, 3)).toString(), '234');
  t.equal((await io.readRange(file, 8, 5)).toString(), '89', 'short at end of file');
  t.equal((await io.readRange(file, 20, 5)).length, 0, 'past the end is empty');
  t.equal((await io.readRange(file, 0, 0)).length, 0);
  t.equal(await errorCode(io.readRange(file, -1, 2)), 'STORAGE_FAILURE');
});

t.test('a range of a file larger than any buffer is read without reading the whole file', async (t) => {
  const { wh } = sandbox(t);
  const io = createLocalFileIO({ roots: [wh] });
  const big = path.join(wh, 'db/t/data/big.bin');
  const size = 3 * 1024 ** 3; // sparse: occupies no disk, but a whole-file read cannot hold it
  fs.writeFileSync(big, '');
  fs.truncateSync(big, size);
  const fd = fs.openSync(big, 'r+');
  fs.writeSync(fd, Buffer.from('tail'), 0, 4, size - 4);
  fs.closeSync(fd);
  t.equal((await io.readRange(big, size - 4, 100)).toString(), 'tail');
  t.equal((await io.stat(big)).size, size);
});

t.test('missing files are FILE_NOT_FOUND and directories cannot be read as files', async (t) => {
  const { wh } = sandbox(t);
  const io = createLocalFileIO({ roots: [wh] });
  t.equal(await errorCode(io.readFile(path.join(wh, 'db/t/data/missing.bin'))), 'FILE_NOT_FOUND');
  t.equal(await errorCode(io.stat(path.join(wh, 'nope/x'))), 'FILE_NOT_FOUND');
  t.equal(await errorCode(io.readFile(path.join(wh, 'db/t/data'))), 'STORAGE_FAILURE');
  t.equal(await errorCode(io.list(path.join(wh, 'db/t/data/f.bin'))), 'FILE_NOT_FOUND', 'a file is not a directory');
});

t.test('errors name the location as recorded, never the local path behind it', async (t) => {
  const { wh, base } = sandbox(t);
  const io = createLocalFileIO({ roots: [wh], remaps: [{ prefix: 's3://bucket/wh', dir: wh }] });
  for (const loc of ['s3://bucket/wh/db/t/data/missing.bin', 's3://bucket/wh/db/t/data']) {
    try {
      await io.readFile(loc);
      t.fail('expected an error');
    } catch (err) {
      t.ok(isIcefrontError(err) && err.message.includes(loc), 'names the location');
      t.notOk((err as Error).message.includes(base), 'does not leak the local path');
    }
  }
});

t.test('reads outside the warehouse roots are refused', async (t) => {
  const { wh, outside } = sandbox(t);
  const io = createLocalFileIO({ roots: [wh], remaps: [{ prefix: 's3://b/wh', dir: wh }] });
  const tableIO = io.forTable('s3://b/wh/db/t', path.join(wh, 'db/t'));
  const secret = path.join(outside, 'secret.txt');
  const attempts = [
    secret,
    `file://${secret}`,
    path.join(wh, '../outside/secret.txt'),
    `${wh}/db/../../outside/secret.txt`,
    's3://b/wh/../outside/secret.txt',
    's3://b/wh/db/t/../../../outside/secret.txt',
    's3://b/wh/db/t/../../../../../../../etc/passwd',
    's3://other-bucket/anything',
    'relative/path/nobody/maps.avro',
    'gs://b/wh/db/t/data/nope.bin',
    's3://other-bucket/db/t/data/../../../../outside/secret.txt',
    'bad\0name',
    '',
  ];
  for (const loc of attempts) {
    t.equal(await errorCode(tableIO.readFile(loc)), 'PATH_OUTSIDE_WAREHOUSE', JSON.stringify(loc));
    t.equal(await errorCode(tableIO.exists(loc)), 'PATH_OUTSIDE_WAREHOUSE', `exists ${JSON.stringify(loc)}`);
  }
  t.equal(await errorCode(io.readRange(secret, 0, 3)), 'PATH_OUTSIDE_WAREHOUSE');
  t.equal(await errorCode(io.stat(path.join(outside, 'missing'))), 'PATH_OUTSIDE_WAREHOUSE', 'refused before existence is checked');
});

t.test("a path that maps nowhere resolves by its longest suffix below the table's folder, never outside it", async (t) => {
  const { wh, outside } = sandbox(t);
  fs.mkdirSync(path.join(wh, 'db/t/metadata'));
  fs.writeFileSync(path.join(wh, 'db/t/metadata/snap-1.avro'), 'list');
  fs.mkdirSync(path.join(wh, 'db/t/data/p=1'));
  fs.writeFileSync(path.join(wh, 'db/t/data/p=1/f.bin'), 'p1');
  fs.writeFileSync(path.join(wh, 'db/t/f.bin'), 'root');
  const io = createLocalFileIO({ roots: [wh] });
  const tableIO = io.forTable('s3://b/wh/db/t', path.join(wh, 'db/t'));
  // DuckDB's fixtures: paths relative to the writer's working directory.
  t.equal((await tableIO.readFile('data/persistent/t/metadata/snap-1.avro')).toString(), 'list', 'relative to a working directory');
  // large_partitioned_table: `location` has a typo, the files do not.
  const typo = io.forTable('data/persisten/t', path.join(wh, 'db/t'));
  t.equal((await typo.readFile('data/persistent/t/data/p=1/f.bin')).toString(), 'p1', 'the longest suffix wins over the bare file name');
  // big_query_error: another scheme; manifest_files: location ending in /metadata.
  t.equal((await tableIO.readFile('gs://b/wh/db/t/data/f.bin')).toString(), '0123456789');
  const inMetadata = io.forTable('s3://b/wh/db/t/metadata', path.join(wh, 'db/t'));
  t.equal((await inMetadata.readFile('s3://b/wh/db/t/metadata/snap-1.avro')).toString(), 'list', 'a location ending in /metadata');
  t.equal((await tableIO.readFile('s3://b/wh/db/t/data/f.bin')).toString(), '0123456789', 'a direct mapping is read first');
  t.equal(await tableIO.exists('s3://b/wh/db/t/data/p=2/f.bin'), false, 'a suffix keeps the folder the file was recorded in: <table>/f.bin is another file');
  t.equal(await errorCode(tableIO.readFile('s3://b/wh/db/t/data/p=2/g.bin')), 'FILE_NOT_FOUND', '…as FILE_NOT_FOUND');
  t.equal(await errorCode(tableIO.readFile('gs://elsewhere/x/y/nope.bin')), 'PATH_OUTSIDE_WAREHOUSE', 'nothing maps it and no suffix exists');
  t.equal(await errorCode(io.readFile('data/persistent/t/metadata/snap-1.avro')), 'PATH_OUTSIDE_WAREHOUSE', 'the warehouse FileIO has no table folder to search');
  fs.symlinkSync(outside, path.join(wh, 'db/t/out'));
  t.equal(await errorCode(tableIO.readFile('gs://x/out/secret.txt')), 'PATH_OUTSIDE_WAREHOUSE', 'a suffix through a symlink out of the warehouse is refused');
});

t.test('symlinks that leave the warehouse are refused; symlinks inside it are followed', async (t) => {
  const { wh, outside } = sandbox(t);
  fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(wh, 'db/t/data/link-out.bin'));
  fs.symlinkSync(outside, path.join(wh, 'db/t/dir-out'));
  fs.symlinkSync(path.join(wh, 'db/t/data/f.bin'), path.join(wh, 'db/t/data/link-in.bin'));
  const io = createLocalFileIO({ roots: [wh], remaps: [{ prefix: 's3://b/wh', dir: wh }] });
  t.equal(await errorCode(io.readFile('s3://b/wh/db/t/data/link-out.bin')), 'PATH_OUTSIDE_WAREHOUSE');
  t.equal(await errorCode(io.readFile('s3://b/wh/db/t/dir-out/secret.txt')), 'PATH_OUTSIDE_WAREHOUSE');
  t.equal(await errorCode(io.readFile('s3://b/wh/db/t/dir-out/not-there.txt')), 'PATH_OUTSIDE_WAREHOUSE', 'even for a missing file');
  t.equal(await errorCode(io.list('s3://b/wh/db/t/dir-out')), 'PATH_OUTSIDE_WAREHOUSE');
  t.equal((await io.readFile('s3://b/wh/db/t/data/link-in.bin')).toString(), '0123456789');
  const names = (await io.list(path.join(wh, 'db/t'))).map((e) => `${e.name}:${e.kind}`);
  t.same(names, ['data:directory'], 'listing hides links that point outside');
  const data = (await io.list(path.join(wh, 'db/t/data'))).map((e) => `${e.name}:${e.kind}`);
  t.same(data, ['f.bin:file', 'link-in.bin:file'], 'sorted, with the inside link shown as a file');
});

t.test('a listing of named entries shows exactly what the full listing shows of those names', async (t) => {
  const { wh, outside } = sandbox(t);
  const dir = path.join(wh, 'db/t/data');
  fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(dir, 'link-out.bin'));
  fs.symlinkSync(path.join(dir, 'f.bin'), path.join(dir, 'link-in.bin'));
  fs.mkdirSync(path.join(dir, 'sub'));
  const io = createLocalFileIO({ roots: [wh] });
  const asked = ['sub', 'nope.bin', 'link-out.bin', 'link-in.bin', 'f.bin', 'f.bin'];
  const full = (await io.list(dir)).filter((e) => asked.includes(e.name));
  t.same(await io.list(dir, asked), full, 'same entries, kinds and order; links out and missing names left out');
  t.same(full.map((e) => `${e.name}:${e.kind}`), ['f.bin:file', 'link-in.bin:file', 'sub:directory']);
  t.same(await io.list(dir, ['../data/f.bin', '..', '.', '', 'sub/x']), [], 'a name is never a path through the folder');
  t.equal(await errorCode(io.list(path.join(wh, 'db/t/gone'), ['f.bin'])), 'FILE_NOT_FOUND');
  t.equal(await errorCode(io.list(path.join(dir, 'f.bin'), ['x'])), 'FILE_NOT_FOUND', 'a file is no folder');
  t.equal(await errorCode(io.list(path.join(outside), ['secret.txt'])), 'PATH_OUTSIDE_WAREHOUSE');
});

t.test('a warehouse root reached through a symlink still works', async (t) => {
  const { wh, base } = sandbox(t);
  const alias = path.join(base, 'alias');
  fs.symlinkSync(wh, alias);
  const io = createLocalFileIO({ roots: [alias] });
  t.equal((await io.readFile(path.join(alias, 'db/t/data/f.bin'))).toString(), '0123456789');
  t.same((await io.list(alias)).map((e) => e.name), ['db']);
});

t.test("a table's recorded location resolves under the directory where the table was found", async (t) => {
  const { wh } = sandbox(t);
  const io = createLocalFileIO({ roots: [wh] });
  const tableDir = path.join(wh, 'db/t');
  const cases: Array<[tableLocation: string, fileLocation: string]> = [
    ['s3://bucket/warehouse/db/t', 's3a://bucket/warehouse/db/t/data/f.bin'],
    ['s3a://bucket/warehouse/db/t/', 's3://bucket/warehouse/db/t/data/f.bin'],
    ['hdfs://nn:8020/w/db/t', 'hdfs://nn:8020/w/db/t/data/f.bin'],
    ['file:/tmp/w/db/t', 'file:///tmp/w/db/t/data/f.bin'],
    ['/tmp/w/db/t', 'file:/tmp/w/db/t/data/f.bin'],
    ['file:///tmp/w/db/t', '/tmp/w/db/t/data/f.bin'],
    ['./lineitem', 'lineitem/data/f.bin'],
    ['data/persistent/t', './data/persistent/t/data/f.bin'],
    ['file://./warehouse/t', 'file://./warehouse/t/data/f.bin'],
    ['gs://b', 'gs://b//data/f.bin'],
  ];
  for (const [tableLocation, fileLocation] of cases) {
    const tio = io.forTable(tableLocation, tableDir);
    t.equal((await tio.readFile(fileLocation)).toString(), '0123456789', `${tableLocation} ← ${fileLocation}`);
  }
  const tio = io.forTable('s3://bucket/db/t', tableDir);
  t.equal(await errorCode(tio.readFile('s3://bucket/db/t2/data/g.bin')), 'PATH_OUTSIDE_WAREHOUSE', 'a sibling prefix is not the table');
  t.equal(await errorCode(io.readFile('s3://bucket/db/t/data/f.bin')), 'PATH_OUTSIDE_WAREHOUSE', 'the warehouse IO knows no table');
});

t.test('configured remaps map other prefixes, longest first, and take over when a file is not under the table', async (t) => {
  const { wh } = sandbox(t);
  fs.mkdirSync(path.join(wh, 'moved/data'), { recursive: true });
  fs.writeFileSync(path.join(wh, 'moved/data/g.bin'), 'moved');
  fs.mkdirSync(path.join(wh, 'bucket-root/db/t/data'), { recursive: true });
  fs.writeFileSync(path.join(wh, 'bucket-root/db/t/data/g.bin'), 'bucket-wide');
  const io = createLocalFileIO({
    roots: [wh],
    remaps: [
      { prefix: 's3://bucket', dir: path.join(wh, 'bucket-root') },
      { prefix: 's3://bucket/db/t/data', dir: path.join(wh, 'moved/data') },
    ],
  });
  t.equal((await io.readFile('s3://bucket/db/t/data/g.bin')).toString(), 'moved', 'longest prefix wins');
  const tio = io.forTable('s3://bucket/db/t', path.join(wh, 'db/t'));
  t.equal((await tio.readFile('s3://bucket/db/t/data/f.bin')).toString(), '0123456789', 'the table location comes first');
  t.equal((await tio.readFile('s3://bucket/db/t/data/g.bin')).toString(), 'moved', 'a file missing under the table falls through to the remaps');
  t.equal(await errorCode(tio.readFile('s3://bucket/db/t/data/none.bin')), 'FILE_NOT_FOUND');
});

t.test('a remap directory outside the warehouse is readable because it is configured', async (t) => {
  const { wh, outside } = sandbox(t);
  const io = createLocalFileIO({ roots: [wh], remaps: [{ prefix: 'gs://elsewhere', dir: outside }] });
  t.equal((await io.readFile('gs://elsewhere/secret.txt')).toString(), 'top secret');
});
