/**
 * Every manifest list and manifest reachable from the current snapshot of every real fixture
 * table (../shared/fixtures/real), decoded and checked against INDEX.json and against the
 * manifest lists' own counts.
 */
import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { createFilesystemCatalog, type LoadedTable } from '../../../src/catalogs/index.js';
import { isIcefrontError } from '../../../src/errors/index.js';
import { currentSchema, currentSnapshot, decimalFromBytes, fromHex, partitionType, uuidFromBytes, type IcebergType, type LiteralValue, type ManifestEntry, type ManifestFile } from '../../../src/iceberg/index.js';
import { parseJson } from '../../../src/json/index.js';
import { readInlineManifests, readManifest, readManifestList } from '../../../src/planner/manifests/index.js';
import { REAL_FIXTURES_DIR, REAL_FIXTURES_SKIP, realFixturesAvailable, realFixturesCatalogConfig } from '../../helpers/real-fixtures.js';
import { withBorrowedCounts } from '../../helpers/rows/index.js';

// Every manifest of over a hundred tables: about 30 s alone on 2 cores, several times that beside the interop files.
t.setTimeout(10 * 60_000);

interface FixtureReport {
  readonly fixture: string;
  readonly report: {
    readonly missing_referenced: readonly string[];
    readonly current_snapshot_files?: Record<string, number> | null;
    /** Long histories are cut, with an `{"...": "N snapshots omitted"}` element. */
    readonly per_snapshot?: ReadonlyArray<{ readonly 'snapshot-id'?: number | bigint; readonly live_files?: Record<string, number> }>;
    readonly partition_value_examples?: Record<string, Record<string, unknown>>;
  };
}

const skip = realFixturesAvailable() ? false : REAL_FIXTURES_SKIP;

/** Manifests whose list entry counts disagree with their entries, and why. */
const COUNTS_DIFFER: Record<string, string> = {
  'dd54fbe4-e8fe-4534-9c4c-5e8ed1bdaa0b-m1.avro':
    'duckdb-iceberg/large_partitioned_table is hand-assembled: its list entry says 4059 existing + 1 added, the manifest holds 15 existing entries',
  'e90d28aa-cd17-4655-ad04-aa3711792576-m0.avro':
    'impala iceberg_v2_null_delete_record was hand-extended: its list entry says 1 added, the manifest holds 2 added data files (plain avsc agrees)',
  '3a813d5e-fc0b-485f-bbba-010972a9f20a-m0.avro':
    'impala iceberg_v2_null_delete_record was hand-extended: its list entry says 1 added, the manifest holds 5 added delete files (plain avsc agrees)',
};

/** INDEX.json's key for a live entry: data / pos-delete / eq-delete / dv(puffin), with the file format. */
function kindOf(e: ManifestEntry): string {
  const kind = e.file.content === 0 ? 'data' : e.file.content === 2 ? 'eq-delete' : e.file.fileFormat === 'PUFFIN' ? 'dv(puffin)' : 'pos-delete';
  return `${kind}:${e.file.fileFormat}`;
}

interface Decoded {
  readonly manifests: ManifestFile[];
  readonly entries: Map<ManifestFile, ManifestEntry[]>;
}

async function decodeCurrent(table: LoadedTable): Promise<Decoded | undefined> {
  const snapshot = currentSnapshot(table.metadata);
  if (!snapshot) return undefined;
  const manifests =
    snapshot.manifestList !== undefined
      ? await readManifestList(table.io, snapshot.manifestList, { formatVersion: table.metadata.formatVersion, snapshotId: snapshot.snapshotId })
      : await readInlineManifests(table.io, snapshot.manifests ?? [], { snapshotId: snapshot.snapshotId });
  const specsById = new Map(table.metadata.partitionSpecs.map((s) => [s.specId, s]));
  const schema = currentSchema(table.metadata);
  const entries = new Map<ManifestFile, ManifestEntry[]>();
  for (const m of manifests) entries.set(m, (await readManifest(table.io, m, { specsById, schema })).entries);
  return { manifests, entries };
}

/** A value as INDEX.json's collector printed it (hex for bytes, numbers) in our representation. */
function expectedValue(type: IcebergType, v: unknown): LiteralValue | null {
  if (v === null) return null;
  if (typeof v === 'string' && /^[0-9a-f]*$/.test(v) && ['decimal', 'uuid', 'binary', 'fixed'].includes(type.kind)) {
    const bytes = fromHex(v);
    return type.kind === 'decimal' ? decimalFromBytes(bytes) : type.kind === 'uuid' ? uuidFromBytes(bytes) : bytes;
  }
  if (['long', 'time', 'timestamp', 'timestamptz', 'timestamp_ns', 'timestamptz_ns'].includes(type.kind)) return BigInt(v as number);
  if (typeof v === 'object' && v !== null && 'toString' in v) return Number(String(v)); // JsonFloat
  return v as LiteralValue;
}

function sameValue(a: LiteralValue | null, b: LiteralValue | null): boolean {
  if (a instanceof Uint8Array && b instanceof Uint8Array) return Buffer.from(a).equals(Buffer.from(b));
  return a === b;
}

