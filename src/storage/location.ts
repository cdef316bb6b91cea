/**
 * Textual normalisation of recorded locations, so that the spellings different writers use for
 * the same place compare equal: `file:/x` ≡ `file:///x` ≡ `/x`, `s3a://` ≡ `s3n://` ≡ `s3://`,
 * `./x` ≡ `x` ≡ `file://x` (a relative path some writers prefix with `file://`), repeated and
 * trailing slashes dropped. No percent-decoding: Hadoop-style writers record paths unencoded,
 * and hive partition folders are literally named `k=a%3Ab` on disk.
 */

/** A normalised location: `kind` says how `path` is to be read. */
export interface NormalLocation {
  /** `local`: absolute POSIX path; `relative`: relative path text; `remote`: `scheme://authority/path`. */
  readonly kind: 'local' | 'relative' | 'remote';
  /** The canonical text; compare these with `stripPrefix`. */
  readonly text: string;
}

const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):(.*)$/s;
const S3_ALIASES = new Set(['s3a', 's3n']);

export function normalizeLocation(location: string): NormalLocation {
  const m = SCHEME.exec(location);
  if (m && m[2]!.startsWith('/')) {
    const scheme = m[1]!.toLowerCase();
    const rest = m[2]!;
    if (scheme === 'file') return normalizeFile(rest);
    const afterSlashes = rest.startsWith('//') ? rest.slice(2) : rest.replace(/^\/+/, '');
    const slash = afterSlashes.indexOf('/');
    const authority = slash < 0 ? afterSlashes : afterSlashes.slice(0, slash);
    const pathPart = slash < 0 ? '' : cleanPath(afterSlashes.slice(slash));
    const canonical = S3_ALIASES.has(scheme) ? 's3' : scheme;
    return { kind: 'remote', text: `${canonical}://${authority}${pathPart === '/' ? '' : pathPart}` };
  }
  if (location.startsWith('/')) return { kind: 'local', text: cleanPath(location) };
  return { kind: 'relative', text: cleanRelative(location) };
}

/** `file:` URIs: `file:/x`, `file:///x`, `file://localhost/x` are local; `file://x/y` is relative text. */
function normalizeFile(rest: string): NormalLocation {
  if (!rest.startsWith('//')) return { kind: 'local', text: cleanPath(rest) };
  const body = rest.slice(2);
  if (body.startsWith('/')) return { kind: 'local', text: cleanPath(body) };
  if (body === 'localhost' || body.startsWith('localhost/')) return { kind: 'local', text: cleanPath(body.slice(9) || '/') };
  return { kind: 'relative', text: cleanRelative(body) };
}

/** Absolute path: collapse `//`, drop trailing `/` (except the root itself). */
function cleanPath(p: string): string {
  const collapsed = p.replace(/\/{2,}/g, '/');
  return collapsed.length > 1 ? collapsed.replace(/\/$/, '') : collapsed;
}

/** Relative path: also drop leading `./` segments. */
function cleanRelative(p: string): string {
  let s = p.replace(/\/{2,}/g, '/');
  while (s.startsWith('./')) s = s.slice(2);
  if (s === '.') s = '';
  return s.replace(/\/$/, '');
}

/**
 * The part of `location` below `prefix` ('' when equal), or undefined when `location` is not
 * under `prefix`. Matches whole path segments only (`s3://b/t` is not a prefix of `s3://b/t2`).
 */
export function stripPrefix(location: NormalLocation, prefix: NormalLocation): string | undefined {
  if (location.kind !== prefix.kind) return undefined;
  const l = location.text;
  const p = prefix.text;
  if (p === '') return undefined;
  if (l === p) return '';
  const withSlash = p.endsWith('/') ? p : `${p}/`;
  return l.startsWith(withSlash) ? l.slice(withSlash.length) : undefined;
}
