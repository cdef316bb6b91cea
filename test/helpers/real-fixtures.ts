/**
 * The 171 real Iceberg tables in ../shared/fixtures/real (see its INDEX.md) as a filesystem
 * catalog. Most tables resolve through their own recorded `location`; the remaps below cover the
 * files that live outside it.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { FilesystemCatalogConfig, LocationRemap } from '../../src/config/index.js';

const REPO = path.resolve(import.meta.dirname, '../..');
export const REAL_FIXTURES_DIR = path.resolve(REPO, '../shared/fixtures/real');

export function realFixturesAvailable(): boolean {
  return fs.existsSync(path.join(REAL_FIXTURES_DIR, 'INDEX.json'));
}

/** Message for `t.skip` / `{ skip }` when the shared fixtures are absent. */
export const REAL_FIXTURES_SKIP = `real fixtures not found at ${REAL_FIXTURES_DIR} (../shared is absent)`;

/**
 * Remaps for files that live outside their table's own folder, as an operator would configure
 * them. Paths recorded relative to a writer's working directory (DuckDB's `data/persistent/…`), a
 * `location` with a typo, or one ending in `/metadata` need none: they resolve by suffix below the
 * table's folder.
 */
const REMAPS: ReadonlyArray<readonly [prefix: string, dir: string]> = [
  // Impala iceberg_multiple_storage_locations: data in sibling folders *_data, *_data01, *_data02.
  ['/test-warehouse/iceberg_test/hadoop_catalog/ice', 'impala/hadoop_catalog/ice'],
  // iceberg-cxx v_20240913: partition folders beside the table folder `iceberg`.
  ['s3a://dl-test-maintenance/check/tea-partitioned/v_20240913', 'iceberg-cxx/tables/v_20240913'],
  // iceberg-cxx partitioned_table_with_{missing_spec,multiple_spec,void_transform}: hand-edited
  // copies of partitioned_table's metadata JSON alone; their location and files are that table's.
  ['s3a://warehouse/partitioned_table', 'iceberg-cxx/tables/partitioned_table'],
  // iceberg-cxx meta_perf manifest_files: its data files belong to warehouse/gperov/test.
  ['s3://warehouse/gperov', 'iceberg-cxx/warehouse/gperov'],
];

/**
 * Fixtures that are only a hand-edited metadata JSON over another fixture's files (same location):
 * INDEX.json lists their manifest lists missing and counts no files; the facts are the other's.
 */
export const FILES_OF: Readonly<Record<string, string>> = Object.fromEntries(
  ['with_missing_spec', 'with_multiple_spec', 'with_void_transform'].map((s) => [`iceberg-cxx/tables/partitioned_table_${s}`, 'iceberg-cxx/tables/partitioned_table']),
);

export function realFixturesCatalogConfig(name = 'real'): FilesystemCatalogConfig {
  const locations: LocationRemap[] = REMAPS.map(([prefix, dir]) => ({ prefix, dir: path.join(REAL_FIXTURES_DIR, dir) })).sort(
    (a, b) => b.prefix.length - a.prefix.length,
  );
  // the shared fixtures are never written: a read-only catalog answers every mutation 406
  return { type: 'filesystem', name, warehouse: REAL_FIXTURES_DIR, locations, planning: 'on', readOnly: true };
}

/** One row of INDEX.json (the fields tests use). */
export interface RealFixture {
  readonly fixture: string;
  readonly report: {
    readonly location: string;
    readonly table_uuid: string | null;
    readonly current_metadata: string;
    readonly version_hint: string | null;
    readonly missing_referenced: readonly string[];
    readonly format_version: number;
  };
}

export function realFixturesIndex(): RealFixture[] {
  return JSON.parse(fs.readFileSync(path.join(REAL_FIXTURES_DIR, 'INDEX.json'), 'utf8')) as RealFixture[];
}
