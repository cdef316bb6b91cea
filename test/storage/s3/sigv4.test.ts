import t from 'tap';
import { createS3FileIO } from '../../../src/storage/index.js';
import { capturingFetch } from './capture.js';
import { canonicalUri, expectedSignature, parseAuthorization, type CapturedRequest } from './sigv4-reference.js';

const CREDENTIALS = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' };
const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

t.test('the reference verifier reproduces the signatures of the AWS S3 SigV4 documentation', async (t) => {
  // AWS docs, "Signature Calculations for the Authorization Header": GET Object and GET Bucket examples
  const secret = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';
  const examples: Array<[CapturedRequest, string]> = [
    [
      {
        method: 'GET',
        url: 'https://examplebucket.s3.amazonaws.com/test.txt',
        headers: { range: 'bytes=0-9', 'x-amz-content-sha256': EMPTY_SHA256, 'x-amz-date': '20130524T000000Z' },
      },
      'AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41',
    ],
    [
      {
        method: 'GET',
        url: 'https://examplebucket.s3.amazonaws.com/?max-keys=2&prefix=J',
        headers: { 'x-amz-content-sha256': EMPTY_SHA256, 'x-amz-date': '20130524T000000Z' },
      },
      'AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, SignedHeaders=host;x-amz-content-sha256;x-amz-date, Signature=34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7',
    ],
  ];
  for (const [req, header] of examples) {
    const auth = parseAuthorization(header)!;
    t.equal(expectedSignature(req, secret, auth), auth.signature, req.url);
  }
});

/** Every request `run` makes, as captured. */
async function capture(run: (io: ReturnType<typeof createS3FileIO>) => Promise<unknown>, options: { sessionToken?: string; region?: string; answer?: () => Response } = {}) {
  const cap = capturingFetch(options.answer);
  const io = createS3FileIO({
    endpoint: 'http://127.0.0.1:9000',
    region: options.region ?? 'eu-central-1',
    pathStyle: true,
    credentials: { ...CREDENTIALS, sessionToken: options.sessionToken },
    fetch: cap.fetch,
  });
  await run(io);
  return cap.requests;
}

t.test('requests carry a SigV4 Authorization header for the configured key id, date and region', async (t) => {
  const [req] = await capture((io) => io.readFile('s3://warehouse/db/t/metadata/v1.metadata.json'));
  const auth = parseAuthorization(req!.headers.authorization);
  t.ok(auth, `AWS4-HMAC-SHA256 Credential=<id>/<date>/<region>/s3/aws4_request …: ${req!.headers.authorization}`);
  t.equal(auth!.accessKeyId, CREDENTIALS.accessKeyId);
  t.equal(auth!.region, 'eu-central-1');
  t.equal(auth!.service, 's3');
  t.equal(auth!.date, req!.headers['x-amz-date']!.slice(0, 8), 'the scope date is the request date');
  t.match(req!.headers['x-amz-date'], /^\d{8}T\d{6}Z$/);
  t.ok(auth!.signedHeaders.includes('host') && auth!.signedHeaders.includes('x-amz-date'), 'host and x-amz-date are signed');
  t.notOk(JSON.stringify(req).includes(CREDENTIALS.secretAccessKey), 'the secret never leaves the process');
});

t.test('signatures verify independently for object reads, ranged reads, HEADs and listings', async (t) => {
  const key = 'db/t/data/ts_day=2024-01-01/name=a b+c/ünï (1)!*.parquet';
  const listing = () => new Response('<ListBucketResult><IsTruncated>false</IsTruncated><Contents><Key>x/y</Key></Contents></ListBucketResult>');
  const requests = [
    ...(await capture((io) => io.readFile(`s3://warehouse/${key}`))),
    ...(await capture((io) => io.readRange(`s3://warehouse/${key}`, 4, 8))),
    ...(await capture((io) => io.stat(`s3://warehouse/${key}`), { answer: () => new Response(null, { headers: { 'content-length': '3' } }) })),
    ...(await capture((io) => io.list('s3://warehouse/db/t/data/ts_day=2024-01-01'), { answer: listing })),
  ];
  t.equal(requests.length, 4);
  for (const req of requests) {
    const auth = parseAuthorization(req.headers.authorization)!;
    t.equal(expectedSignature(req, CREDENTIALS.secretAccessKey, auth), auth.signature, `${req.method} ${req.url}`);
    t.equal(new URL(req.url).pathname, canonicalUri(new URL(req.url)), 'the path sent is the canonical path signed');
  }
  t.equal(requests[1]!.headers.range, 'bytes=4-11');
  t.equal(requests[2]!.method, 'HEAD');
});

t.test('a session token is sent as X-Amz-Security-Token and covered by the signature', async (t) => {
  const [req] = await capture((io) => io.readFile('s3://warehouse/a'), { sessionToken: 'FQoGZXIvYXdzE//token+with/slashes=' });
  t.equal(req!.headers['x-amz-security-token'], 'FQoGZXIvYXdzE//token+with/slashes=');
  const auth = parseAuthorization(req!.headers.authorization)!;
  t.ok(auth.signedHeaders.includes('x-amz-security-token'));
  t.equal(expectedSignature(req!, CREDENTIALS.secretAccessKey, auth), auth.signature);
});

t.test('without credentials requests go unsigned', async (t) => {
  const cap = capturingFetch();
  const io = createS3FileIO({ endpoint: 'http://127.0.0.1:9000', region: 'us-east-1', pathStyle: true, fetch: cap.fetch });
  t.equal((await io.readFile('s3://public/a.txt')).toString(), '0123456789');
  t.equal(cap.requests[0]!.headers.authorization, undefined);
});
