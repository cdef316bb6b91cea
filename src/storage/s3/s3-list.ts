/**
 * ListObjectsV2 (`list-type=2`): the pages of one listing, and its answers read with a few
 * patterns: the response is a flat, well-known document and only keys, common prefixes and the
 * paging fields are needed.
 */
import { fail } from '../../errors/index.js';
import type { S3Transport } from './s3-transport.js';
import { encodeSegment, type S3UrlBuilder } from './s3-url.js';

export interface ListPage {
  /** Object keys (`<Contents><Key>`), XML-unescaped. */
  readonly keys: string[];
  /** Folder prefixes (`<CommonPrefixes><Prefix>`), each ending in the delimiter. */
  readonly prefixes: string[];
  /** The token of the next page, when the listing is truncated. */
  readonly nextToken: string | undefined;
  readonly truncated: boolean;
}

/** What to list: the keys under `prefix` of `bucket`, one level (`delimiter: '/'`) or all of them. */
export interface ListRequest {
  readonly bucket: string;
  readonly prefix: string;
  /** `/`: keys directly under the prefix, deeper ones as common prefixes; absent: every key below it. */
  readonly delimiter?: '/';
  /** At most this many keys a page (S3's default and largest: 1000). */
  readonly maxKeys?: number;
  /** The location errors name. */
  readonly location: string;
}

/** Every page of a listing, in order, following continuation tokens (a token that does not move on is STORAGE_FAILURE). */
export async function* listPages(transport: S3Transport, urls: S3UrlBuilder, request: ListRequest): AsyncGenerator<ListPage> {
  const { bucket, prefix, delimiter, maxKeys, location } = request;
  let token: string | undefined;
  do {
    const query = `list-type=2${delimiter ? `&delimiter=${encodeSegment(delimiter)}` : ''}${maxKeys ? `&max-keys=${maxKeys}` : ''}&prefix=${encodeSegment(prefix)}${token === undefined ? '' : `&continuation-token=${encodeSegment(token)}`}`;
    const page = await transport.exchange({ method: 'GET', url: urls.bucketUrl(bucket, query), location }, async (res) => parseListPage(await res.text()));
    yield page;
    if (page.truncated && (page.nextToken === undefined || page.nextToken === token))
      throw fail('STORAGE_FAILURE', `Cannot list ${location} (truncated listing without a new continuation token)`);
    token = page.truncated ? page.nextToken : undefined;
  } while (token !== undefined);
}

export function parseListPage(xml: string): ListPage {
  const keys = [...xml.matchAll(/<Contents>([\s\S]*?)<\/Contents>/g)].flatMap((m) => element(m[1]!, 'Key'));
  const prefixes = [...xml.matchAll(/<CommonPrefixes>([\s\S]*?)<\/CommonPrefixes>/g)].flatMap((m) => element(m[1]!, 'Prefix'));
  const truncated = /<IsTruncated>\s*true\s*<\/IsTruncated>/.test(xml);
  const nextToken = element(xml, 'NextContinuationToken')[0];
  return { keys, prefixes, nextToken, truncated };
}

function element(xml: string, name: string): string[] {
  const m = new RegExp(`<${name}>([\\s\\S]*?)</${name}>`).exec(xml);
  return m ? [unescapeXml(m[1]!)] : [];
}

const NAMED: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** XML character and entity references (S3 escapes control characters as `&#x..;`). */
export function unescapeXml(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]{1,6}|#[0-9]{1,7}|amp|lt|gt|quot|apos);/g, (ref, body: string) => {
    if (!body.startsWith('#')) return NAMED[body] ?? ref;
    const code = body.startsWith('#x') ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
    return code <= 0x10ffff ? String.fromCodePoint(code) : ref;
  });
}
