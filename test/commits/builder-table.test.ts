import t from 'tap';
import { tableMetadataToJson } from '../../src/iceberg/index.js';
import { REAL, REAL_FIXTURES_SKIP, apply, realFixturesAvailable, realVersion, roundTrip, smallV2 } from '../helpers/commit-bases.js';

const skipReal = realFixturesAvailable() ? false : REAL_FIXTURES_SKIP;

t.test('assign-uuid: the same uuid is no change, another one is', async (t) => {
  t.equal(apply(smallV2(), '[{"action": "assign-uuid", "uuid": "11111111-2222-4333-8444-555555555555"}]').changed, false);
  const { metadata } = apply(smallV2(), '[{"action": "assign-uuid", "uuid": "99999999-2222-4333-8444-555555555555"}]');
  t.equal(metadata.tableUuid, '99999999-2222-4333-8444-555555555555');
});

t.test('a v1 table upgrades to v2 and then to v3, which starts row lineage at 0', { skip: skipReal }, async (t) => {
  const v1 = realVersion(REAL.v1);
  const v2 = apply(v1, '[{"action": "upgrade-format-version", "format-version": 2}]').metadata;
  t.equal(v2.formatVersion, 2);
  t.equal(v2.lastSequenceNumber, 0n);
  t.equal(v2.nextRowId, undefined);
  const json = tableMetadataToJson(v2) as Record<string, unknown>;
  t.equal(json['schema'], undefined, 'no v1 legacy fields in v2');
  t.same(roundTrip(v2), v2);
  const v3 = apply({ metadata: v2, metadataLocation: `${v2.location}/metadata/00006-x.metadata.json` }, '[{"action": "upgrade-format-version", "format-version": 3}]').metadata;
  t.equal(v3.formatVersion, 3);
  t.equal(v3.nextRowId, 0n);
  t.same(roundTrip(v3), v3);
  t.equal(v3.metadataLog.length, 7, 'each commit logs its previous file');
});

t.test('v1 straight to v3 in one change', { skip: skipReal }, async (t) => {
  const v1 = realVersion(REAL.v1);
  const v3 = apply(v1, '[{"action": "upgrade-format-version", "format-version": 2}, {"action": "upgrade-format-version", "format-version": 3}]').metadata;
  t.equal(v3.formatVersion, 3);
  t.same(roundTrip(v3), v3);
});

t.test('format versions only go up, to at most v3; the same version is no change', async (t) => {
  t.throws(() => apply(smallV2(), '[{"action": "upgrade-format-version", "format-version": 1}]'), { code: 'ILLEGAL_ARGUMENT' });
  t.throws(() => apply(smallV2(), '[{"action": "upgrade-format-version", "format-version": 4}]'), { code: 'ILLEGAL_ARGUMENT' });
  t.equal(apply(smallV2(), '[{"action": "upgrade-format-version", "format-version": 2}]').changed, false);
});

t.test('a v1 table without a uuid cannot become v2 until it has one', async (t) => {
  const v1 = smallV2((j) => {
    j['format-version'] = 1;
    delete j['table-uuid'];
    delete j['last-sequence-number'];
    j['snapshots'] = [];
    j['snapshot-log'] = [];
    j['refs'] = {};
    delete j['current-snapshot-id'];
  });
  t.throws(() => apply(v1, '[{"action": "upgrade-format-version", "format-version": 2}]'), { code: 'ILLEGAL_ARGUMENT' });
  const { metadata } = apply(v1, '[{"action": "assign-uuid", "uuid": "u-1"}, {"action": "upgrade-format-version", "format-version": 2}]');
  t.equal(metadata.tableUuid, 'u-1');
});

t.test('set-location: trailing slashes go, the same location is no change, an empty one is refused', async (t) => {
  t.equal(apply(smallV2(), '[{"action": "set-location", "location": "s3://other/t//"}]').metadata.location, 's3://other/t');
  t.equal(apply(smallV2(), '[{"action": "set-location", "location": "s3://bucket/db/t"}]').changed, false);
  t.equal(apply(smallV2(), '[{"action": "set-location", "location": "s3://bucket/db/t/"}]').changed, true, 'compared as sent, as Java does');
  t.throws(() => apply(smallV2(), '[{"action": "set-location", "location": ""}]'), { code: 'ILLEGAL_ARGUMENT' });
});

t.test('set-properties and remove-properties: any non-empty set is a change, as in Java', async (t) => {
  const { metadata } = apply(smallV2(), '[{"action": "set-properties", "updates": {"a": "1", "owner": "bo"}}, {"action": "remove-properties", "removals": ["a", "absent"]}]');
  t.same(metadata.properties, { owner: 'bo' });
  t.equal(apply(smallV2(), '[{"action": "set-properties", "updates": {"owner": "ana"}}]').changed, true);
  t.equal(apply(smallV2(), '[{"action": "remove-properties", "removals": ["absent"]}]').changed, true);
});

t.test('format-version sent as a property is stored as one, as Java\'s builder does; it does not change the format', async (t) => {
  const { metadata } = apply(smallV2(), '[{"action": "set-properties", "updates": {"format-version": "3"}}]');
  t.equal(metadata.formatVersion, 2);
  t.equal(metadata.properties['format-version'], '3');
});

t.test('encryption keys: added once per key id, removed by id', async (t) => {
  const key = '{"action": "add-encryption-key", "encryption-key": {"key-id": "k1", "encrypted-key-metadata": "AAEC", "properties": {"a": "b"}}}';
  const { metadata } = apply(smallV2(), `[${key}, ${key.replace('AAEC', 'ZZZZ')}]`);
  t.same(metadata.encryptionKeys, [{ keyId: 'k1', encryptedKeyMetadata: 'AAEC', properties: { a: 'b' } }]);
  t.same(roundTrip(metadata), metadata);
  const stored = { metadata, metadataLocation: 's3://bucket/db/t/metadata/00003-d.metadata.json' };
  t.same(apply(stored, '[{"action": "remove-encryption-key", "key-id": "k1"}]').metadata.encryptionKeys, []);
  t.equal(apply(stored, '[{"action": "remove-encryption-key", "key-id": "k2"}]').changed, false);
});
