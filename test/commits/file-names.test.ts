import t from 'tap';
import { hadoopMetadataFileName, metadataCompression, metadataFileLocation, nextMetadataFileName, parseMetadataVersion, removedMetadataFiles } from '../../src/commits/index.js';
import { apply, fixedClock, smallV2 } from '../helpers/commit-bases.js';

t.test('the next metadata file is the base\'s version + 1, five digits, and a fresh uuid', async (t) => {
  const clock = fixedClock();
  t.equal(nextMetadataFileName('s3://b/t/metadata/00002-abc.metadata.json', {}, clock), `00003-${clock.uuids[0]}.metadata.json`);
  t.equal(nextMetadataFileName('s3://b/t/metadata/99999-abc.metadata.json', {}, clock), `100000-${clock.uuids[1]}.metadata.json`);
  t.equal(nextMetadataFileName(undefined, {}, clock), `00000-${clock.uuids[2]}.metadata.json`, 'a new table');
  t.equal(nextMetadataFileName('s3://b/t/metadata/v3.metadata.json', {}, clock), `00000-${clock.uuids[3]}.metadata.json`, 'no version: 0');
  t.equal(nextMetadataFileName('s3://b/t/metadata/abc-def.metadata.json', {}, clock).slice(0, 6), '00000-', 'unparseable: 0');
  t.equal(nextMetadataFileName('s3://b/t/metadata/00007-x.metadata.json', { 'write.metadata.compression-codec': 'GZIP' }, clock), `00008-${clock.uuids[5]}.gz.metadata.json`);
});

t.test('the version of a metadata file name, as Java parseVersion reads it', async (t) => {
  t.equal(parseMetadataVersion('s3://b/t/metadata/00012-u.metadata.json'), 12);
  t.equal(parseMetadataVersion('00012-u.metadata.json'), 12);
  t.equal(parseMetadataVersion('/x-y/t/metadata/v1.metadata.json'), undefined, 'the dash of a directory does not count');
  t.equal(parseMetadataVersion('s3://b/t/metadata/x1-u.metadata.json'), undefined);
  t.equal(parseMetadataVersion('s3://b/t/metadata/99999999999-u.metadata.json'), undefined, 'beyond an int');
});

t.test('Hadoop tables name files v<N>', async (t) => {
  t.equal(hadoopMetadataFileName(4, {}), 'v4.metadata.json');
  t.equal(hadoopMetadataFileName(4n, { 'write.metadata.compression-codec': 'gzip' }), 'v4.gz.metadata.json');
});

t.test('metadata compression is none or gzip, any case; another codec is refused', async (t) => {
  t.equal(metadataCompression({}), 'none');
  t.equal(metadataCompression({ 'write.metadata.compression-codec': 'None' }), 'none');
  t.equal(metadataCompression({ 'write.metadata.compression-codec': 'gzip' }), 'gzip');
  t.throws(() => metadataCompression({ 'write.metadata.compression-codec': 'zstd' }), { code: 'ILLEGAL_ARGUMENT' });
});

t.test('metadata files go under <location>/metadata, or write.metadata.path', async (t) => {
  const m = smallV2().metadata;
  t.equal(metadataFileLocation(m, 'f.json'), 's3://bucket/db/t/metadata/f.json');
  t.equal(metadataFileLocation({ ...m, properties: { 'write.metadata.path': 's3://meta/t//' } }, 'f.json'), 's3://meta/t/f.json');
});

t.test('files that leave the metadata log may be deleted only when delete-after-commit is enabled', async (t) => {
  const base = smallV2((j) => {
    j['properties'] = { 'write.metadata.previous-versions-max': '1' };
  });
  const next = apply(base, '[{"action": "set-properties", "updates": {"a": "b"}}]').metadata;
  t.same(removedMetadataFiles(base.metadata, next), [], 'disabled by default');
  const enabled = apply(base, '[{"action": "set-properties", "updates": {"write.metadata.delete-after-commit.enabled": "TRUE"}}]').metadata;
  t.same(enabled.metadataLog.map((e) => e.metadataFile), ['s3://bucket/db/t/metadata/00002-c.metadata.json']);
  t.same(removedMetadataFiles(base.metadata, enabled), ['s3://bucket/db/t/metadata/00000-a.metadata.json', 's3://bucket/db/t/metadata/00001-b.metadata.json']);
});
