import t from 'tap';
import type { S3StorageConfig } from '../../../src/config/index.js';
import { s3FileIOFromTableConfig } from '../../../src/storage/index.js';
import { capturingFetch } from './capture.js';
import { parseAuthorization } from './sigv4-reference.js';
import { startS3Server } from '../../helpers/s3-server.js';

const STATIC: S3StorageConfig = {
  endpoint: 'http://static-store:9000',
  region: 'eu-west-1',
  pathStyle: true,
  accessKeyId: 'STATICKEY',
  secretAccessKey: 'static-secret',
};

const VENDED = {
  's3.access-key-id': 'ASIAVENDED',
  's3.secret-access-key': 'vended-secret',
  's3.session-token': 'vended-session-token',
  's3.endpoint': 'https://vended-store.example.com',
  's3.path-style-access': 'false',
  'client.region': 'ap-southeast-2',
};

/** What one read with this table config sends: URL, key id, region and session token. */
async function firstRequest(config: Record<string, string>, fallback?: S3StorageConfig) {
  const cap = capturingFetch();
  await s3FileIOFromTableConfig(config, fallback, { fetch: cap.fetch }).readFile('s3://lake/db/t/metadata/snap-1.avro');
  const req = cap.requests[0]!;
  return { url: req.url, auth: parseAuthorization(req.headers.authorization), token: req.headers['x-amz-security-token'] };
}

t.test('vended credentials, endpoint, style and region from LoadTableResult.config are used', async (t) => {
  const { url, auth, token } = await firstRequest(VENDED, STATIC);
  t.equal(url, 'https://lake.vended-store.example.com/db/t/metadata/snap-1.avro');
  t.equal(auth?.accessKeyId, 'ASIAVENDED');
  t.equal(auth?.region, 'ap-southeast-2');
  t.equal(token, 'vended-session-token');
});

t.test('without vended values the catalog static storage settings apply', async (t) => {
  const { url, auth, token } = await firstRequest({}, STATIC);
  t.equal(url, 'http://static-store:9000/lake/db/t/metadata/snap-1.avro');
  t.equal(auth?.accessKeyId, 'STATICKEY');
  t.equal(auth?.region, 'eu-west-1');
  t.equal(token, undefined);
});

t.test('vended credentials combine with static endpoint settings the upstream did not send', async (t) => {
  const { url, auth } = await firstRequest({ 's3.access-key-id': 'ASIAVENDED', 's3.secret-access-key': 'vended-secret' }, STATIC);
  t.equal(url, 'http://static-store:9000/lake/db/t/metadata/snap-1.avro');
  t.equal(auth?.accessKeyId, 'ASIAVENDED');
  t.equal(auth?.region, 'eu-west-1');
});

t.test('a vended key id without its secret never pairs with the static secret', async (t) => {
  const { auth } = await firstRequest({ 's3.access-key-id': 'ASIAVENDED' }, STATIC);
  t.equal(auth?.accessKeyId, 'STATICKEY');
});

t.test('s3.region wins over client.region; us-east-1 when nothing names a region', async (t) => {
  t.equal((await firstRequest({ ...VENDED, 's3.region': 'eu-north-1' })).auth?.region, 'eu-north-1');
  const bare = await firstRequest({});
  t.equal(bare.url, 'https://lake.s3.us-east-1.amazonaws.com/db/t/metadata/snap-1.avro');
  t.equal(bare.auth, undefined, 'no credentials anywhere: unsigned');
});

t.test('s3.path-style-access is true only for "true" (any case)', async (t) => {
  t.match((await firstRequest({ 's3.path-style-access': 'TRUE' }, { ...STATIC, pathStyle: false })).url, /^http:\/\/static-store:9000\/lake\//);
  t.match((await firstRequest({ 's3.path-style-access': 'yes' }, STATIC)).url, /^http:\/\/lake\.static-store:9000\//);
});

t.test('a FileIO from vended s3rver settings reads the table', async (t) => {
  const server = await startS3Server({ bucket: 'lake' });
  t.teardown(() => server.close());
  await server.put('db/t/metadata/v1.metadata.json', '{"format-version":2}');
  const io = s3FileIOFromTableConfig({
    's3.endpoint': server.endpoint,
    's3.path-style-access': 'true',
    's3.access-key-id': server.credentials.accessKeyId,
    's3.secret-access-key': server.credentials.secretAccessKey,
    'client.region': server.region,
  });
  t.equal((await io.readFile('s3://lake/db/t/metadata/v1.metadata.json')).toString(), '{"format-version":2}');
});
