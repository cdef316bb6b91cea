import t from 'tap';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseTableMetadata } from '../../../src/iceberg/index.js';
import { parseJson } from '../../../src/json/index.js';
import {
  appendRows,
  deleteEquality,
  deletePositions,
  deleteWithVectors,
  overwriteRows,
  TableBuilder,
  type FormatVersion,
  type Row,
} from '../../../tools/iceberg-writer/index.js';
import { readAvro } from '../helpers/read-back.js';
import { scanTable } from '../helpers/scan-table.js';

const LOCATION = 's3://bucket/wh/ns/t';

function table(tt: { teardown(fn: () => void): void }, version: FormatVersion, partitioned = true) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'icefront-tb-'));
  tt.teardown(() => fs.rmSync(root, { recursive: true, force: true }));
  const builder = TableBuilder.create({
    root,
    location: LOCATION,
    formatVersion: version,
    seed: `test-v${version}`,
    timestampMs: 1_700_000_000_000,
    schema: {
      type: 'struct',
      'schema-id': 0,
      fields: [
        { id: 1, name: 'id', required: true, type: 'long' },
        { id: 2, name: 'cat', required: false, type: 'string' },
      ],
    },
    partitionSpec: partitioned
      ? { 'spec-id': 0, fields: [{ name: 'cat', transform: 'identity', 'source-id': 2, 'field-id': 1000 }] }
      : undefined,
  });
  const local = (p: string): string => path.join(root, p.slice(LOCATION.length + 1));
  const metadata = (): any => {
    const v = fs.readFileSync(path.join(root, 'metadata/version-hint.text'), 'utf8');
    return parseJson(fs.readFileSync(path.join(root, `metadata/v${v}.metadata.json`), 'utf8'));
  };
  return { builder, root, local, metadata };
}

const rows = (ids: number[], cat = 'a'): Row[] => ids.map((id) => ({ id: BigInt(id), cat }));

t.test('creating a table writes v1.metadata.json without a snapshot and a version hint', async (tt) => {
  for (const version of [1, 2, 3] as const) {
    const { root, metadata } = table(tt, version);
    tt.equal(fs.readFileSync(path.join(root, 'metadata/version-hint.text'), 'utf8'), '1');
    const m = metadata();
    tt.equal(m['format-version'], version);
    tt.same(m.snapshots, []);
    tt.same(m.refs, {});
    tt.equal(m['current-snapshot-id'] ?? -1, -1);
    tt.equal('schema' in m, version === 1, 'v1 also writes the single schema');
    tt.equal('last-sequence-number' in m, version >= 2);
    tt.equal('next-row-id' in m, version === 3);
  }
});

t.test('every metadata version parses and keeps int64 snapshot ids exact', async (tt) => {
  for (const version of [1, 2, 3] as const) {
    const { builder, root } = table(tt, version);
    appendRows(builder, rows([1, 2]));
    appendRows(builder, rows([3], 'b'));
    for (let v = 1; v <= 3; v++) {
      const text = fs.readFileSync(path.join(root, `metadata/v${v}.metadata.json`), 'utf8');
      const parsed = parseTableMetadata(text);
      tt.equal(parsed.formatVersion, version);
      tt.equal(parsed.snapshots.length, v - 1);
      tt.equal(parsed.metadataLog.length, v - 1, 'earlier metadata files are logged');
    }
    const current = builder.currentSnapshotId()!;
    tt.ok(current > BigInt(Number.MAX_SAFE_INTEGER) || current > 0n);
    const text = fs.readFileSync(path.join(root, 'metadata/v3.metadata.json'), 'utf8');
    tt.ok(text.includes(`"current-snapshot-id":${current}`), 'written as an exact JSON integer');
    tt.equal(parseTableMetadata(text).currentSnapshotId, current);
  }
});

