/**
 * `s3://bucket/key` (and the Hadoop spellings `s3a://`, `s3n://`) split into bucket and key.
 * The key is taken literally, as S3 stores it: no slash collapsing and no percent-decoding
 * (hive partition folders are literally named `k=a%3Ab`).
 */
import { fail } from '../../errors/index.js';

export interface S3ObjectLocation {
  readonly bucket: string;
  /** The object key; '' for the bucket itself. */
  readonly key: string;
}

const S3_SCHEME = /^s3[an]?:\/\//i;

/**
 * Bucket and key of an S3 location. Anything else, and keys with `.`/`..` segments (which an
 * HTTP URL cannot carry: they would be resolved away, possibly into another bucket), throw
 * PATH_OUTSIDE_WAREHOUSE naming only the location.
 */
export function parseS3Location(location: string): S3ObjectLocation {
  const m = S3_SCHEME.exec(location);
  // lone surrogates cannot be sent as UTF-8
  if (!m || /\p{Cs}/u.test(location)) throw notS3(location);
  const rest = location.slice(m[0].length);
  const slash = rest.indexOf('/');
  const bucket = slash < 0 ? rest : rest.slice(0, slash);
  const key = slash < 0 ? '' : rest.slice(slash + 1);
  if (bucket === '' || bucket.includes('?') || bucket.includes('#') || bucket.includes('@')) throw notS3(location);
  if (key.split('/').some((segment) => segment === '.' || segment === '..')) throw notS3(location);
  return { bucket, key };
}

function notS3(location: string) {
  return fail('PATH_OUTSIDE_WAREHOUSE', `Not a readable S3 object location: ${location}`);
}
