/**
 * DeleteFileIndex (spec "Scan Planning" delete scope rules; Java DeleteFileIndex, wire-format
 * §12.5): which delete files a data file gets, by sequence number, partition, file scope, DVs
 * and equality-field stats (Java canContainEqDeletesForFile).
 */
import t, { type Test } from 'tap';
import { isIcefrontError } from '../../../src/errors/index.js';
import {
  Schema,
  toBinary,
  type ContentFile,
  type IcebergType,
  type ManifestEntry,
  type PartitionSpec,
} from '../../../src/iceberg/index.js';
import { DELETE_FILE_PATH_ID, DeleteFileIndex } from '../../../src/planner/deletes/index.js';

const LONG: IcebergType = { kind: 'long' };
const STRING: IcebergType = { kind: 'string' };
const schema = new Schema([
  { id: 1, name: 'id', required: false, type: LONG },
  { id: 2, name: 'data', required: false, type: STRING },
  { id: 3, name: 'key', required: true, type: LONG },
  { id: 4, name: 'point', required: false, type: { kind: 'struct', fields: [{ id: 5, name: 'x', required: false, type: LONG }] } },
]);
const UNPARTITIONED: PartitionSpec = { specId: 0, fields: [] };
const BY_DATA: PartitionSpec = { specId: 1, fields: [{ sourceId: 2, fieldId: 1000, name: 'data', transform: 'identity' }] };
const BY_DATA_AGAIN: PartitionSpec = { specId: 2, fields: [{ sourceId: 2, fieldId: 1000, name: 'data', transform: 'identity' }] };
const VOID_ONLY: PartitionSpec = { specId: 3, fields: [{ sourceId: 2, fieldId: 1001, name: 'data_void', transform: 'void' }] };
const specsById = new Map([UNPARTITIONED, BY_DATA, BY_DATA_AGAIN, VOID_ONLY].map((s) => [s.specId, s] as const));

type FileOpts = Partial<Omit<ContentFile, 'content' | 'filePath'>>;

function file(content: 0 | 1 | 2, filePath: string, opts: FileOpts = {}): ContentFile {
  return { content, filePath, fileFormat: 'PARQUET', specId: 1, partition: ['a'], recordCount: 10n, fileSizeInBytes: 100n, ...opts };
}
const data = (path: string, opts?: FileOpts) => file(0, path, opts);
const pos = (path: string, opts?: FileOpts) => file(1, path, opts);
const eq = (path: string, ids: number[], opts?: FileOpts) => file(2, path, { equalityIds: ids, ...opts });
const dv = (path: string, target: string, offset: bigint, opts?: FileOpts) =>
  file(1, path, { fileFormat: 'PUFFIN', referencedDataFile: target, contentOffset: offset, contentSizeInBytes: 40n, ...opts });

function entry(f: ContentFile, seq: bigint): ManifestEntry {
  return { status: 1, snapshotId: 1n, dataSequenceNumber: seq, fileSequenceNumber: seq, file: f, position: 0, manifestPath: 'm.avro' };
}

function index(...entries: ManifestEntry[]): DeleteFileIndex {
  return DeleteFileIndex.build(entries, { specsById, schema });
}

/** Paths of the deletes a data file gets, in the index's order. */
function applied(idx: DeleteFileIndex, seq: bigint, f: ContentFile): string[] {
  return idx.forDataFile(seq, f).map((e) => e.file.filePath);
}

const bounds = (values: Record<number, [IcebergType, unknown]>): ReadonlyMap<number, Uint8Array> =>
  new Map(Object.entries(values).map(([id, [type, v]]) => [Number(id), toBinary(type, v)]));
const counts = (values: Record<number, bigint>): ReadonlyMap<number, bigint> => new Map(Object.entries(values).map(([id, n]) => [Number(id), n]));

t.test('position deletes apply to data files whose sequence number is at most theirs (D ≥ S)', async (t) => {
  const idx = index(entry(pos('pos-5.parquet'), 5n));
  t.same(applied(idx, 4n, data('d.parquet')), ['pos-5.parquet'], 'older data file');
  t.same(applied(idx, 5n, data('d.parquet')), ['pos-5.parquet'], 'same sequence number (same commit)');
  t.same(applied(idx, 6n, data('d.parquet')), [], 'newer data file');
});

t.test('equality deletes apply only to strictly older data files (D > S)', async (t) => {
  const idx = index(entry(eq('eq-5.parquet', [1]), 5n));
  t.same(applied(idx, 4n, data('d.parquet')), ['eq-5.parquet']);
  t.same(applied(idx, 5n, data('d.parquet')), [], 'same sequence number: rows written in the same commit survive');
  t.same(applied(idx, 6n, data('d.parquet')), []);
});