t.test('appends inherit sequence numbers; an overwrite rewrites only the manifest it touches', async (tt) => {
  const { builder, local, metadata } = table(tt, 2);
  const first = appendRows(builder, [...rows([1, 2], 'a'), ...rows([3], 'b')]);
  const second = appendRows(builder, rows([4], 'c'));
  const [fileA, fileB] = first.dataFiles;
  overwriteRows(builder, [fileA!.path], rows([10], 'a'));

  const m = metadata();
  tt.equal(m['last-sequence-number'], 3);
  const snap = m.snapshots.at(-1);
  tt.equal(snap.summary.operation, 'overwrite');
  tt.equal(snap.summary['deleted-data-files'], '1');
  tt.equal(snap.summary['added-data-files'], '1');
  tt.equal(snap.summary['total-records'], '3');
  const list = await readAvro(fs.readFileSync(local(snap['manifest-list'])));
  tt.equal(list.rows.length, 3, 'new manifest, rewritten manifest, untouched manifest');
  const added = list.rows.find((r) => r.added_files_count === 1 && r.added_snapshot_id === snap['snapshot-id']);
  const rewritten = list.rows.find((r) => r.deleted_files_count === 1);
  const untouched = list.rows.find((r) => r.added_snapshot_id !== snap['snapshot-id']);
  tt.equal(list.rows[0], added, 'new manifests come first, as Java writes them');
  tt.equal(added.sequence_number, 3n);
  tt.equal(added.added_files_count, 1);
  tt.equal(rewritten.added_snapshot_id, snap['snapshot-id']);
  tt.same([rewritten.existing_files_count, rewritten.deleted_files_count], [1, 1]);
  tt.equal(untouched.added_snapshot_id, second.snapshot.snapshotId, 'carried over unchanged');
  tt.equal(untouched.sequence_number, 2n);

  const entries = (await readAvro(fs.readFileSync(local(rewritten.manifest_path)))).rows;
  const gone = entries.find((e) => e.data_file.file_path === fileA!.path)!;
  const kept = entries.find((e) => e.data_file.file_path === fileB!.path)!;
  tt.equal(gone.status, 2, 'DELETED');
  tt.equal(gone.snapshot_id, snap['snapshot-id'], 'deleted by this snapshot');
  tt.equal(gone.sequence_number, 1n, 'keeps its data sequence number');
  tt.equal(kept.status, 0, 'EXISTING');
  tt.equal(kept.snapshot_id, first.snapshot.snapshotId);
  tt.equal(kept.sequence_number, 1n);
  const newEntries = (await readAvro(fs.readFileSync(local(added.manifest_path)))).rows;
  tt.same(newEntries.map((e) => [e.status, e.sequence_number, e.file_sequence_number]), [[1, null, null]], 'ADDED entries inherit');
  tt.same((await scanTable(path.dirname(path.dirname(local(added.manifest_path))))).rows.map((r) => r.id).sort(), [10n, 3n, 4n].sort());
});

t.test('row-level deletes give the rows a reader should see', async (tt) => {
  const { builder, root } = table(tt, 2);
  const { dataFiles } = appendRows(builder, [...rows([1, 2, 3, 4], 'a'), ...rows([5, 6], 'b')]);
  deletePositions(builder, [{ dataFile: dataFiles[0]!.path, positions: [0, 2] }]);
  deleteEquality(builder, ['id'], [{ id: 6n, cat: 'b' }, { id: 2n, cat: 'b' }]);
  appendRows(builder, rows([6], 'b'));
  const expected = builder.liveRows().map((r) => r.row.id);
  tt.same(expected.slice().sort(), [2n, 4n, 5n, 6n].sort(), 'id 2 lives in partition a; the re-added 6 is newer than its delete');
  tt.same((await scanTable(root)).rows.map((r) => r.id).sort(), expected.slice().sort());
});

t.test('a v3 table takes deletion vectors and assigns row ids', async (tt) => {
  const { builder, root, metadata } = table(tt, 3, false);
  const { dataFiles } = appendRows(builder, rows([1, 2, 3, 4, 5]));
  deleteWithVectors(builder, [{ dataFile: dataFiles[0]!.path, positions: [1, 3] }]);
  tt.throws(() => deleteWithVectors(builder, [{ dataFile: dataFiles[0]!.path, positions: [0] }]), 'a second DV for one file is refused');
  const m = metadata();
  tt.equal(m['next-row-id'], 5);
  tt.same(m.snapshots.map((s: any) => [s['first-row-id'], s['added-rows']]), [[0, 5], [5, 0]]);
  tt.same((await scanTable(root)).rows.map((r) => r.id), [1n, 3n, 5n]);
  tt.throws(() => deletePositions(builder, [{ dataFile: dataFiles[0]!.path, positions: [0] }]), 'v3 uses DVs, not position-delete files');
});

t.test('format rules are enforced', async (tt) => {
  const v2 = table(tt, 2);
  const { dataFiles } = appendRows(v2.builder, rows([1]));
  tt.throws(() => deleteWithVectors(v2.builder, [{ dataFile: dataFiles[0]!.path, positions: [0] }]), 'no DVs before v3');
  tt.throws(() => v2.builder.commit({ operation: 'append', inlineManifests: true }), 'inline manifests are v1 only');
  tt.throws(() => overwriteRows(v2.builder, ['s3://bucket/wh/ns/t/data/nope.parquet'], []), 'only live files can be removed');
  const v1 = table(tt, 1);
  const v1Files = appendRows(v1.builder, rows([1]));
  tt.throws(() => deleteEquality(v1.builder, ['id'], [{ id: 1n, cat: 'a' }]), 'no delete files in v1');
  tt.ok(v1Files.dataFiles.length === 1);
});

t.test('a v1 snapshot can list its manifests inline', async (tt) => {
  const { builder, root, metadata } = table(tt, 1);
  appendRows(builder, rows([1, 2]), { inlineManifests: true });
  const snap = metadata().snapshots[0];
  tt.notOk('manifest-list' in snap);
  tt.equal(snap.manifests.length, 1);
  tt.notOk('sequence-number' in snap, 'v1 snapshots carry no sequence number');
  tt.same((await scanTable(root)).rows.map((r) => r.id), [1n, 2n]);
});
