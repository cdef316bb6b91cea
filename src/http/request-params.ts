import type { Namespace } from '../iceberg/index.js';
import { fail, type ErrorCode } from '../errors/index.js';
import { NAMESPACE_SEPARATOR } from '../service/index.js';

/**
 * Path and query decoding. Path parameters are read from the raw request target, not from the
 * router's decoded params, so that decoding happens exactly once, the way Iceberg Java's
 * RESTUtil does: split the namespace on the encoded separator, then URL-decode each level
 * (`%2F` stays inside its level, `%25` is decoded once, `+` is a space as in URLDecoder — Java
 * clients encode spaces in path segments as `+`, and encode a literal `+` as `%2B`).
 */

/** The path of a request target, still percent-encoded, without query or fragment. */
export function rawPath(url: string): string {
  // origin-form (RFC 9112 §3.2.1), what nearly every request sends, needs no scheme match
  const origin = url.charCodeAt(0) === 0x2f ? null : /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^/?#]*/.exec(url);
  const path = origin ? url.slice(origin[0].length) || '/' : url;
  // two scans, not a regex search: this runs several times a request (issue #12 profile)
  let end = path.indexOf('?');
  const hash = path.indexOf('#');
  if (hash !== -1 && (end === -1 || hash < end)) end = hash;
  return end === -1 ? path : path.slice(0, end);
}

/**
 * A request URL as logged: a plan id is a bearer of its pinned scan (and, unsigned, of what the
 * table holds), so the segment after `/plan/` is replaced.
 */
export function loggedUrl(url: string): string {
  return url.replace(/\/plan\/[^/?#]+/, '/plan/{plan-id}');
}

/** Raw values of a spec template's `{name}` placeholders, matched segment by segment. */
export function rawPathParams(specPath: string, url: string): Record<string, string> {
  const { segments, placeholders } = templateOf(specPath);
  const path = rawPath(url);
  const params: Record<string, string> = {};
  // segment by segment, slicing only the placeholders' (a split made every segment a string)
  let next = 0;
  let segment = 0;
  let start = 0;
  for (;;) {
    const slash = path.indexOf('/', start);
    const end = slash === -1 ? path.length : slash;
    const at = placeholders[next];
    if (at !== undefined && at[0] === segment) {
      params[at[1]] = path.slice(start, end);
      next++;
    }
    segment++;
    if (slash === -1) break;
    start = slash + 1;
  }
  if (segment !== segments) throw fail('BAD_REQUEST', 'Malformed request path');
  return params;
}

/** A spec template split once: its segment count and where its `{name}` placeholders stand. */
interface PathTemplate {
  readonly segments: number;
  readonly placeholders: readonly (readonly [number, string])[];
}
const templates = new Map<string, PathTemplate>();
function templateOf(specPath: string): PathTemplate {
  let template = templates.get(specPath);
  if (template === undefined) {
    const segments = specPath.split('/');
    const placeholders = segments.flatMap((segment, i) => {
      const name = /^\{(.+)\}$/.exec(segment)?.[1];
      return name === undefined ? [] : [[i, name] as const];
    });
    template = { segments: segments.length, placeholders };
    templates.set(specPath, template);
  }
  return template;
}

/** RESTUtil.decodeString: `+` is a space, then UTF-8 percent-decoding; malformed input is a 400. */
export function decodeSegment(raw: string, code: ErrorCode, what: string): string {
  // nothing to decode: most names are plain (and decoding ran per audited request)
  if (raw.indexOf('%') === -1 && raw.indexOf('+') === -1) return raw;
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    throw fail(code, `Invalid ${what}: malformed percent-encoding`);
  }
}

// `%1F` holds no regex metacharacter; hex digits match in either case.
const ENCODED_SEPARATOR = new RegExp(NAMESPACE_SEPARATOR, 'i');

// REST spec parameters.namespace: levels separated by the advertised separator (%1F).
export function decodeNamespacePath(raw: string): Namespace {
  if (raw === '') return [];
  // one level, nothing encoded: most namespaces (no separator, no escape, no `+`)
  if (raw.indexOf('%') === -1 && raw.indexOf('+') === -1) return [raw];
  return raw.split(ENCODED_SEPARATOR).map((level) => decodeSegment(level, 'INVALID_NAMESPACE', 'namespace'));
}

/**
 * The `parent` query parameter, already query-decoded. REST spec listNamespaces: an empty value
 * means absent; levels are split on 0x1F. Iceberg Java before 1.7 joined levels with the literal
 * text `%1F` and let the HTTP client encode it again, so that literal is accepted as well.
 */
export function parseParentParam(value: string | undefined): Namespace {
  if (value === undefined || value === '') return [];
  return value.split(/\x1f|%1F/i);
}

/** One query parameter as a string; repeating it is a 400 (`code`). */
export function queryParam(query: unknown, name: string, code: ErrorCode = 'BAD_REQUEST'): string | undefined {
  const value = (query as Record<string, unknown> | undefined)?.[name];
  if (value === undefined || typeof value === 'string') return value;
  throw fail(code, `Query parameter ${name} must be given once`);
}