t.test('sequence numbers beyond 2^53 compare exactly', async (t) => {
  const big = 2n ** 60n;
  const idx = index(entry(pos('pos.parquet'), big), entry(eq('eq.parquet', [1]), big + 1n));
  t.same(applied(idx, big, data('d.parquet')), ['eq.parquet', 'pos.parquet']);
  t.same(applied(idx, big + 1n, data('d.parquet')), []);
});

t.test('equality deletes of an unpartitioned spec are global; partitioned ones match their partition only', async (t) => {
  const idx = index(entry(eq('global.parquet', [1], { specId: 0, partition: [] }), 9n), entry(eq('part-a.parquet', [1], { specId: 1, partition: ['a'] }), 9n));
  t.same(applied(idx, 1n, data('a.parquet', { specId: 1, partition: ['a'] })), ['global.parquet', 'part-a.parquet']);
  t.same(applied(idx, 1n, data('b.parquet', { specId: 1, partition: ['b'] })), ['global.parquet']);
  t.same(applied(idx, 1n, data('u.parquet', { specId: 0, partition: [] })), ['global.parquet']);
  t.same(applied(idx, 1n, data('n.parquet', { specId: 1, partition: [null] })), ['global.parquet'], 'a null partition is its own partition');
});

t.test('a spec with only void fields is unpartitioned: its equality deletes are global', async (t) => {
  const idx = index(entry(eq('void.parquet', [1], { specId: 3, partition: [null] }), 9n));
  t.same(applied(idx, 1n, data('a.parquet', { specId: 1, partition: ['a'] })), ['void.parquet']);
  t.same(applied(idx, 1n, data('u.parquet', { specId: 0, partition: [] })), ['void.parquet']);
});

t.test('equal partition values under another spec id do not match', async (t) => {
  const idx = index(entry(eq('eq-spec2.parquet', [1], { specId: 2, partition: ['a'] }), 9n), entry(pos('pos-spec2.parquet', { specId: 2, partition: ['a'] }), 9n));
  t.same(applied(idx, 1n, data('d1.parquet', { specId: 1, partition: ['a'] })), [], 'spec 1 data, spec 2 deletes');
  t.same(applied(idx, 1n, data('d2.parquet', { specId: 2, partition: ['a'] })), ['eq-spec2.parquet', 'pos-spec2.parquet'], 'spec 2 data');
});

t.test('partition values of every literal type key exactly (bigint, bytes, NaN, -0.0)', async (t) => {
  const idx = index(
    entry(pos('long.parquet', { partition: [5n] }), 9n),
    entry(pos('bytes.parquet', { partition: [new Uint8Array([1, 2])] }), 9n),
    entry(pos('nan.parquet', { partition: [Number.NaN] }), 9n),
    entry(pos('zero.parquet', { partition: [0] }), 9n),
  );
  t.same(applied(idx, 1n, data('d', { partition: [5n] })), ['long.parquet']);
  t.same(applied(idx, 1n, data('d', { partition: [5] })), [], 'an int 5 is not the long 5');
  t.same(applied(idx, 1n, data('d', { partition: [Buffer.from([1, 2])] })), ['bytes.parquet'], 'bytes by content');
  t.same(applied(idx, 1n, data('d', { partition: [Number.NaN] })), ['nan.parquet'], 'NaN partitions are equal (spec note: canonical bits)');
  t.same(applied(idx, 1n, data('d', { partition: [-0] })), [], '-0.0 and 0.0 are different partitions');
});

t.test('a position delete file with referenced_data_file applies only to that data file', async (t) => {
  const idx = index(entry(pos('scoped.parquet', { referencedDataFile: 's3://t/data/one.parquet' }), 9n));
  t.same(applied(idx, 1n, data('s3://t/data/one.parquet')), ['scoped.parquet']);
  t.same(applied(idx, 1n, data('s3://t/data/two.parquet')), [], 'another file of the same partition');
});

t.test('a position delete file whose file_path bounds are equal is scoped to that one file', async (t) => {
  const path = (p: string) => bounds({ [DELETE_FILE_PATH_ID]: [STRING, p] });
  const idx = index(
    entry(pos('equal-bounds.parquet', { lowerBounds: path('s3://t/one.parquet'), upperBounds: path('s3://t/one.parquet') }), 9n),
    entry(pos('range-bounds.parquet', { lowerBounds: path('s3://t/a.parquet'), upperBounds: path('s3://t/z.parquet') }), 9n),
  );
  t.same(applied(idx, 1n, data('s3://t/one.parquet')), ['range-bounds.parquet', 'equal-bounds.parquet'], 'partition-scoped first, then file-scoped');
  t.same(applied(idx, 1n, data('s3://t/two.parquet')), ['range-bounds.parquet'], 'unequal bounds leave the file partition-scoped');
});

