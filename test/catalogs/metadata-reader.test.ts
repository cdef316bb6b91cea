import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { MetadataReader } from '../../src/catalogs/metadata-reader.js';
import { tableMetadataFile } from '../../src/catalogs/metadata-file.js';
import { parseTableMetadata, type TableMetadata } from '../../src/iceberg/index.js';
import { smallV2 } from '../helpers/commit-bases.js';
import { createLocalFileIO } from '../../src/storage/index.js';


t.test('a file this process wrote is read back from memory, with its JSON text; a file rewritten since is read from disk', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'icefront-reader-'));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  const reader = new MetadataReader(createLocalFileIO({ roots: [dir] }));
  const file = path.join(dir, '00001-a.metadata.json');
  const metadata = smallV2().metadata;
  const written = tableMetadataFile(file, metadata);
  fs.writeFileSync(file, written.bytes);
  await reader.remember(file, { metadata, json: written.json }, written.bytes.length);

  const read = await reader.read(file, 'table');
  t.equal(read.metadata, metadata, 'the metadata object written, not a parse of the file');
  t.equal(read.json, written.json, 'with the text written to the file');
  t.same(parseTableMetadata(read.json!), metadata, 'the text is the metadata');

  // another writer replaces the file (a different size): the disk wins, and no text is claimed for it
  const other = smallV2((json) => void (json['properties'] = { owner: 'bob-the-builder' })).metadata;
  fs.writeFileSync(file, tableMetadataFile(file, other).bytes);
  const reread = await reader.read(file, 'table');
  t.equal(reread.metadata.properties['owner'], 'bob-the-builder');
  t.equal(reread.json, undefined, 'a file parsed from disk carries no text of ours');
});

t.test('a gzip metadata file is written compressed and its text is the plain JSON', async (t) => {
  const metadata = smallV2().metadata;
  const written = tableMetadataFile('/w/t/metadata/00001-a.gz.metadata.json', metadata);
  t.equal(written.bytes[0], 0x1f, 'gzip magic');
  t.equal(written.bytes[1], 0x8b);
  t.same(parseTableMetadata(written.json), metadata);
});

t.test('a version this process wrote gives way to the next one it writes for the table', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'icefront-reader-'));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  const reader = new MetadataReader(createLocalFileIO({ roots: [dir] }));
  const write = async (name: string, metadata: TableMetadata, supersedes?: string) => {
    const file = path.join(dir, name);
    const written = tableMetadataFile(file, metadata);
    fs.writeFileSync(file, written.bytes);
    await reader.remember(file, { metadata, json: written.json }, written.bytes.length, supersedes);
    return file;
  };
  const first = smallV2().metadata;
  const v1 = await write('00001-a.metadata.json', first);
  const v2 = await write('00002-b.metadata.json', smallV2((json) => void (json['properties'] = { owner: 'bo' })).metadata, v1);
  t.equal((await reader.read(v2, 'table')).json !== undefined, true, 'the new version is held');
  const again = await reader.read(v1, 'table');
  t.not(again.metadata, first, 'the version it replaced is no longer held: read from its file');
  t.same(again.metadata, first, 'and it reads the same');
  t.equal(again.json, undefined);
});
