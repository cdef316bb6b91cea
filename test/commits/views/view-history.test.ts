import t from 'tap';
import { dropDialectAllowed, expireVersions, retainHistory, versionHistorySize } from '../../../src/commits/views/view-history.js';
import type { ViewVersion } from '../../../src/iceberg/index.js';

const version = (versionId: number): ViewVersion => ({
  versionId,
  timestampMs: versionId,
  schemaId: 0,
  summary: {},
  representations: [],
  defaultNamespace: [],
});

t.test('the history size defaults to 10 and reads as Java Integer.parseInt', async (t) => {
  t.equal(versionHistorySize({}), 10);
  t.equal(versionHistorySize({ 'version.history.num-entries': '3' }), 3);
  t.equal(versionHistorySize({ 'version.history.num-entries': '+3' }), 3);
  t.equal(versionHistorySize({ 'version.history.num-entries': '007' }), 7);
  for (const bad of ['', '3 ', '0x10', '2147483648', '1e2', '0', '-2']) {
    t.throws(() => versionHistorySize({ 'version.history.num-entries': bad }), { code: 'ILLEGAL_ARGUMENT' }, JSON.stringify(bad));
  }
});

t.test('dropping a dialect is allowed only for the text true, in any case (Boolean.parseBoolean)', async (t) => {
  t.equal(dropDialectAllowed({}), false);
  t.equal(dropDialectAllowed({ 'replace.drop-dialect.allowed': 'True' }), true);
  t.equal(dropDialectAllowed({ 'replace.drop-dialect.allowed': '1' }), false);
});

t.test('expiring keeps the current version first, then the highest ids among the kept count', async (t) => {
  const versions = [1, 2, 3, 4, 5].map(version);
  t.same(expireVersions(versions, 3, versions[4]!).map((v) => v.versionId), [5, 4, 3]);
  t.same(expireVersions(versions, 3, versions[0]!).map((v) => v.versionId), [1, 5, 4]);
  t.same(expireVersions(versions, 1, versions[1]!).map((v) => v.versionId), [2]);
  // ids are not contiguous: the highest still win
  const sparse = [1, 10, 3, 7].map(version);
  t.same(expireVersions(sparse, 2, sparse[2]!).map((v) => v.versionId), [3, 10]);
});

t.test('the version log is cleared up to the last entry of a version no longer kept', async (t) => {
  const entries = (ids: number[]) => ids.map((versionId, i) => ({ versionId, timestampMs: i }));
  t.same(retainHistory(entries([1, 2, 3]), new Set([2, 3])).map((e) => e.versionId), [2, 3]);
  t.same(retainHistory(entries([3, 1, 2]), new Set([2, 3])).map((e) => e.versionId), [2]);
  t.same(retainHistory(entries([1, 2, 9, 3]), new Set([1, 2, 3])).map((e) => e.versionId), [3]);
  t.same(retainHistory([], new Set([1])), []);
});