t.test('a deletion vector replaces every position delete file of its data file; equality deletes still apply', async (t) => {
  const idx = index(
    entry(eq('global-eq.parquet', [1], { specId: 0, partition: [] }), 9n),
    entry(eq('part-eq.parquet', [1]), 9n),
    entry(pos('part-pos.parquet'), 9n),
    entry(pos('file-pos.parquet', { referencedDataFile: 'one.parquet' }), 9n),
    entry(dv('dvs.puffin', 'one.parquet', 4n), 9n),
  );
  t.same(applied(idx, 1n, data('one.parquet')), ['global-eq.parquet', 'part-eq.parquet', 'dvs.puffin'], 'global eq, partition eq, then the DV');
  t.same(applied(idx, 1n, data('two.parquet')), ['global-eq.parquet', 'part-eq.parquet', 'part-pos.parquet'], 'no DV: position deletes');
});

t.test('two blobs of one Puffin file for two data files each apply to their own file', async (t) => {
  const idx = index(entry(dv('dvs.puffin', 'one.parquet', 4n), 3n), entry(dv('dvs.puffin', 'two.parquet', 44n), 3n));
  t.same(idx.forDataFile(1n, data('one.parquet')).map((e) => e.file.contentOffset), [4n]);
  t.same(idx.forDataFile(1n, data('two.parquet')).map((e) => e.file.contentOffset), [44n]);
  t.same(applied(idx, 1n, data('three.parquet')), []);
});

t.test('corrupt deletion vectors are rejected as invalid metadata', async (t) => {
  const twoDvs = () => index(entry(dv('a.puffin', 'one.parquet', 4n), 3n), entry(dv('b.puffin', 'one.parquet', 4n), 3n));
  throwsInvalidMetadata(t, twoDvs, 'two DVs for one data file (Java: "Can\'t index multiple DVs")');
  throwsInvalidMetadata(t, () => index(entry(dv('a.puffin', 'x', 4n, { referencedDataFile: undefined }), 3n)), 'a DV without referenced_data_file');
});

t.test('a DV older than its data file, or a DV or file-scoped delete in another partition, fails as Java ValidationException does (wire-format §12.5)', async (t) => {
  // Java DeleteFileIndex.findDV: ValidationException.check(dv.dataSequenceNumber() >= seq, …)
  const idx = index(entry(dv('old.puffin', 'one.parquet', 4n), 3n), entry(pos('part-pos.parquet'), 5n));
  throwsInvalidMetadata(t, () => idx.forDataFile(4n, data('one.parquet')), 'DV sequence number 3 < data sequence number 4');
  // since apache/iceberg 7f879b11 the DV's spec id and partition must equal the data file's
  const other = index(entry(dv('dv.puffin', 'one.parquet', 4n, { partition: ['b'] }), 9n));
  throwsInvalidMetadata(t, () => other.forDataFile(1n, data('one.parquet', { partition: ['a'] })), 'DV in partition b for a data file in partition a');
  const scoped = index(entry(pos('scoped.parquet', { referencedDataFile: 'one.parquet', partition: ['b'] }), 9n));
  throwsInvalidMetadata(
    t,
    () => scoped.forDataFile(1n, data('one.parquet', { partition: ['a'] })),
    'file-scoped position deletes in partition b for a data file in partition a',
  );
});

t.test('dangling deletes match nothing and break nothing', async (t) => {
  const idx = index(
    entry(pos('for-a-removed-file.parquet', { referencedDataFile: 'compacted-away.parquet' }), 4n),
    entry(dv('dv.puffin', 'compacted-away.parquet', 4n), 4n),
    entry(eq('older-than-data.parquet', [1]), 2n),
    entry(pos('old-partition-pos.parquet'), 2n),
  );
  t.equal(idx.size, 4, 'all four are indexed');
  t.same(applied(idx, 3n, data('rewritten.parquet')), [], 'the rewritten data file (seq 3) gets none of them');
});

t.test('data entries given to the index are ignored', async (t) => {
  const idx = index(entry(data('d.parquet'), 1n));
  t.equal(idx.size, 0);
  t.same(applied(idx, 0n, data('x.parquet')), []);
});

