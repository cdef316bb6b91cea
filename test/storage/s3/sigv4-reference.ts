/**
 * An independent SigV4 verifier for tests, written from the AWS spec ("Authenticating
 * Requests: Using the Authorization Header (AWS Signature Version 4)") with node:crypto only,
 * and itself checked against AWS's published S3 examples in sigv4.test.ts.
 */
import crypto from 'node:crypto';

export interface CapturedRequest {
  readonly method: string;
  readonly url: string;
  /** Header names lower-cased. */
  readonly headers: Readonly<Record<string, string>>;
}

export interface ParsedAuthorization {
  readonly accessKeyId: string;
  readonly date: string;
  readonly region: string;
  readonly service: string;
  readonly signedHeaders: string[];
  readonly signature: string;
}

const AUTH = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, SignedHeaders=([a-z0-9;-]+), Signature=([0-9a-f]{64})$/;

export function parseAuthorization(header: string | undefined): ParsedAuthorization | undefined {
  const m = header === undefined ? null : AUTH.exec(header);
  if (!m) return undefined;
  return { accessKeyId: m[1]!, date: m[2]!, region: m[3]!, service: m[4]!, signedHeaders: m[5]!.split(';'), signature: m[6]! };
}

/** RFC 3986 percent-encoding of UTF-8 bytes: only A-Z a-z 0-9 - _ . ~ stay (the spec's UriEncode). */
export function uriEncode(text: string, encodeSlash = true): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const ch = String.fromCharCode(byte);
    if (/[A-Za-z0-9\-_.~]/.test(ch) || (ch === '/' && !encodeSlash)) out += ch;
    else out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** The canonical URI of an S3 request: each segment decoded, then UriEncoded once. */
export function canonicalUri(url: URL): string {
  return url.pathname
    .split('/')
    .map((s) => uriEncode(decodeURIComponent(s)))
    .join('/');
}

export function canonicalQuery(url: URL): string {
  const pairs = url.search
    .slice(1)
    .split('&')
    .filter((p) => p !== '')
    .map((p) => {
      const eq = p.indexOf('=');
      const [k, v] = eq < 0 ? [p, ''] : [p.slice(0, eq), p.slice(eq + 1)];
      return [uriEncode(decodeURIComponent(k)), uriEncode(decodeURIComponent(v))] as const;
    });
  pairs.sort(([k1, v1], [k2, v2]) => (k1 < k2 ? -1 : k1 > k2 ? 1 : v1 < v2 ? -1 : v1 > v2 ? 1 : 0));
  return pairs.map(([k, v]) => `${k}=${v}`).join('&');
}

export function canonicalRequest(req: CapturedRequest, signedHeaders: readonly string[]): string {
  const url = new URL(req.url);
  const headerLines = signedHeaders.map((name) => {
    const value = name === 'host' ? url.host : (req.headers[name] ?? '');
    return `${name}:${value.trim().replace(/\s+/g, ' ')}`;
  });
  return [
    req.method.toUpperCase(),
    canonicalUri(url),
    canonicalQuery(url),
    `${headerLines.join('\n')}\n`,
    signedHeaders.join(';'),
    req.headers['x-amz-content-sha256'] ?? sha256Hex(''),
  ].join('\n');
}

/** The signature AWS would compute for `req` with `secretAccessKey`. */
export function expectedSignature(req: CapturedRequest, secretAccessKey: string, auth: ParsedAuthorization): string {
  const amzDate = req.headers['x-amz-date'] ?? '';
  const scope = `${auth.date}/${auth.region}/${auth.service}/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256Hex(canonicalRequest(req, auth.signedHeaders))].join('\n');
  let key: Buffer = hmac(`AWS4${secretAccessKey}`, auth.date);
  for (const part of [auth.region, auth.service, 'aws4_request']) key = hmac(key, part);
  return hmac(key, stringToSign).toString('hex');
}

function hmac(key: string | Buffer, data: string): Buffer {
  return crypto.createHmac('sha256', key).update(data, 'utf8').digest();
}

function sha256Hex(data: string): string {
  return crypto.createHash('sha256').update(data, 'utf8').digest('hex');
}
