import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { MetadataReader } from '../../src/catalogs/metadata-reader.js';
import { tableMetadataFile } from '../../src/catalogs/metadata-file.js';
import { parseTableMetadata } from '../../src/iceberg/index.js';
import { createLocalFileIO } from '../../src/storage/index.js';

const V2 = JSON.stringify({
  'format-version': 2,
  'table-uuid': '9c12d441-03fe-4693-9a96-a0705ddf69c1',
  location: 's3://bucket/db/t',
  'last-sequence-number': 0,
  'last-updated-ms': 1700000000000,
  'last-column-id': 1,
  'current-schema-id': 0,
  schemas: [{ type: 'struct', 'schema-id': 0, fields: [{ id: 1, name: 'id', required: true, type: 'long' }] }],
  'default-spec-id': 0,
  'partition-specs': [{ 'spec-id': 0, fields: [] }],
  'last-partition-id': 999,
  'default-sort-order-id': 0,
  'sort-orders': [{ 'order-id': 0, fields: [] }],
  properties: { owner: 'ana' },
});

t.test('a file this process wrote is read back from memory, with its JSON text; a file rewritten since is read from disk', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'icefront-reader-'));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  const reader = new MetadataReader(createLocalFileIO({ roots: [dir] }));
  const file = path.join(dir, '00001-a.metadata.json');
  const metadata = parseTableMetadata(V2);
  const written = tableMetadataFile(file, metadata);
  fs.writeFileSync(file, written.bytes);
  await reader.remember(file, { metadata, json: written.json }, written.bytes.length);

  const read = await reader.read(file, 'table');
  t.equal(read.metadata, metadata, 'the metadata object written, not a parse of the file');
  t.equal(read.json, written.json, 'with the text written to the file');
  t.same(parseTableMetadata(read.json!), metadata, 'the text is the metadata');

  // another writer replaces the file (a different size): the disk wins, and no text is claimed for it
  const other = V2.replace('"owner":"ana"', '"owner":"bob-the-builder"');
  fs.writeFileSync(file, other);
  const reread = await reader.read(file, 'table');
  t.equal(reread.metadata.properties['owner'], 'bob-the-builder');
  t.equal(reread.json, undefined, 'a file parsed from disk carries no text of ours');
});

t.test('a gzip metadata file is written compressed and its text is the plain JSON', async (t) => {
  const metadata = parseTableMetadata(V2);
  const written = tableMetadataFile('/w/t/metadata/00001-a.gz.metadata.json', metadata);
  t.equal(written.bytes[0], 0x1f, 'gzip magic');
  t.equal(written.bytes[1], 0x8b);
  t.same(parseTableMetadata(written.json), metadata);
});

t.test('a version this process wrote gives way to the next one it writes for the table', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'icefront-reader-'));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  const reader = new MetadataReader(createLocalFileIO({ roots: [dir] }));
  const write = async (name: string, metadata: ReturnType<typeof parseTableMetadata>, supersedes?: string) => {
    const file = path.join(dir, name);
    const written = tableMetadataFile(file, metadata);
    fs.writeFileSync(file, written.bytes);
    await reader.remember(file, { metadata, json: written.json }, written.bytes.length, supersedes);
    return file;
  };
  const first = parseTableMetadata(V2);
  const v1 = await write('00001-a.metadata.json', first);
  const v2 = await write('00002-b.metadata.json', parseTableMetadata(V2.replace('"owner":"ana"', '"owner":"bo"')), v1);
  t.equal((await reader.read(v2, 'table')).json !== undefined, true, 'the new version is held');
  const again = await reader.read(v1, 'table');
  t.not(again.metadata, first, 'the version it replaced is no longer held: read from its file');
  t.same(again.metadata, first, 'and it reads the same');
  t.equal(again.json, undefined);
});
