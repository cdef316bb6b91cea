import t from 'tap';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parquetMetadata } from 'hyparquet';
import { CREATED_BY } from '../../tools/iceberg-writer/parquet.js';
import { buildWarehouse, type TableReport } from '../../tools/make-fixtures.js';
import { scanTable, type ScannedTable } from './helpers/scan-table.js';
import { readPuffinFooter } from './helpers/read-back.js';

const REPO = path.resolve(import.meta.dirname, '../..');
const COMMITTED = path.join(REPO, 'fixtures/warehouse');

function tempDir(tt: { teardown(fn: () => void): void }): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'icefront-wh-'));
  tt.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** relative path → sha256 of every file under `dir`. */
function treeHashes(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const rel of fs.readdirSync(dir, { recursive: true }) as string[]) {
    const full = path.join(dir, rel);
    if (fs.statSync(full).isFile()) out.set(rel, crypto.createHash('sha256').update(fs.readFileSync(full)).digest('hex'));
  }
  return new Map([...out].sort(([a], [b]) => (a < b ? -1 : 1)));
}

// one generated warehouse shared by the read-back tests
const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'icefront-wh-'));
t.teardown(() => fs.rmSync(outDir, { recursive: true, force: true }));
const reports: TableReport[] = buildWarehouse(outDir);
const scans = new Map<string, Promise<ScannedTable>>();
const scan = (name: string): Promise<ScannedTable> => {
  if (!scans.has(name)) scans.set(name, scanTable(path.join(outDir, ...name.split('.'))));
  return scans.get(name)!;
};

t.test('generating the warehouse twice gives byte-identical trees', async (tt) => {
  const again = tempDir(tt);
  buildWarehouse(again);
  const a = treeHashes(outDir);
  const b = treeHashes(again);
  tt.ok(a.size > 40, `a real tree was written (${a.size} files)`);
  tt.same([...b], [...a]);
});

t.test('the committed fixtures/warehouse is exactly what the generator writes', { skip: !fs.existsSync(COMMITTED) && 'fixtures/warehouse has not been generated yet (npm run fixtures)' }, async (tt) => {
  tt.same([...treeHashes(COMMITTED)], [...treeHashes(outDir)], 'regenerate with `npm run fixtures` after changing the writer');
});

t.test('the README live row counts match an independent read of every table', async (tt) => {
  const readme = fs.readFileSync(path.join(outDir, 'README.md'), 'utf8');
  tt.equal(reports.length, 4);
  for (const r of reports) {
    const scanned = await scan(r.name);
    tt.equal(scanned.rows.length, r.liveRows, `${r.name}: rows after deletes`);
    tt.match(readme, `| \`${r.name}\` | ${r.formatVersion} | ${r.snapshots} | ${scanned.rows.length} |`, `${r.name} row in README`);
    tt.equal(scanned.metadata['format-version'], r.formatVersion);
    tt.equal(scanned.metadata.snapshots.length, r.snapshots);
  }
});

t.test('every table lives under the s3://icefront-demo/warehouse location', async (tt) => {
  tt.same(reports.map((r) => r.name).sort(), ['events.clicks', 'legacy.inventory', 'sales.orders', 'sales.returns'], 'the four tables');
  for (const r of reports) {
    const [ns, table] = r.name.split('.');
    tt.equal((await scan(r.name)).metadata.location, `s3://icefront-demo/warehouse/${ns}/${table}`);
  }
});

