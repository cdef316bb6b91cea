import t from 'tap';
import { createComputeCache } from '../../../src/cache/index.js';
import { keepRemoteBytes } from '../../../src/service/engine/remote-bytes.js';
import { MemoryIO } from '../../planner/manifests/memory-io.js';

const cache = (maxBytes = 1 << 20) => createComputeCache<Buffer>({ name: 'remote-files', maxBytes, sizeOf: (b) => b.length });

t.test('a remote file is fetched once; later reads of it, whole or in ranges, are answered from its kept bytes', async (t) => {
  const store = new MemoryIO();
  const manifest = store.put('s3://b/t/metadata/m1.avro', Buffer.from('0123456789'));
  const io = keepRemoteBytes(store, 'lake', cache());
  t.equal((await io.readRange(manifest, 2, 3)).toString(), '234', 'a range before the file is kept: read from the store');
  t.equal(store.rangeReads, 1);
  const [a, b] = await Promise.all([io.readFile(manifest), io.readFile(manifest)]);
  t.equal(a.toString(), '0123456789');
  t.equal(b.toString(), '0123456789');
  t.equal(store.readFiles, 1, 'concurrent reads share one fetch');
  t.equal((await io.readFile(manifest)).toString(), '0123456789');
  t.equal((await io.readRange(manifest, 7, 3)).toString(), '789');
  t.equal(store.readFiles, 1, 'no further fetch');
  t.equal(store.rangeReads, 1, 'the range was cut from the kept file');
});

t.test('catalogs keep their bytes apart; a file larger than the budget is read every time; a failed read is not kept', async (t) => {
  const store = new MemoryIO();
  const location = store.put('s3://b/x.avro', Buffer.from('abc'));
  const shared = cache(8);
  const lake = keepRemoteBytes(store, 'lake', shared);
  const other = keepRemoteBytes(store, 'other', shared);
  await lake.readFile(location);
  await other.readFile(location);
  t.equal(store.readFiles, 2, 'the same location under two catalogs may be two stores');
  const big = store.put('s3://b/big.avro', Buffer.alloc(64));
  await lake.readFile(big);
  await lake.readFile(big);
  t.equal(store.readFiles, 4, 'not kept: larger than the budget');
  await t.rejects(lake.readFile('s3://b/missing.avro'), { code: 'FILE_NOT_FOUND' });
  store.put('s3://b/missing.avro', Buffer.from('late'));
  t.equal((await lake.readFile('s3://b/missing.avro')).toString(), 'late', 'a file that appears is read');
});

t.test('an IO with local paths is left to the page cache', async (t) => {
  const store = Object.assign(new MemoryIO(), { localPath: async (l: string) => l });
  t.equal(keepRemoteBytes(store, 'lake', cache()), store);
});
