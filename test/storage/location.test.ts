import t from 'tap';
import { normalizeLocation, stripPrefix } from '../../src/storage/index.js';

const same = (a: string, b: string) => {
  const na = normalizeLocation(a);
  const nb = normalizeLocation(b);
  return na.kind === nb.kind && na.text === nb.text;
};

t.test('file:/, file:///, file://localhost/ and a plain absolute path name the same place', async (t) => {
  for (const spelling of ['file:/tmp/iceberg/t', 'file:///tmp/iceberg/t', 'file://localhost/tmp/iceberg/t', '/tmp/iceberg/t', '/tmp//iceberg/t/']) {
    t.ok(same(spelling, '/tmp/iceberg/t'), spelling);
    t.equal(normalizeLocation(spelling).kind, 'local');
  }
});

t.test('s3a:// and s3n:// are spellings of s3://', async (t) => {
  t.ok(same('s3a://warehouse/db/t', 's3://warehouse/db/t'));
  t.ok(same('s3n://warehouse/db/t/', 's3://warehouse/db/t'));
  t.notOk(same('gs://warehouse/db/t', 's3://warehouse/db/t'), 'gs is a different store');
});

t.test('relative spellings ./x, x and file://x compare equal and stay relative', async (t) => {
  t.ok(same('./lineitem_iceberg/metadata/x.avro', 'lineitem_iceberg/metadata/x.avro'));
  t.ok(same('file://./warehouse/ns.db/t', 'warehouse/ns.db/t'));
  t.ok(same('file://data/persistent/map_stats', 'data/persistent/map_stats'));
  t.equal(normalizeLocation('data/persistent/x').kind, 'relative');
});

t.test('repeated slashes after the authority collapse, the authority keeps its port', async (t) => {
  t.ok(same('gs://kevinliu_blmt//metadata/a.avro', 'gs://kevinliu_blmt/metadata/a.avro'));
  t.equal(normalizeLocation('hdfs://localhost:20500/test-warehouse/t/').text, 'hdfs://localhost:20500/test-warehouse/t');
  t.equal(normalizeLocation('S3://Bucket/Key').text, 's3://Bucket/Key', 'scheme is case-insensitive, the rest is not');
});

t.test('a prefix matches whole path segments only', async (t) => {
  const table = normalizeLocation('s3://b/db/t');
  t.equal(stripPrefix(normalizeLocation('s3a://b/db/t/data/f.parquet'), table), 'data/f.parquet');
  t.equal(stripPrefix(normalizeLocation('s3://b/db/t'), table), '');
  t.equal(stripPrefix(normalizeLocation('s3://b/db/t2/data/f.parquet'), table), undefined);
  t.equal(stripPrefix(normalizeLocation('/b/db/t/data/f.parquet'), table), undefined, 'local path is not under an s3 location');
  t.equal(stripPrefix(normalizeLocation('/x/y'), normalizeLocation('/')), 'x/y', 'the root is a prefix of every absolute path');
});