t.test('sales.orders covers every primitive column type, with a NaN and a null double', async (tt) => {
  const { metadata, rows } = await scan('sales.orders');
  const types = metadata.schemas[0].fields.map((f: any) => f.type.replace(/\(.*/, ''));
  for (const k of ['int', 'long', 'decimal', 'date', 'timestamp', 'timestamptz', 'string', 'uuid', 'binary', 'double', 'boolean']) {
    tt.ok(types.includes(k), k);
  }
  tt.ok(rows.some((r) => Number.isNaN(r.discount)), 'a NaN discount');
  tt.ok(rows.some((r) => r.discount === null || r.discount === undefined), 'a null discount');
  tt.equal(metadata['partition-specs'][0].fields.length, 4);
  tt.same(metadata.snapshots.map((s: any) => s.summary.operation), ['append', 'append', 'overwrite']);
});

t.test('every data file says who wrote it as parquet-java parses created_by (PARQUET-251), so engines keep its statistics', async (tt) => {
  // parquet-java's VersionParser.FORMAT: "<application> version <semver> (build <hash>)"
  const FORMAT = /^(.*?)\s+version\s*(?:([^(]*?)\s*(?:\(\s*build\s*([^)]*?)\s*\))?)?$/;
  const files = (fs.readdirSync(outDir, { recursive: true }) as string[]).filter((f) => f.endsWith('.parquet'));
  tt.ok(files.length >= 10, `${files.length} Parquet files`);
  const writers = new Set(files.map((f) => parquetMetadata(new Uint8Array(fs.readFileSync(path.join(outDir, f))).buffer).created_by));
  tt.same([...writers], [CREATED_BY], 'one writer named in every footer');
  const parsed = FORMAT.exec(CREATED_BY);
  tt.ok(parsed, `${CREATED_BY} parses`);
  tt.match(parsed?.[2] ?? '', /^\d+\.\d+\.\d+$/, 'with a semantic version');
  tt.notOk(FORMAT.exec('icefront iceberg-writer')?.[2], 'the name it had before gives no version: parquet-java threw VersionParseException');
});

t.test('sales.returns: a key deleted by equality and re-inserted later survives once, and a dangling delete remains', async (tt) => {
  const { rows, entries } = await scan('sales.returns');
  const seven = rows.filter((r) => r.return_id === 7n);
  tt.equal(seven.length, 1);
  tt.equal(seven[0]!.reason, 'reopened');
  tt.notOk(rows.some((r) => r.return_id === 14n), 'equality-deleted row is gone');
  const live = entries.filter((e) => e.status !== 2);
  const liveData = new Set(live.filter((e) => e.file.content === 0).map((e) => e.file.file_path));
  const positionDeletes = live.filter((e) => e.file.content === 1);
  tt.ok(positionDeletes.length >= 2);
  tt.ok(positionDeletes.every((e) => typeof e.file.referenced_data_file === 'string'), 'file-scoped position deletes');
  tt.ok(positionDeletes.some((e) => !liveData.has(e.file.referenced_data_file)), 'one position delete points at a removed file');
  tt.ok(live.some((e) => e.file.content === 2 && e.file.equality_ids?.length === 1), 'equality deletes are live');
});

t.test('events.clicks: deletion vectors share a Puffin file and rows carry lineage', async (tt) => {
  const { metadata, entries, rows } = await scan('events.clicks');
  tt.equal(metadata['format-version'], 3);
  const dvs = entries.filter((e) => e.file.file_format === 'PUFFIN');
  tt.equal(dvs.length, 2);
  tt.equal(new Set(dvs.map((e) => e.file.file_path)).size, 1, 'one Puffin file');
  const puffin = fs.readFileSync(path.join(outDir, 'events/clicks', dvs[0]!.file.file_path.slice(metadata.location.length + 1)));
  const footer = readPuffinFooter(puffin);
  tt.same(footer.blobs.map((b: any) => b.type), ['deletion-vector-v1', 'deletion-vector-v1']);
  tt.same(
    footer.blobs.map((b: any) => [BigInt(b.offset), BigInt(b.length)]),
    dvs.map((e) => [e.file.content_offset, e.file.content_size_in_bytes]),
  );
  const liveData = entries.filter((e) => e.status !== 2 && e.file.content === 0);
  const total = liveData.reduce((n, e) => n + Number(e.file.record_count), 0);
  const deleted = dvs.reduce((n, e) => n + Number(e.file.record_count), 0);
  tt.ok(deleted > 0);
  tt.equal(rows.length, total - deleted, 'each DV removes exactly its cardinality');
  // spec "Row Lineage": each snapshot's first-row-id is the sum of rows added before it
  let next = 0;
  for (const s of metadata.snapshots) {
    tt.equal(Number(s['first-row-id']), next);
    next += Number(s.summary['added-records'] ?? 0);
  }
  tt.equal(Number(metadata['next-row-id']), next);
});

t.test('legacy.inventory: a v1 table whose first snapshot lists its manifests inline', async (tt) => {
  const { metadata, entries } = await scan('legacy.inventory');
  tt.equal(metadata['format-version'], 1);
  tt.ok(Array.isArray(metadata.snapshots[0].manifests), 'inline manifests');
  tt.notOk('manifest-list' in metadata.snapshots[0]);
  tt.equal(metadata.snapshots.length, 3, 'three snapshots: append, append, overwrite');
  tt.ok(metadata.snapshots.slice(1).every((s: any) => typeof s['manifest-list'] === 'string'));
  tt.ok(entries.some((e) => e.status === 2) && entries.some((e) => e.status === 0), 'DELETED and EXISTING entries after the overwrite');
  tt.equal(metadata['current-snapshot-id'], metadata.snapshots.at(-1)['snapshot-id']);
});
