/**
 * A `sql` catalog's commits against another replica on the same database (src/catalogs/sql/sql-catalog.ts,
 * and its views, sql-views.ts): two catalogs over one SQLite file, each with its own local metadata writer.
 */
import t, { type Test } from 'tap';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { DatabaseSync } from 'node:sqlite';
import { setTimeout as sleep } from 'node:timers/promises';
import { createSqlCatalog, openSqlStore, type Catalog, type CatalogWrites } from '../../../src/catalogs/index.js';
import { parseCreateTableRequest, parseTableChange } from '../../../src/commits/index.js';
import { parseCreateViewRequest, parseViewChange } from '../../../src/commits/views/index.js';
import { createLocalFileIO, createLocalFileWriter, type FileWriter } from '../../../src/storage/index.js';
import { CREATE_VIEW_REQUEST } from '../../iceberg/view-samples.js';

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

/** A warehouse and a SQLite catalog file in a fresh folder, removed after the test. */
function workspace(t: Test): { warehouse: string; db: string } {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'icefront-sql-catalog-')));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  const warehouse = path.join(dir, 'wh');
  fs.mkdirSync(warehouse);
  return { warehouse, db: path.join(dir, 'catalog.db') };
}

/**
 * A writer that runs `beforeFirst` (another replica's commit) before it writes its first file, so
 * the swap that follows loses, and whose removals hang until `letGo`, as a slow store's would.
 */
function losingWriter(plain: FileWriter, beforeFirst: () => Promise<unknown>) {
  let letGo!: () => void;
  const held = new Promise<void>((resolve) => (letGo = resolve));
  const state: { firstFile?: string; removal?: Promise<void> } = {};
  const writer: FileWriter = {
    ...plain,
    createExclusive: async (location, bytes) => {
      if (state.firstFile === undefined) {
        state.firstFile = location;
        await beforeFirst();
      }
      return plain.createExclusive(location, bytes);
    },
    deleteFile: (location) => (state.removal = held.then(() => plain.deleteFile(location))),
  };
  return { writer, state, letGo };
}

/** Whether `commit` is answered within 5 s (it must not wait for the held removal). */
async function answeredInTime(commit: Promise<unknown>): Promise<boolean> {
  const patience = new AbortController();
  const first = await Promise.race([commit.then(() => 'answered'), sleep(5000, 'still waiting', { signal: patience.signal }).catch(() => '')]);
  patience.abort();
  return first === 'answered';
}

/** The metadata location the database's row for `name` (of `type`) names, read as JdbcCatalog reads it. */
function rowLocation(db: string, name: string, type: 'TABLE' | 'VIEW'): unknown {
  const sqlite = new DatabaseSync(db, { readOnly: true });
  try {
    const kind = type === 'VIEW' ? " AND iceberg_type = 'VIEW'" : " AND (iceberg_type = 'TABLE' OR iceberg_type IS NULL)";
    return sqlite.prepare(`SELECT metadata_location FROM iceberg_tables WHERE catalog_name = 'lake' AND table_namespace = 'db' AND table_name = ?${kind}`).get(name)?.['metadata_location'];
  } finally {
    sqlite.close();
  }
}

t.test("a commit that lost a race is tried again without waiting for its unreferenced file's removal", async (t) => {
  const { warehouse, db } = workspace(t);
  const plain = createLocalFileWriter([warehouse]);
  const a = replica(t, db, warehouse, plain);
  const losing = losingWriter(plain, async () => {
    const current = await a.loadTable(TABLE);
    await a.writes.commit([{ identifier: TABLE, change: setProperty(current.metadata.tableUuid, 'from-a') }]);
  });
  const b = replica(t, db, warehouse, losing.writer);

  await a.writes.createNamespace(['db'], {});
  const created = await a.writes.createTable(['db'], parseCreateTableRequest({ name: 't', schema: SCHEMA }));
  const uuid = created.metadata.tableUuid;

  const commit = b.writes.commit([{ identifier: TABLE, change: setProperty(uuid, 'from-b') }]);
  t.ok(await answeredInTime(commit), "b's commit is answered while the lost attempt's file is still being removed");
  const [after] = await commit;
  t.same(
    { a: after!.metadata.properties['from-a'], b: after!.metadata.properties['from-b'] },
    { a: 'v', b: 'v' },
    "b's retry applied its change on a's version",
  );
  const { firstFile } = losing.state;
  t.not(after!.metadataLocation, firstFile, 'the retry wrote a file of its own');
  t.ok(fs.existsSync(new URL(firstFile!)), "the lost attempt's file is still there while its removal waits");

  losing.letGo();
  await losing.state.removal;
  t.notOk(fs.existsSync(new URL(firstFile!)), 'then it is removed');
  // the store itself: the row names b's file, and that file holds both changes
  t.equal(rowLocation(db, 't', 'TABLE'), after!.metadataLocation, "the database's row names the version b committed");
  const written = JSON.parse(fs.readFileSync(new URL(after!.metadataLocation), 'utf8')) as { properties: Record<string, string> };
  t.same({ a: written.properties['from-a'], b: written.properties['from-b'] }, { a: 'v', b: 'v' }, 'its metadata file holds both changes');
});

t.test("a view commit that lost a race is tried again without waiting for its unreferenced file's removal", async (t) => {
  const { warehouse, db } = workspace(t);
  const plain = createLocalFileWriter([warehouse]);
  const a = replica(t, db, warehouse, plain);
  const VIEW = { namespace: ['db'], name: 'v' };
  const setViewProperty = (uuid: string, key: string) =>
    parseViewChange({ requirements: [{ type: 'assert-view-uuid', uuid }], updates: [{ action: 'set-properties', updates: { [key]: 'v' } }] });
  let uuid = '';
  const losing = losingWriter(plain, () => a.views!.commitView(VIEW, setViewProperty(uuid, 'from-a')));
  const b = replica(t, db, warehouse, losing.writer);

  await a.writes.createNamespace(['db'], {});
  const created = await a.views!.createView(['db'], parseCreateViewRequest({ ...structuredClone(CREATE_VIEW_REQUEST), name: 'v' }));
  uuid = created.metadata.viewUuid;

  const commit = b.views!.commitView(VIEW, setViewProperty(uuid, 'from-b'));
  t.ok(await answeredInTime(commit), "b's view commit is answered while the lost attempt's file is still being removed");
  const after = await commit;
  t.same({ a: after.metadata.properties['from-a'], b: after.metadata.properties['from-b'] }, { a: 'v', b: 'v' }, "b's retry applied its change on a's version");
  const { firstFile } = losing.state;
  t.not(after.metadataLocation, firstFile, 'the retry wrote a file of its own');
  t.ok(fs.existsSync(new URL(firstFile!)), "the lost attempt's file is still there while its removal waits");

  losing.letGo();
  await losing.state.removal;
  t.notOk(fs.existsSync(new URL(firstFile!)), 'then it is removed');
  // the row names b's file, and that file (gzip: views default to it) holds both changes
  t.equal(rowLocation(db, 'v', 'VIEW'), after.metadataLocation, "the database's row names the version b committed");
  const bytes = fs.readFileSync(new URL(after.metadataLocation));
  const written = JSON.parse(zlib.gunzipSync(bytes).toString('utf8')) as { properties: Record<string, string> };
  t.same({ a: written.properties['from-a'], b: written.properties['from-b'] }, { a: 'v', b: 'v' }, 'its metadata file holds both changes');
});
