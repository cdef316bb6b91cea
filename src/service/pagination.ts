import { createHash } from 'node:crypto';
import { fail } from '../errors/index.js';
import type { PageRequest } from './wire-types.js';

/** Largest page a client may ask for; also the page size when only `pageToken` is sent. */
export const MAX_PAGE_SIZE = 1000;
const MAX_TOKEN_LENGTH = 4096;
const TOKEN_VERSION = 1;

export interface Page<T> {
  readonly items: T[];
  readonly nextPageToken?: string;
}

/**
 * Keyset pagination over a listing, sorted by `keyOf` (UTF-16 code-unit order).
 *
 * REST spec PageToken: without `pageToken` all results come in one response; an empty
 * `pageToken` starts a paginated listing. iceberg-js starts with `pageSize` alone, so either
 * parameter turns pagination on. The token names the last key returned (not an offset), so it
 * stays valid when entries are added or removed, and it is bound to its listing (`scope`):
 * a token from another listing is rejected like any garbage, with INVALID_PAGE.
 */
export function paginate<T>(items: readonly T[], keyOf: (item: T) => string, scope: string, page: PageRequest): Page<T> {
  const keyed = items.map((item) => ({ item, key: keyOf(item) }));
  keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  if (page.pageToken === undefined && page.pageSize === undefined) return { items: keyed.map((k) => k.item) };

  const size = page.pageSize === undefined ? MAX_PAGE_SIZE : parsePageSize(page.pageSize);
  const scopeId = scopeHash(scope);
  const after = page.pageToken ? decodeToken(page.pageToken, scopeId) : undefined;
  const start = after === undefined ? 0 : firstAfter(keyed, after);
  const slice = keyed.slice(start, start + size);
  const more = start + size < keyed.length;
  return {
    items: slice.map((k) => k.item),
    ...(more ? { nextPageToken: encodeToken(scopeId, slice[slice.length - 1]!.key) } : {}),
  };
}

/**
 * `pageSize`: decimal digits only, at least 1 (REST spec parameters.page-size: minimum 1). It is
 * "an upper bound of the number of results that a client will receive": a larger one is lowered
 * to MAX_PAGE_SIZE, not refused.
 */
export function parsePageSize(raw: string): number {
  const n = /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!(n >= 1)) throw fail('INVALID_PAGE', 'Invalid pageSize: must be a whole number of at least 1');
  return Math.min(n, MAX_PAGE_SIZE);
}

function firstAfter(keyed: readonly { key: string }[], after: string): number {
  let lo = 0;
  let hi = keyed.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keyed[mid]!.key <= after) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function scopeHash(scope: string): string {
  return createHash('sha256').update(scope).digest('base64url').slice(0, 16);
}

function encodeToken(scope: string, lastKey: string): string {
  return Buffer.from(JSON.stringify({ v: TOKEN_VERSION, s: scope, k: lastKey })).toString('base64url');
}

function decodeToken(token: string, scope: string): string {
  const invalid = () => fail('INVALID_PAGE', 'Invalid pageToken: not a token this listing issued');
  if (token.length > MAX_TOKEN_LENGTH || !/^[A-Za-z0-9_-]+$/.test(token)) throw invalid();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  const t = parsed as { v?: unknown; s?: unknown; k?: unknown } | null;
  if (typeof t !== 'object' || t === null || t.v !== TOKEN_VERSION || t.s !== scope || typeof t.k !== 'string') throw invalid();
  return t.k;
}
