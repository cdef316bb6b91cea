/**
 * A catalog route's path parameters (prefix, namespace, table), decoded from the raw request
 * target (request-params.ts) and kept per route for the targets used most recently: engines ask for
 * the same few tables over and over, and decoding the path, building its log bindings and
 * formatting them into the access and audit lines was a measurable share of a warm load-table
 * (issue #12 profile). What is kept is frozen and shared by every request for that target.
 */
import { LRUCache } from 'lru-cache';
import type { Namespace } from '../iceberg/index.js';
import { sharedBindings } from './access-line.js';
import { decodeNamespacePath, decodeSegment, rawPathParams } from './request-params.js';

/** Decoded path parameters of a catalog route. */
export interface CatalogPath {
  readonly prefix: string;
  readonly namespace: Namespace;
  readonly table: string;
}

/** A decoded path and the bindings its requests' logs carry (catalog, and namespace and table when the route has them). */
export interface DecodedPath {
  readonly path: CatalogPath;
  readonly bindings: Readonly<Record<string, unknown>>;
}

/** Request targets kept per route; the least recently used is dropped first. */
export const KEPT_TARGETS = 256;
/** Longer targets are decoded each time (they are rare, and each kept one costs its length). */
const MAX_KEPT_TARGET = 256;

const kept = new Map<string, LRUCache<string, DecodedPath>>();

/**
 * The path parameters of `url` under the spec template `specPath`. A malformed target throws
 * (400, or the identifier's code) and is never kept, so it throws again for the next request.
 */
export function decodeCatalogPath(specPath: string, url: string): DecodedPath {
  let targets = kept.get(specPath);
  const held = targets?.get(url);
  if (held !== undefined) return held;
  const decoded = decode(specPath, url);
  if (url.length <= MAX_KEPT_TARGET) {
    if (targets === undefined) kept.set(specPath, (targets = new LRUCache({ max: KEPT_TARGETS })));
    targets.set(url, decoded);
  }
  return decoded;
}

function decode(specPath: string, url: string): DecodedPath {
  const raw = rawPathParams(specPath, url);
  const prefix = raw.prefix === undefined ? '' : decodeSegment(raw.prefix, 'BAD_REQUEST', 'prefix');
  const namespace = Object.freeze(raw.namespace === undefined ? [] : [...decodeNamespacePath(raw.namespace)]);
  const table = raw.table === undefined ? '' : decodeSegment(raw.table, 'INVALID_IDENTIFIER', 'table name');
  const bindings: Record<string, unknown> = { catalog: prefix };
  if (raw.namespace !== undefined) bindings.namespace = namespace;
  if (raw.table !== undefined) bindings.table = table;
  return Object.freeze({ path: Object.freeze({ prefix, namespace, table }), bindings: sharedBindings(bindings) });
}
