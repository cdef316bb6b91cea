/**
 * ListObjectsV2 answers (`list-type=2`, delimiter `/`), read with a few patterns: the
 * response is a flat, well-known document and only keys, common prefixes and the paging
 * fields are needed.
 */

export interface ListPage {
  /** Object keys (`<Contents><Key>`), XML-unescaped. */
  readonly keys: string[];
  /** Folder prefixes (`<CommonPrefixes><Prefix>`), each ending in the delimiter. */
  readonly prefixes: string[];
  /** The token of the next page, when the listing is truncated. */
  readonly nextToken: string | undefined;
  readonly truncated: boolean;
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
