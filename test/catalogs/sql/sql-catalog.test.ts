/**
 * A `sql` catalog's commit against another replica on the same database (src/catalogs/sql/sql-catalog.ts):
 * two catalogs over one SQLite file, each with its own local metadata writer.
 */
import t, { type Test } from 'tap';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { setTimeout as sleep } from 'node:timers/promises';
import { createSqlCatalog, openSqlStore, type Catalog, type CatalogWrites } from '../../../src/catalogs/index.js';
import { parseCreateTableRequest, parseTableChange } from '../../../src/commits/index.js';
import { createLocalFileIO, createLocalFileWriter, type FileWriter } from '../../../src/storage/index.js';

const SCHEMA = { type: 'struct', 'schema-id': 0, fields: [{ id: 1, name: 'id', required: true, type: 'long' }] };
const TABLE = { namespace: ['db'], name: 't' };

/** A replica's catalog over the shared database and warehouse, writing through `writer`. */
function replica(t: Test, db: string, warehouse: string, writer: FileWriter): Catalog & { writes: CatalogWrites } {
  const catalog = createSqlCatalog({
    name: 'lake',
    warehouseLocation: `file://${warehouse}`,
    planning: true,
    readOnly: false,
    store: openSqlStore({ uri: `sqlite:${db}`, catalogName: 'lake' }),
    io: createLocalFileIO({ roots: [warehouse] }),
    writer,
  });
  t.teardown(() => catalog.close?.());
  return catalog as Catalog & { writes: CatalogWrites };
}

const setProperty = (uuid: string | undefined, key: string) =>
  parseTableChange({ requirements: [{ type: 'assert-table-uuid', uuid }], updates: [{ action: 'set-properties', updates: { [key]: 'v' } }] }, '', false);

t.test("a commit that lost a race is tried again without waiting for its unreferenced file's removal", async (t) => {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'icefront-sql-catalog-')));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  const warehouse = path.join(dir, 'wh');
  fs.mkdirSync(warehouse);
  const db = path.join(dir, 'catalog.db');
  const plain = createLocalFileWriter([warehouse]);
  const a = replica(t, db, warehouse, plain);

  // b's first metadata file is written after a has moved the row (so b's swap loses), and the
  // removal of that file hangs until the test lets it go, as a slow store's would
  let firstFile: string | undefined;
  let letGo!: () => void;
  const held = new Promise<void>((resolve) => (letGo = resolve));
  let removal: Promise<void> | undefined;
  const slowWriter: FileWriter = {
    ...plain,
    createExclusive: async (location, bytes) => {
      if (firstFile === undefined) {
        firstFile = location;
        const current = await a.loadTable(TABLE);
        await a.writes.commit([{ identifier: TABLE, change: setProperty(current.metadata.tableUuid, 'from-a') }]);
      }
      return plain.createExclusive(location, bytes);
    },
    deleteFile: (location) => (removal = held.then(() => plain.deleteFile(location))),
  };
  const b = replica(t, db, warehouse, slowWriter);

  await a.writes.createNamespace(['db'], {});
  const created = await a.writes.createTable(['db'], parseCreateTableRequest({ name: 't', schema: SCHEMA }));
  const uuid = created.metadata.tableUuid;

  const commit = b.writes.commit([{ identifier: TABLE, change: setProperty(uuid, 'from-b') }]);
  const patience = new AbortController();
  const first = await Promise.race([commit.then(() => 'answered'), sleep(5000, 'still waiting', { signal: patience.signal }).catch(() => '')]);
  patience.abort();
  t.equal(first, 'answered', "b's commit is answered while the lost attempt's file is still being removed");
  const [after] = await commit;
  t.same(
    { a: after!.metadata.properties['from-a'], b: after!.metadata.properties['from-b'] },
    { a: 'v', b: 'v' },
    "b's retry applied its change on a's version",
  );
  t.not(after!.metadataLocation, firstFile, 'the retry wrote a file of its own');
  t.ok(fs.existsSync(new URL(firstFile!)), "the lost attempt's file is still there while its removal waits");

  letGo();
  await removal;
  t.notOk(fs.existsSync(new URL(firstFile!)), 'then it is removed');
  // the store itself, read as JdbcCatalog reads it: the row names b's file, and that file holds both changes
  const sqlite = new DatabaseSync(db, { readOnly: true });
  const row = sqlite.prepare("SELECT metadata_location FROM iceberg_tables WHERE catalog_name = 'lake' AND table_namespace = 'db' AND table_name = 't'").get();
  sqlite.close();
  t.equal(row?.['metadata_location'], after!.metadataLocation, "the database's row names the version b committed");
  const written = JSON.parse(fs.readFileSync(new URL(after!.metadataLocation), 'utf8')) as { properties: Record<string, string> };
  t.same({ a: written.properties['from-a'], b: written.properties['from-b'] }, { a: 'v', b: 'v' }, 'its metadata file holds both changes');
});
