/**
 * A `sql` catalog whose warehouse is on S3 (issue #40 item 3), built as the server builds it
 * (catalog-set.ts from a parsed config) over a SQLite file and moto's S3 server: where its files
 * go, what a LoadTableResult's config tells clients, commits, purges, and what it refuses.
 */
import t from 'tap';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildCatalogSet } from '../../../src/catalog-set.js';
import { createByteBudget } from '../../../src/cache/index.js';
import type { CatalogWrites, LoadedTable } from '../../../src/catalogs/index.js';
import { parseCreateTableRequest, parseTableChange } from '../../../src/commits/index.js';
import { parseConfig } from '../../../src/config/index.js';
import { createS3FileIO, createS3FileWriter, type FileIO } from '../../../src/storage/index.js';
import { motoKeys, sqlCatalogOnMoto, startMoto } from '../../interop/harness/moto.js';
import { interopToolchain } from '../../interop/harness/toolchain.js';

const SCHEMA = { type: 'struct', 'schema-id': 0, fields: [{ id: 1, name: 'id', required: true, type: 'long' }] };

const env = await interopToolchain(t);
if (env) {
  const moto = await startMoto(env, ['lake', 'other']);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'icefront-sql-s3-'));
  t.teardown(async () => {
    await moto.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const yaml = ['catalogs:', ...sqlCatalogOnMoto(moto, 'lake', path.join(dir, 'catalog.db'), 's3://lake/wh/'), ''].join('\n');
  const config = parseConfig(yaml, path.join(dir, 'icefront.yaml'), motoKeys(moto));
  const set = buildCatalogSet(config.catalogs, { bufferBudget: createByteBudget(1 << 20) }).next;
  const catalog = set.catalogs.get('lake')!;
  t.teardown(() => catalog.close?.());
  const writes = catalog.writes as CatalogWrites;
  const io: FileIO = createS3FileIO({ endpoint: moto.endpoint, region: moto.region, pathStyle: true, credentials: { accessKeyId: moto.accessKeyId, secretAccessKey: moto.secretAccessKey } });
  const create = async (ns: string, body: Record<string, unknown>) => (await writes.createTable([ns], parseCreateTableRequest({ schema: SCHEMA, ...body }))) as LoadedTable;
  const objects = async (prefix: string): Promise<string[]> => {
    const out: string[] = [];
    const walk = async (d: string) => {
      for (const e of await io.list(d).catch(() => [])) {
        if (e.kind === 'file') out.push(`${d}/${e.name}`);
        else await walk(`${d}/${e.name}`);
      }
    };
    await walk(prefix);
    return out.sort();
  };

  t.test('new tables go below the S3 warehouse, their metadata written there', async (t) => {
    t.equal(catalog.location, 's3://lake/wh');
    await writes.createNamespace(['db'], {});
    t.same(await catalog.loadNamespace(['db']), { location: 's3://lake/wh/db' }, "JdbcCatalog's default namespace location");
    const created = await create('db', { name: 'events' });
    t.equal(created.metadata.location, 's3://lake/wh/db/events');
    t.match(created.metadataLocation, /^s3:\/\/lake\/wh\/db\/events\/metadata\/00000-[0-9a-f-]{36}\.metadata\.json$/);
    t.equal(JSON.parse((await io.readFile(created.metadataLocation)).toString())['table-uuid'], created.metadata.tableUuid, 'the file is on S3');
  });

  t.test("a loaded table's config carries the S3 client settings, never a credential", async (t) => {
    const loaded = await catalog.loadTable({ namespace: ['db'], name: 'events' });
    t.same(loaded.config, { 's3.endpoint': moto.endpoint, 's3.path-style-access': 'true', 's3.region': moto.region, 'client.region': moto.region });
    t.notOk(JSON.stringify(loaded.config).includes(moto.secretAccessKey), 'no secret');
    const staged = await writes.createTable(['db'], parseCreateTableRequest({ name: 'staged', schema: SCHEMA, 'stage-create': true }));
    t.same(staged.config, loaded.config, 'a staged create too');
  });

  t.test('a commit writes its new metadata file to S3 and moves the row', async (t) => {
    const before = await catalog.loadTable({ namespace: ['db'], name: 'events' });
    const change = parseTableChange({ requirements: [{ type: 'assert-table-uuid', uuid: before.metadata.tableUuid }], updates: [{ action: 'set-properties', updates: { k: 'v' } }] }, '', false);
    const [after] = await writes.commit([{ identifier: { namespace: ['db'], name: 'events' }, change }]);
    t.match(after!.metadataLocation, /^s3:\/\/lake\/wh\/db\/events\/metadata\/00001-/);
    t.equal((await catalog.loadTable({ namespace: ['db'], name: 'events' })).metadata.properties['k'], 'v', 'read back from S3');
    t.equal((await objects('s3://lake/wh/db/events/metadata')).length, 2);
  });

  t.test('a purge at the default location removes every key below the table; at a chosen one, only its metadata files; metadata elsewhere goes too', async (t) => {
    await create('db', { name: 'owned' });
    // a data file some engine wrote below the table (the catalog writes only metadata)
    const s3 = createS3FileWriter({ endpoint: moto.endpoint, region: moto.region, pathStyle: true, credentials: { accessKeyId: moto.accessKeyId, secretAccessKey: moto.secretAccessKey }, roots: ['s3://lake/wh'] });
    await s3.replace('s3://lake/wh/db/owned/data/f.parquet', Buffer.from('x'));
    await writes.dropTable({ namespace: ['db'], name: 'owned' }, true);
    t.same(await objects('s3://lake/wh/db/owned'), [], 'nothing left below s3://lake/wh/db/owned');

    const chosen = await create('db', { name: 'chosen', location: 's3://lake/wh/shared/chosen' });
    await s3.replace('s3://lake/wh/shared/chosen/data/f.parquet', Buffer.from('x'));
    await writes.dropTable({ namespace: ['db'], name: 'chosen' }, true);
    t.same(await objects('s3://lake/wh/shared/chosen'), ['s3://lake/wh/shared/chosen/data/f.parquet'], 'the metadata file went, the data a client put at its own location stays');
    t.equal(await io.exists(chosen.metadataLocation), false);

    const elsewhere = await create('db', { name: 'meta', properties: { 'write.metadata.path': 's3://lake/wh/meta-files/t' } });
    t.match(elsewhere.metadataLocation, /^s3:\/\/lake\/wh\/meta-files\/t\/00000-/, 'write.metadata.path puts the metadata elsewhere');
    await s3.replace('s3://lake/wh/db/meta/data/f.parquet', Buffer.from('x'));
    await writes.dropTable({ namespace: ['db'], name: 'meta' }, true);
    t.same([...(await objects('s3://lake/wh/db/meta')), ...(await objects('s3://lake/wh/meta-files'))], [], 'the folder and the metadata file outside it are gone');
  });

  t.test('a table whose location is outside the warehouse is refused (403) and leaves no row', async (t) => {
    await writes.createNamespace(['elsewhere'], { location: 's3://other/x' });
    const err = await create('elsewhere', { name: 't' }).catch((e: unknown) => e as { code?: string });
    t.equal((err as { code?: string }).code, 'PATH_OUTSIDE_WAREHOUSE');
    t.same(await catalog.listTables(['elsewhere']), []);
    t.same(await objects('s3://other/x'), []);
  });
}
