import t from 'tap';
import { signerMountUri } from '../../../src/catalogs/rest/signer-uri.js';

const ctx = { name: 'sales eu', publicBaseUrl: 'https://icefront.example/', upstreamBases: ['http://up:8181/api/catalog', 'https://lakekeeper.internal/catalog'] };
const MOUNT = 'https://icefront.example/v1/sales%20eu/s3-signer';

t.test('a signer uri that is the upstream, left to Java’s default endpoint, becomes the catalog’s signer mount', async (t) => {
  for (const value of ['http://up:8181/api/catalog', 'http://up:8181/api/catalog/', 'https://lakekeeper.internal/catalog/'])
    for (const key of ['s3.signer.uri', 'signer.uri']) t.equal(signerMountUri(key, value, { [key]: value }, ctx), MOUNT, `${key} = ${value}`);
  const value = 'http://up:8181/api/catalog';
  t.equal(signerMountUri('s3.signer.uri', value, { 's3.signer.endpoint': 'v1/aws/s3/sign' }, ctx), MOUNT, 'the default endpoint spelled out');
  t.equal(signerMountUri('s3.signer.uri', value, { 'signer.endpoint': '/v1/aws/s3/sign' }, ctx), MOUNT, 'with a leading slash');
});

t.test('anything else is left to the ordinary rewrite', async (t) => {
  const value = 'http://up:8181/api/catalog';
  t.equal(signerMountUri('s3.signer.endpoint', value, {}, ctx), undefined, 'not a signer uri key');
  t.equal(signerMountUri('s3.signer.uri', value, { 's3.signer.endpoint': 'v1/wh/namespaces/db/tables/t/sign' }, ctx), undefined, 'a catalog endpoint: the spec sign route');
  t.equal(signerMountUri('s3.signer.uri', value, { 's3.signer.endpoint': 'https://signer.example/sign' }, ctx), undefined, 'an absolute endpoint');
  t.equal(signerMountUri('s3.signer.uri', 'http://up:8181/api/catalog/signer', {}, ctx), undefined, 'below the upstream, not the upstream');
  t.equal(signerMountUri('s3.signer.uri', 'http://up:8181/api', {}, ctx), undefined, 'above it');
  t.equal(signerMountUri('s3.signer.uri', 'http://up:8181/api/catalog?x=1', {}, ctx), undefined, 'with a query');
  t.equal(signerMountUri('s3.signer.uri', 'https://signer.example', {}, ctx), undefined, 'another host');
  t.equal(signerMountUri('s3.signer.uri', 'not a url', {}, ctx), undefined, 'not a URL');
});
