/**
 * Deleting S3 objects: DeleteObjects (`POST /<bucket>?delete`, up to 1,000 keys a request, quiet
 * mode: only failures are answered), and DeleteObject for a key XML 1.0 cannot carry. S3 answers
 * a delete of a missing key as a success, so deleting twice is not an error.
 */
import { createHash } from 'node:crypto';
import { fail } from '../../errors/index.js';
import { unescapeXml } from './s3-list.js';
import type { S3Transport } from './s3-transport.js';
import type { S3UrlBuilder } from './s3-url.js';

/** S3 API Reference, DeleteObjects: "the request can contain a list of up to 1000 keys". */
export const DELETE_BATCH_KEYS = 1000;

/** Characters XML 1.0 has no way to write, not even as a character reference. */
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;

/**
 * Deletes `keys` of `bucket` (any number; one request per 1,000). A key S3 refuses to delete is
 * STORAGE_FAILURE (FORBIDDEN for AccessDenied) naming `location` and S3's error code.
 */
export async function deleteKeys(transport: S3Transport, urls: S3UrlBuilder, bucket: string, keys: readonly string[], location: string): Promise<void> {
  const xmlKeys = keys.filter((k) => !NOT_XML.test(k));
  for (const key of keys.filter((k) => NOT_XML.test(k))) await deleteKey(transport, urls, bucket, key, location);
  for (let i = 0; i < xmlKeys.length; i += DELETE_BATCH_KEYS) {
    const body = Buffer.from(deleteRequestXml(xmlKeys.slice(i, i + DELETE_BATCH_KEYS)), 'utf8');
    // DeleteObjects requires Content-MD5 (or an x-amz-checksum-* header) of the body
    const headers = { 'content-md5': createHash('md5').update(body).digest('base64'), 'content-type': 'application/xml' };
    const failure = await transport.exchange({ method: 'POST', url: urls.bucketUrl(bucket, 'delete='), location, headers, body, action: 'write' }, async (res) =>
      firstDeleteError(await res.text()),
    );
    if (failure) {
      const code = failure.code === 'AccessDenied' ? 'FORBIDDEN' : 'STORAGE_FAILURE';
      throw fail(code, `Cannot delete ${location} (S3 refused ${failure.count} key${failure.count === 1 ? '' : 's'}: ${failure.code})`);
    }
  }
}

/** DeleteObject of one key; a missing key is not an error. */
export async function deleteKey(transport: S3Transport, urls: S3UrlBuilder, bucket: string, key: string, location: string): Promise<void> {
  await transport.exchange({ method: 'DELETE', url: urls.objectUrl(bucket, key), location, action: 'write', accept: [404] }, async (res) => {
    await res.body?.cancel().catch(() => undefined);
  });
}

/** The request body: `<Delete><Quiet>true</Quiet><Object><Key>…</Key></Object>…</Delete>`. */
export function deleteRequestXml(keys: readonly string[]): string {
  const objects = keys.map((k) => `<Object><Key>${escapeXml(k)}</Key></Object>`).join('');
  return `<?xml version="1.0" encoding="UTF-8"?><Delete xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Quiet>true</Quiet>${objects}</Delete>`;
}

/** The `<Error>` entries of a DeleteResult: how many, and the first one's `<Code>`; undefined when none. */
export function firstDeleteError(xml: string): { readonly code: string; readonly count: number } | undefined {
  const errors = [...xml.matchAll(/<Error>([\s\S]*?)<\/Error>/g)];
  if (errors.length === 0) return undefined;
  const code = /<Code>([\s\S]*?)<\/Code>/.exec(errors[0]![1]!)?.[1];
  return { code: code === undefined ? 'unknown error' : unescapeXml(code).slice(0, 64), count: errors.length };
}

/** Text content: `&`, `<`, `>`, and `\r` (which an XML parser would turn into `\n`). */
function escapeXml(text: string): string {
  return text.replace(/[&<>\r]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&#13;'));
}
