import t from 'tap';
import { createFilesystemCatalog, type Catalog, type LoadedTable } from '../../../src/catalogs/index.js';
import { isIcefrontError } from '../../../src/errors/index.js';
import { currentSnapshot, type Namespace } from '../../../src/iceberg/index.js';
import {
  FILES_OF,
  REAL_FIXTURES_SKIP,
  realFixturesAvailable,
  realFixturesCatalogConfig,
  realFixturesIndex,
} from '../../helpers/real-fixtures.js';

/**
 * Tables where INDEX.json's rule ("newest last-updated-ms") and ours (Java's: version-hint followed
 * forward while the next version exists, else the highest version, ties by last-updated-ms) pick
 * different files, with the file our rule picks. (dremio-oss/partitionednation's hint says 2
 * although v3 and v4 exist: followed forward, both rules pick v4.)
 */
const RULE_DIFFERS: Record<string, { ours: string; why: string }> = {
  'duckdb-iceberg/name_mapping/warehouse_1/mydb/t1': {
    ours: 'metadata/v7.metadata.json',
    why: 'version-hint.text says 7; v3.1/v3.2/v4.1 are newer by last-updated-ms but the hint names v7',
  },
  'duckdb-iceberg/equality_delete_extra_column/warehouse/ns/t': {
    ours: 'metadata/00001-55453390-51ec-4023-a1fa-290a9ae468fa.metadata.json',
    why: 'vfinal.metadata.json carries no version number, so it ranks below the numbered 00001-…',
  },
};

const skip = realFixturesAvailable() ? false : REAL_FIXTURES_SKIP;

/** Every table reachable through listNamespaces/listTables, as `ns/.../name` paths. */
async function discover(catalog: Catalog, parent: Namespace = []): Promise<string[]> {
  const found: string[] = [];
  if (parent.length > 0) for (const id of await catalog.listTables(parent)) found.push([...id.namespace, id.name].join('/'));
  for (const child of await catalog.listNamespaces(parent)) found.push(...(await discover(catalog, child)));
  return found;
}

function identifierOf(fixture: string) {
  const levels = fixture.split('/');
  return { namespace: levels.slice(0, -1), name: levels[levels.length - 1]! };
}

t.test('every real fixture table is discovered, loads, and its files resolve', { skip }, async (t) => {
  const index = realFixturesIndex();
  const catalog = createFilesystemCatalog(realFixturesCatalogConfig());
  const discovered = (await discover(catalog)).sort();
  t.same(discovered, index.map((f) => f.fixture).sort(), 'discovered tables = INDEX.json fixtures');

  const loaded = new Map<string, LoadedTable>();
  for (const fixture of index) {
    try {
      loaded.set(fixture.fixture, await catalog.loadTable(identifierOf(fixture.fixture)));
    } catch (err) {
      t.ok(isIcefrontError(err, 'INVALID_METADATA'), `${fixture.fixture}: a table that cannot load says INVALID_METADATA (${String(err)})`);
    }
  }
  t.equal(loaded.size, index.length, 'every table loads');

  t.test('each table loads with the uuid and current metadata INDEX.json reports', async (t) => {
    for (const fixture of index) {
      const table = loaded.get(fixture.fixture);
      if (!table) continue;
      t.equal(table.metadata.tableUuid ?? null, fixture.report.table_uuid, `${fixture.fixture}: table uuid`);
      const differs = RULE_DIFFERS[fixture.fixture];
      const expected = differs ? differs.ours : fixture.report.current_metadata;
      t.ok(table.metadataLocation.endsWith(`/${expected}`), `${fixture.fixture}: current metadata ${expected} (got ${table.metadataLocation})`);
      if (differs) t.not(expected, fixture.report.current_metadata, `${fixture.fixture}: INDEX.json still disagrees (${differs.why})`);
    }
  });

  t.test("each reported metadata location resolves back through the table's FileIO", async (t) => {
    for (const [fixture, table] of loaded) {
      t.equal(await table.io.exists(table.metadataLocation), true, `${fixture}: ${table.metadataLocation}`);
    }
  });

  t.test("the current snapshot's manifest list resolves to a file, unless INDEX.json lists it missing", async (t) => {
    for (const fixture of index) {
      const table = loaded.get(fixture.fixture);
      const snapshot = table && currentSnapshot(table.metadata);
      if (!table || !snapshot) continue;
      const recorded = snapshot.manifestList !== undefined ? [snapshot.manifestList] : [...(snapshot.manifests ?? [])];
      t.ok(recorded.length > 0, `${fixture.fixture}: the snapshot names a manifest list or manifests`);
      for (const location of recorded) {
        const missing = fixture.report.missing_referenced.includes(location) && FILES_OF[fixture.fixture] === undefined;
        t.equal(await table.io.exists(location), !missing, `${fixture.fixture}: ${location}${missing ? ' (listed missing)' : ''}`);
      }
    }
  });
});

t.test('without any remap, paths recorded relative to a working directory, under a mistyped location or under a location ending in /metadata resolve by suffix', { skip }, async (t) => {
  const bare = createFilesystemCatalog({ ...realFixturesCatalogConfig(), locations: [] });
  // big_query_error: gs:// location, manifest list recorded as data/persistent/…; large_partitioned_table:
  // location typo data/persisten/…; manifest_files: location ends in /metadata, the list sits in <table>/metadata/.
  for (const fixture of ['duckdb-iceberg/big_query_error', 'duckdb-iceberg/large_partitioned_table', 'iceberg-cxx/meta_perf/warehouse/performance/manifest_files']) {
    const table = await bare.loadTable(identifierOf(fixture));
    const list = currentSnapshot(table.metadata)?.manifestList;
    t.ok(list, `${fixture}: has a manifest list`);
    t.equal(await table.io.exists(list!), true, `${fixture}: ${list} resolves below the table's folder`);
  }
  // partitioned_table_with_missing_spec records its sibling's location; only a configured remap finds those files.
  const copy = await bare.loadTable(identifierOf('iceberg-cxx/tables/partitioned_table_with_missing_spec'));
  const list = currentSnapshot(copy.metadata)!.manifestList!;
  t.equal(await copy.io.exists(list), false, `${list}: not below the table's own folder, so not found without a remap`);
});
