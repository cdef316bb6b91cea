import { fail } from '../../errors/index.js';

/** The REST spec's namespace separator in paths, and the only one Icefront speaks to clients. */
export const DEFAULT_NAMESPACE_SEPARATOR = '%1F';

// RFC 3986 §3.3 pchar (unreserved, sub-delims, ':' and '@') plus '/', which separates the
// segments of a multi-segment prefix (Unity Catalog's `catalogs/<name>`).
const PATH_SAFE = /[A-Za-z0-9\-._~!$&'()*+,;=:@/]/;
const ESCAPE = /^%[0-9A-Fa-f]{2}/;

/**
 * An upstream prefix as a raw path string to put after `/v1/`. Java's ResourcePaths joins the
 * prefix verbatim, so existing `%XX` escapes are kept (Nessie sends `main%7Cwh`); characters a
 * path may not hold are percent-encoded (a raw `ref|warehouse` becomes `ref%7Cwarehouse`, one
 * segment); `/` stays a segment separator; outer slashes go.
 */
export function encodePrefix(prefix: string): string {
  let out = '';
  for (let i = 0; i < prefix.length; i++) {
    const c = prefix[i]!;
    if (c === '%' && ESCAPE.test(prefix.slice(i, i + 3))) {
      out += prefix.slice(i, i + 3);
      i += 2;
    } else if (PATH_SAFE.test(c)) {
      out += c;
    } else {
      const cp = prefix.codePointAt(i)!;
      const ch = String.fromCodePoint(cp);
      out += encodeURIComponent(ch);
      i += ch.length - 1;
    }
  }
  return out.replace(/^\/+|\/+$/g, '');
}

/** One path segment, RFC 3986 style (space is %20, never '+'), as Java's `encodePathSegment`. */
export function encodeSegment(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** A namespace path segment in Icefront's own form: levels joined by `%1F` (REST spec `namespace` parameter). */
export function encodeNamespace(levels: readonly string[]): string {
  if (levels.length === 0) throw fail('INVALID_NAMESPACE', 'A namespace needs at least one level');
  return levels.map(encodeSegment).join(DEFAULT_NAMESPACE_SEPARATOR);
}

/**
 * Icefront's raw path after `/v1/{name}` (e.g. `/namespaces/a%1Fb/tables/t`) as the upstream's
 * path: `/v1/{upstream prefix}` + the rest, byte for byte, except that in the namespace segment
 * `%1F` becomes the upstream's separator when it advertises another one (REST spec
 * `namespace-separator`, iceberg#14448). Nothing is decoded or re-encoded.
 */
export function toUpstreamPath(prefix: string | undefined, separator: string, restPath: string): string {
  if (restPath !== '' && !restPath.startsWith('/') && !restPath.startsWith('?')) {
    throw fail('BAD_REQUEST', `Not a path below the catalog prefix: ${restPath}`);
  }
  const encoded = prefix === undefined ? '' : encodePrefix(prefix);
  const head = encoded === '' ? '/v1' : `/v1/${encoded}`;
  return head + translateNamespace(restPath, separator);
}

function translateNamespace(restPath: string, separator: string): string {
  if (separator.toUpperCase() === DEFAULT_NAMESPACE_SEPARATOR) return restPath;
  const match = /^\/namespaces\/([^/?#]*)/.exec(restPath);
  if (!match) return restPath;
  const segment = match[1]!.replace(/%1F/gi, separator);
  return `/namespaces/${segment}${restPath.slice(match[0].length)}`;
}
