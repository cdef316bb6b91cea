/**
 * RFC 9110 §13.1.2 If-None-Match: `*` matches any current representation; otherwise a list of
 * entity tags compared weakly (a `W/` prefix is ignored). Unquoted tags from lax clients are
 * compared by their text.
 */
export function ifNoneMatchHits(header: string | readonly string[] | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const value = typeof header === 'string' ? header : header.join(',');
  const wanted = opaque(etag);
  for (const match of value.matchAll(/\s*(?:W\/)?("[^"]*"|[^,\s]+)\s*(?:,|$)/g)) {
    const tag = match[1]!;
    if (tag === '*' || opaque(tag) === wanted) return true;
  }
  return false;
}

function opaque(tag: string): string {
  return tag.length >= 2 && tag.startsWith('"') && tag.endsWith('"') ? tag.slice(1, -1) : tag;
}
