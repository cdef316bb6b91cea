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

/**
 * An If-None-Match value with every `W/` dropped, for an upstream: If-None-Match compares weakly
 * (RFC 9110 §13.1.2), so this asks the same, and an upstream that compares tags as text still
 * recognises the tag Icefront weakened when it compressed that upstream's answer.
 */
export function strongTags(header: string): string {
  return header.replace(/(^|,)\s*W\//g, '$1');
}

/** The weak form of an entity tag (RFC 9110 §8.8.1): what a compressed representation of the same answer carries. */
export function weakTag(etag: string): string {
  return etag.startsWith('W/') ? etag : `W/${etag}`;
}
