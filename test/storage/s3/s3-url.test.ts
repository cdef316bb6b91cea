import t from 'tap';
import { isIcefrontError } from '../../../src/errors/index.js';
import { parseS3Location } from '../../../src/storage/index.js';
import { s3UrlBuilder } from '../../../src/storage/s3/s3-url.js';

t.test('path-style URLs put the bucket in the path, virtual-hosted ones in the host', async (t) => {
  const path = s3UrlBuilder({ endpoint: 'http://minio.local:9000', region: 'us-east-1', pathStyle: true });
  const vhost = s3UrlBuilder({ endpoint: 'http://minio.local:9000', region: 'us-east-1', pathStyle: false });
  t.equal(path.objectUrl('warehouse', 'db/t/f.avro'), 'http://minio.local:9000/warehouse/db/t/f.avro');
  t.equal(vhost.objectUrl('warehouse', 'db/t/f.avro'), 'http://warehouse.minio.local:9000/db/t/f.avro');
  t.equal(path.bucketUrl('warehouse', 'list-type=2'), 'http://minio.local:9000/warehouse?list-type=2');
  t.equal(vhost.bucketUrl('warehouse', 'list-type=2'), 'http://warehouse.minio.local:9000/?list-type=2');
});

t.test('without an endpoint requests go to the AWS regional endpoint', async (t) => {
  t.equal(s3UrlBuilder({ region: 'eu-west-1', pathStyle: false }).objectUrl('my-bucket', 'k'), 'https://my-bucket.s3.eu-west-1.amazonaws.com/k');
  t.equal(s3UrlBuilder({ region: 'eu-west-1', pathStyle: true }).objectUrl('my-bucket', 'k'), 'https://s3.eu-west-1.amazonaws.com/my-bucket/k');
  t.equal(s3UrlBuilder({ region: 'cn-north-1', pathStyle: false }).objectUrl('my-bucket', 'k'), 'https://my-bucket.s3.cn-north-1.amazonaws.com.cn/k');
});

t.test('buckets that cannot be a host label, and hosts that take no subdomain, use path-style', async (t) => {
  const aws = s3UrlBuilder({ region: 'us-east-1', pathStyle: false });
  t.equal(aws.objectUrl('my.dotted.bucket', 'k'), 'https://s3.us-east-1.amazonaws.com/my.dotted.bucket/k', 'dots break TLS wildcard certificates');
  t.equal(aws.objectUrl('Upper_Case', 'k'), 'https://s3.us-east-1.amazonaws.com/Upper_Case/k');
  for (const endpoint of ['http://127.0.0.1:9000', 'http://[::1]:9000', 'http://localhost:9000']) {
    t.equal(s3UrlBuilder({ endpoint, region: 'us-east-1', pathStyle: false }).objectUrl('warehouse', 'k'), `${endpoint}/warehouse/k`, endpoint);
  }
});

t.test('an endpoint path prefix is kept and an endpoint without scheme is https', async (t) => {
  t.equal(s3UrlBuilder({ endpoint: 'https://gw.example.com/s3/', region: 'r', pathStyle: true }).objectUrl('b', 'k'), 'https://gw.example.com/s3/b/k');
  t.equal(s3UrlBuilder({ endpoint: 'storage.example.com:8443', region: 'r', pathStyle: true }).objectUrl('b', 'k'), 'https://storage.example.com:8443/b/k');
});

t.test('keys are encoded per segment: spaces, plus, equals, unicode and reserved characters', async (t) => {
  const u = s3UrlBuilder({ endpoint: 'http://h', region: 'r', pathStyle: true });
  t.equal(u.objectUrl('b', 'data/ts_day=2024-01-01/f.parquet'), 'http://h/b/data/ts_day%3D2024-01-01/f.parquet');
  t.equal(u.objectUrl('b', 'a b/c+d'), 'http://h/b/a%20b/c%2Bd');
  t.equal(u.objectUrl('b', 'ü/日本'), 'http://h/b/%C3%BC/%E6%97%A5%E6%9C%AC');
  t.equal(u.objectUrl('b', "x!'()*~-_.y"), 'http://h/b/x%21%27%28%29%2A~-_.y');
  t.equal(u.objectUrl('b', 'k=a%3Ab/?#&\\'), 'http://h/b/k%3Da%253Ab/%3F%23%26%5C', 'a literal % stays literal');
  t.equal(u.objectUrl('b', 'a//b/'), 'http://h/b/a//b/', 'empty segments are kept: S3 keys are literal');
  t.equal(u.bucketUrl('b', 'list-type=2&prefix=a%20b%2F'), 'http://h/b?list-type=2&prefix=a%20b%2F');
});

t.test('endpoints that are not plain http(s) URLs are refused without echoing them', async (t) => {
  for (const endpoint of ['ftp://h', 'http://user:secret@h:9000', 'http://h?x=1', 'http://']) {
    let err: unknown;
    try {
      s3UrlBuilder({ endpoint, region: 'r', pathStyle: true });
    } catch (e) {
      err = e;
    }
    t.ok(isIcefrontError(err, 'CONFIG_INVALID'), endpoint);
    t.notOk(String((err as Error).message).includes('secret'), 'no user info in the message');
  }
});

t.test('s3, s3a and s3n locations split into bucket and literal key', async (t) => {
  t.same(parseS3Location('s3://b/db/t/f.avro'), { bucket: 'b', key: 'db/t/f.avro' });
  t.same(parseS3Location('s3a://b/db/t/f.avro'), { bucket: 'b', key: 'db/t/f.avro' });
  t.same(parseS3Location('S3N://b/a%20b//c/'), { bucket: 'b', key: 'a%20b//c/' });
  t.same(parseS3Location('s3://b'), { bucket: 'b', key: '' });
});

t.test('non-S3 locations and keys an HTTP path cannot carry are outside what this FileIO reads', async (t) => {
  for (const location of ['/tmp/f', 'file:///tmp/f', 'gs://b/k', 'abfs://c@a.dfs.core.windows.net/k', 's3:/b/k', 's3:///k', 's3://b/../other/k', 's3://b/a/./k', 's3://b/\uD800']) {
    let err: unknown;
    try {
      parseS3Location(location);
    } catch (e) {
      err = e;
    }
    t.ok(isIcefrontError(err, 'PATH_OUTSIDE_WAREHOUSE'), location);
  }
});
