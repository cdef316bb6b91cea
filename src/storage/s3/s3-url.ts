/**
 * Request URLs for S3 objects and bucket listings, path-style (`endpoint/bucket/key`) or
 * virtual-hosted (`bucket.endpoint/key`). Keys are encoded per segment exactly as SigV4's
 * canonical URI encodes them (RFC 3986 unreserved characters stay, everything else is
 * %XX of its UTF-8 bytes), so the path sent is the path signed.
 */
import { isIP } from 'node:net';
import { fail } from '../../errors/index.js';

export interface S3Addressing {
  /** Base URL of the service, e.g. `http://127.0.0.1:9000`; AWS's regional endpoint when absent. */
  readonly endpoint?: string;
  readonly region: string;
  /** Path-style URLs; virtual-hosted otherwise (where the bucket name allows it). */
  readonly pathStyle: boolean;
}

/** A resolved endpoint: the base URL and whether buckets go into the host name. */
export interface S3UrlBuilder {
  objectUrl(bucket: string, key: string): string;
  /** The bucket itself, with a query string already encoded (`list-type=2&prefix=…`). */
  bucketUrl(bucket: string, query: string): string;
}

export function s3UrlBuilder(addressing: S3Addressing): S3UrlBuilder {
  const base = baseUrl(addressing);
  const basePath = base.pathname.replace(/\/+$/, '');
  // an IP address or `localhost` has no subdomains: only path-style can reach a bucket there
  const hostTakesBuckets = isIP(base.hostname.replace(/^\[|\]$/g, '')) === 0 && base.hostname !== 'localhost';
  const virtual = (bucket: string) => !addressing.pathStyle && hostTakesBuckets && isDnsCompatibleBucket(bucket);
  const prefix = (bucket: string) =>
    virtual(bucket) ? `${base.protocol}//${bucket}.${base.host}${basePath}` : `${base.protocol}//${base.host}${basePath}/${encodeSegment(bucket)}`;
  return {
    objectUrl: (bucket, key) => `${prefix(bucket)}/${encodeKey(key)}`,
    bucketUrl: (bucket, query) => `${virtual(bucket) ? `${prefix(bucket)}/` : prefix(bucket)}${query ? `?${query}` : ''}`,
  };
}

/**
 * Bucket names usable as a TLS-safe host label: lower-case letters, digits and hyphens
 * (names with dots or upper case fall back to path-style, as the AWS SDKs do).
 */
export function isDnsCompatibleBucket(bucket: string): boolean {
  return /^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$/.test(bucket) && !bucket.includes('--');
}

/** A key encoded per `/`-separated segment (SigV4 canonical URI encoding for S3). */
export function encodeKey(key: string): string {
  return key.split('/').map(encodeSegment).join('/');
}

/**
 * One path segment or query value. RFC 3986: encodeURIComponent also leaves `!'()*` alone,
 * which SigV4 encodes. Throws URIError on lone surrogates (parseS3Location refuses those).
 */
export function encodeSegment(segment: string): string {
  return encodeURIComponent(segment).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

function baseUrl({ endpoint, region }: S3Addressing): URL {
  if (endpoint === undefined || endpoint === '') {
    const domain = region.startsWith('cn-') ? 'amazonaws.com.cn' : 'amazonaws.com';
    return new URL(`https://s3.${region}.${domain}`);
  }
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(endpoint) ? endpoint : `https://${endpoint}`);
  } catch {
    throw invalidEndpoint();
  }
  // the endpoint is never echoed: it might carry user info
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password || url.search || url.hash) {
    throw invalidEndpoint();
  }
  return url;
}

function invalidEndpoint() {
  return fail('CONFIG_INVALID', 'Invalid S3 endpoint: expected an http(s) URL without credentials, query or fragment');
}