t.test('equality stats: deletes are skipped only when the stats prove no row can be equal (Java canContainEqDeletesForFile)', async (t) => {
  const long = (lo: bigint, hi: bigint) => ({ lowerBounds: bounds({ 1: [LONG, lo] }), upperBounds: bounds({ 1: [LONG, hi] }) });
  const noNulls = { nullValueCounts: counts({ 1: 0n }), valueCounts: counts({ 1: 10n }) };
  const someNulls = { nullValueCounts: counts({ 1: 2n }), valueCounts: counts({ 1: 10n }) };
  const allNulls = { nullValueCounts: counts({ 1: 10n }), valueCounts: counts({ 1: 10n }) };
  const check = (d: FileOpts, del: FileOpts, ids = [1]): boolean =>
    index(entry(eq('eq.parquet', ids, del), 9n)).forDataFile(1n, data('d.parquet', d)).length === 1;

  t.equal(check({ ...long(1n, 10n), ...noNulls }, { ...long(20n, 30n), ...noNulls }), false, 'disjoint ranges, no nulls: skipped');
  t.equal(check({ ...long(1n, 10n), ...noNulls }, { ...long(10n, 30n), ...noNulls }), true, 'ranges touching at 10: kept');
  t.equal(check({ ...long(25n, 40n), ...noNulls }, { ...long(20n, 30n), ...noNulls }), true, 'overlapping ranges: kept');
  t.equal(check({ ...long(1n, 10n), ...someNulls }, { ...long(20n, 30n), ...someNulls }), true, 'both may hold nulls (null deletes null): kept despite disjoint ranges');
  t.equal(check({ ...allNulls }, { ...long(20n, 30n), ...noNulls }), false, 'data all null, deletes without nulls: skipped');
  t.equal(check({ ...long(1n, 10n), ...noNulls }, { ...allNulls }), false, 'deletes only nulls, data without nulls: skipped');
  t.equal(check({ ...allNulls }, { ...long(20n, 30n) }), true, 'deletes without null counts may delete nulls: kept');
  t.equal(check({ ...long(1n, 10n) }, { ...long(20n, 30n) }), true, 'no null counts at all: both may hold nulls (null deletes null): kept');
  t.equal(check({}, { ...long(20n, 30n), ...noNulls }), true, 'data file without bounds: kept');
  t.equal(check({ lowerBounds: bounds({ 1: [LONG, 1n] }), upperBounds: bounds({}) }, { ...long(20n, 30n), ...noNulls }), true, 'a missing upper bound: kept');
  t.equal(
    check(
      { lowerBounds: bounds({ 3: [LONG, 1n] }), upperBounds: bounds({ 3: [LONG, 10n] }) },
      { lowerBounds: bounds({ 3: [LONG, 20n] }), upperBounds: bounds({ 3: [LONG, 30n] }) },
      [3],
    ),
    false,
    'a required field never holds nulls, so ranges decide',
  );
  t.equal(
    check(
      { ...long(1n, 10n), ...noNulls },
      { lowerBounds: bounds({ 1: [LONG, 5n], 2: [STRING, 'x'] }), upperBounds: bounds({ 1: [LONG, 5n], 2: [STRING, 'y'] }), nullValueCounts: counts({ 1: 0n, 2: 0n }) },
      [1, 2],
    ),
    true,
    'two equality fields: id overlaps, data has no bounds for `data`: kept',
  );
  t.equal(
    check(
      { lowerBounds: bounds({ 1: [LONG, 1n], 2: [STRING, 'a'] }), upperBounds: bounds({ 1: [LONG, 10n], 2: [STRING, 'b'] }), nullValueCounts: counts({ 1: 0n, 2: 0n }) },
      { lowerBounds: bounds({ 1: [LONG, 5n], 2: [STRING, 'x'] }), upperBounds: bounds({ 1: [LONG, 5n], 2: [STRING, 'y'] }), nullValueCounts: counts({ 1: 0n, 2: 0n }) },
      [1, 2],
    ),
    false,
    'two equality fields: one disjoint field is enough to skip',
  );
  t.equal(check({ ...long(1n, 10n), ...noNulls }, { ...long(20n, 30n), ...noNulls }, [4]), true, 'a struct equality field keeps no stats: kept');
  t.equal(check({ ...long(1n, 10n), ...noNulls }, { ...long(20n, 30n), ...noNulls }, [99]), true, 'a dropped equality field: kept');
});

function throwsInvalidMetadata(t: Test, fn: () => unknown, message: string): void {
  let error: unknown;
  try {
    fn();
  } catch (err) {
    error = err;
  }
  t.ok(isIcefrontError(error, 'INVALID_METADATA'), `${message}: INVALID_METADATA (got ${error === undefined ? 'no error' : String(error)})`);
}
