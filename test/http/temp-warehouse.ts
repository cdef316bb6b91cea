/**
 * A small warehouse with awkward names, built at test time by copying two real fixture tables
 * into a temp dir. Not a test file: imported by test/http and test/service.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Catalog } from '../../src/catalogs/index.js';
import type { Namespace } from '../../src/iceberg/index.js';
import { createFilesystemCatalog } from '../../src/catalogs/index.js';
import type { FilesystemCatalogConfig } from '../../src/config/index.js';
import { REAL_FIXTURES_DIR } from '../helpers/real-fixtures.js';

/** v2 table, two snapshots, `main` points at 6247215453669530946 (> 2^53). */
export const V2_SOURCE = 'iceberg-cxx/tables/no_partitioning';
export const V2_CURRENT_SNAPSHOT = '6247215453669530946';
/** v1 table with an s3:// location, two snapshots. */
export const V1_SOURCE = 'databend/data_iceberg/iceberg_tbl';

export interface AwkwardTable {
  readonly namespace: Namespace;
  readonly name: string;
  readonly source: string;
}

/** Levels and names with dots, spaces, `%`, `+`, unicode — each a single directory name. */
export const AWKWARD_TABLES: readonly AwkwardTable[] = [
  { namespace: ['dots.and.more'], name: 'tbl.v1', source: V1_SOURCE },
  { namespace: ['sp ace', 'ü ni%code'], name: 't +plus', source: V2_SOURCE },
  { namespace: ['%41'], name: '100%', source: V2_SOURCE },
  { namespace: ['a+b'], name: '🧊 ice', source: V1_SOURCE },
];

export interface TempWarehouse {
  readonly dir: string;
  readonly config: FilesystemCatalogConfig;
  readonly catalog: Catalog;
  remove(): void;
}

export function buildAwkwardWarehouse(name = 'awk'): TempWarehouse {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'icefront-http-'));
  for (const t of AWKWARD_TABLES) {
    fs.cpSync(path.join(REAL_FIXTURES_DIR, t.source), path.join(dir, ...t.namespace, t.name), { recursive: true });
  }
  // read-only: the tests over it are about reads, and a mutation answers 406 (test/http/write-routes.test.ts has the writes)
  const config: FilesystemCatalogConfig = { type: 'filesystem', name, warehouse: dir, locations: [], planning: 'off', readOnly: true };
  return { dir, config, catalog: createFilesystemCatalog(config), remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** Java RESTUtil.encodeString style (URLEncoder: space → `+`). */
export function javaEncode(s: string): string {
  return encodeURIComponent(s).replace(/%20/g, '+').replace(/[!'()~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** A namespace as a path segment, levels joined with %1F. */
export function nsPath(namespace: Namespace, encode: (s: string) => string = encodeURIComponent): string {
  return namespace.map(encode).join('%1F');
}

/** Wraps a catalog and records the namespaces and names each call received, after HTTP decoding. */
export function recordingCatalog(inner: Catalog): { catalog: Catalog; seen: unknown[][] } {
  const seen: unknown[][] = [];
  const catalog: Catalog = {
    name: inner.name,
    type: inner.type,
    planning: inner.planning,
    listNamespaces: (parent) => (seen.push(['listNamespaces', parent]), inner.listNamespaces(parent)),
    loadNamespace: (ns) => (seen.push(['loadNamespace', ns]), inner.loadNamespace(ns)),
    listTables: (ns) => (seen.push(['listTables', ns]), inner.listTables(ns)),
    loadTable: (id) => (seen.push(['loadTable', id.namespace, id.name]), inner.loadTable(id)),
  };
  return { catalog, seen };
}
