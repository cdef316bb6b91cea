import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
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
  const write = async (name: string, metadata: TableMetadata) => {
    const file = path.join(dir, name);
    const written = tableMetadataFile(file, metadata);
    fs.writeFileSync(file, written.bytes);
    await reader.remember(file, { metadata, json: written.json }, written.bytes.length);
    return file;
  };
  const first = smallV2().metadata;
  const v1 = await write('00001-a.metadata.json', first);
  const v2 = await write('00002-b.metadata.json', version(first, 2, v1));
  t.equal((await reader.read(v2, 'table')).json !== undefined, true, 'the new version is held');
  const again = await reader.read(v1, 'table');
  t.not(again.metadata, first, 'the version it replaced is no longer held: read from its file');
  t.same(again.metadata, first, 'and it reads the same');
  t.equal(again.json, undefined);
});

/** Version `n` of a table after `base`: its log lists `previous` (spec "Table Metadata", metadata-log), its last-updated-ms as given. */
function version(base: TableMetadata, n: number, previous: string, updatedMs = base.lastUpdatedMs + n): TableMetadata {
  return smallV2((json) => {
    json['properties'] = { version: String(n) };
    json['last-updated-ms'] = updatedMs;
    json['metadata-log'] = [{ 'metadata-file': pathToFileURL(previous).href, 'timestamp-ms': updatedMs - 1 }];
  }).metadata;
}

t.test('a replica that reads the versions another one writes holds the newest only, whatever order its reads come in', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'icefront-reader-'));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  const io = createLocalFileIO({ roots: [dir] });
  const writer = new MetadataReader(io);
  const reader = new MetadataReader(io);
  const files: string[] = [];
  let metadata = smallV2().metadata;
  for (let n = 1; n <= 10; n++) {
    const file = path.join(dir, `0000${n}-x.metadata.json`.slice(-22));
    if (n > 1) metadata = version(metadata, n, files.at(-1)!);
    const written = tableMetadataFile(file, metadata);
    fs.writeFileSync(file, written.bytes);
    await writer.remember(file, { metadata, json: written.json }, written.bytes.length);
    files.push(file);
  }
  const held = new Map<string, TableMetadata>();
  for (const file of files) held.set(file, (await reader.read(file, 'table')).metadata);
  const newest = files.at(-1)!;
  t.equal((await reader.read(newest, 'table')).metadata, held.get(newest), 'the newest version is held');
  const old = await reader.read(files[2]!, 'table');
  t.not(old.metadata, held.get(files[2]!), 'an older one was let go: read from its file again');
  t.equal(old.metadata.properties['version'], '3');
  t.equal((await reader.read(newest, 'table')).metadata, held.get(newest), 'reading an older version does not push the newest out');
});

t.test('newer is what the metadata log says, before last-updated-ms (clocks of replicas differ)', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'icefront-reader-'));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  const io = createLocalFileIO({ roots: [dir] });
  const reader = new MetadataReader(io);
  const put = (name: string, metadata: TableMetadata) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, tableMetadataFile(file, metadata).bytes);
    return file;
  };
  const base = smallV2().metadata;
  const v1 = put('00001-a.metadata.json', base);
  // written by a replica whose clock is a minute behind: an earlier last-updated-ms, but its log lists v1
  const v2 = put('00002-b.metadata.json', version(base, 2, v1, base.lastUpdatedMs - 60_000));
  const m1 = (await reader.read(v1, 'table')).metadata;
  const m2 = (await reader.read(v2, 'table')).metadata;
  t.equal((await reader.read(v2, 'table')).metadata, m2, 'the version whose log lists the other is held');
  t.not((await reader.read(v1, 'table')).metadata, m1, 'the one it lists was let go');
  t.equal((await reader.read(v2, 'table')).metadata, m2, 'and reading it again does not displace the newer');
});