t.test('every manifest reachable from every current snapshot decodes and matches INDEX.json', { skip }, async (t) => {
  const index = withBorrowedCounts(parseJson(fs.readFileSync(path.join(REAL_FIXTURES_DIR, 'INDEX.json'), 'utf8')) as FixtureReport[]);
  const catalog = createFilesystemCatalog(realFixturesCatalogConfig());
  let tables = 0;
  let manifestCount = 0;
  let entryCount = 0;

  for (const fx of index) {
    const levels = fx.fixture.split('/');
    const table = await catalog.loadTable({ namespace: levels.slice(0, -1), name: levels[levels.length - 1]! });
    const snapshot = currentSnapshot(table.metadata);
    let decoded: Decoded | undefined;
    try {
      decoded = await decodeCurrent(table);
    } catch (err) {
      const missing = fx.report.missing_referenced.some((m) => String(err).includes(m));
      const code = isIcefrontError(err, 'FILE_NOT_FOUND') || isIcefrontError(err, 'PATH_OUTSIDE_WAREHOUSE');
      t.ok(missing && code, `${fx.fixture}: fails only on a file INDEX.json lists missing (${String(err)})`);
      continue;
    }
    if (!decoded || !snapshot) {
      t.notOk(fx.report.current_snapshot_files && Object.keys(fx.report.current_snapshot_files).length, `${fx.fixture}: no snapshot, no files`);
      continue;
    }
    tables += 1;
    manifestCount += decoded.manifests.length;

    const live: Record<string, number> = {};
    const problems: string[] = [];
    for (const [m, entries] of decoded.entries) {
      entryCount += entries.length;
      const name = path.basename(m.path);
      const spec = table.metadata.partitionSpecs.find((s) => s.specId === m.specId)!;
      const misplaced = entries.findIndex(
        (e, i) => e.position !== i || e.manifestPath !== m.path || e.file.specId !== m.specId || e.file.partition.length !== spec.fields.length,
      );
      if (misplaced >= 0) problems.push(`${name}: entry ${misplaced} is out of order or not of its manifest's spec`);
      const byStatus = [0, 1, 2].map((s) => entries.filter((e) => e.status === s).length);
      if (m.addedFilesCount !== undefined && m.existingFilesCount !== undefined && m.deletedFilesCount !== undefined) {
        const listed = [m.existingFilesCount, m.addedFilesCount, m.deletedFilesCount];
        const agree = byStatus.every((n, i) => n === listed[i]);
        if (agree === (COUNTS_DIFFER[name] !== undefined)) problems.push(`${name}: existing/added/deleted ${byStatus} vs list entry ${listed}`);
      }
      if (m.firstRowId !== undefined && m.content === 0 && entries.some((e) => e.status !== 2 && e.file.firstRowId === undefined)) {
        problems.push(`${name}: a live data file has no first row id`);
      }
      for (const e of entries) if (e.status !== 2) live[kindOf(e)] = (live[kindOf(e)] ?? 0) + 1;
    }
    t.same(problems, [], `${fx.fixture}: entries in order, of their manifest's spec, counted as their list entry says`);

    const perSnapshot = fx.report.per_snapshot?.find((s) => s['snapshot-id'] !== undefined && BigInt(s['snapshot-id']) === snapshot.snapshotId);
    const expected = perSnapshot?.live_files ?? fx.report.current_snapshot_files ?? {};
    t.same(live, expected, `${fx.fixture}: live files per content type`);

    // INDEX.json's partition tuple examples (one per spec id) appear among the decoded tuples
    for (const [specId, example] of Object.entries(fx.report.partition_value_examples ?? {})) {
      const spec = table.metadata.partitionSpecs.find((s) => s.specId === Number(specId));
      const files = [...decoded.entries.values()].flat().filter((e) => e.file.specId === Number(specId));
      if (!spec || files.length === 0) continue;
      const type = partitionType(spec, currentSchema(table.metadata));
      const want = spec.fields.map((f, i) => (f.name in example ? expectedValue(type.fields[i]!.type, example[f.name]) : undefined));
      const found = files.some((e) => want.every((w, i) => w === undefined || sameValue(e.file.partition[i]!, w)));
      t.ok(found, `${fx.fixture}: partition example ${JSON.stringify(example, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v))} of spec ${specId}`);
    }
  }
  t.ok(tables > 150, `${tables} tables, ${manifestCount} manifests, ${entryCount} entries decoded`);
});

t.test('range reads of real manifests equal the slices of full reads', { skip }, async (t) => {
  const catalog = createFilesystemCatalog(realFixturesCatalogConfig());
  const perf = ['iceberg-cxx', 'meta_perf', 'warehouse', 'performance'];
  for (const name of ['manifest_entries', 'manifest_entries_wide']) {
    const table = await catalog.loadTable({ namespace: perf, name });
    const decoded = await decodeCurrent(table);
    const specsById = new Map(table.metadata.partitionSpecs.map((s) => [s.specId, s]));
    for (const [m, entries] of decoded!.entries) {
      const n = entries.length;
      const range = { start: Math.floor(n / 3), end: Math.floor((2 * n) / 3) + 1 };
      const part = await readManifest(table.io, m, { specsById, schema: currentSchema(table.metadata), range });
      t.same(part.entries, entries.slice(range.start, range.end), `${name}: entries [${range.start}, ${range.end}) of ${n}`);
      const full = await readManifest(table.io, m, { specsById, schema: currentSchema(table.metadata) });
      t.ok(part.stats.blocksDecoded < full.stats.blocksDecoded || full.stats.blocksDecoded === 1, `${name}: ${part.stats.blocksDecoded} of ${full.stats.blocksDecoded} blocks decoded`);
    }
  }
});
