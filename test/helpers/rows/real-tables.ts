/**
 * The real fixture tables (../shared/fixtures/real) for row-level tests: one filesystem catalog,
 * tables by fixture path, and INDEX.json facts about them (parsed losslessly: snapshot ids
 * exceed 2^53).
 */
import fs from 'node:fs';
import path from 'node:path';
import { createFilesystemCatalog, type LoadedTable } from '../../../src/catalogs/index.js';
import { parseTableMetadata, type TableMetadata } from '../../../src/iceberg/index.js';
import { parseJson } from '../../../src/json/index.js';
import { FILES_OF, REAL_FIXTURES_DIR, realFixturesCatalogConfig } from '../real-fixtures.js';

let catalog: ReturnType<typeof createFilesystemCatalog> | undefined;

/** The catalog identifier of a fixture path (`a/b/c` → namespace [a, b], name c). */
export function identifierOf(fixture: string): { namespace: string[]; name: string } {
  const levels = fixture.split('/');
  return { namespace: levels.slice(0, -1), name: levels[levels.length - 1]! };
}

export function loadRealTable(fixture: string): Promise<LoadedTable> {
  catalog ??= createFilesystemCatalog(realFixturesCatalogConfig());
  return catalog.loadTable(identifierOf(fixture));
}

/** INDEX.json's per-snapshot facts (the fields these tests use). */
export interface SnapshotFacts {
  readonly 'snapshot-id'?: number | bigint | null;
  readonly live_files: Readonly<Record<string, number>>;
}

/** One INDEX.json row (the fields these tests use). */
export interface FixtureFacts {
  readonly fixture: string;
  readonly report: {
    /** The metadata file INDEX.json calls current (newest last-updated-ms), relative to the fixture folder. */
    readonly current_metadata: string;
    readonly missing_referenced: readonly string[];
    readonly per_snapshot: readonly SnapshotFacts[] | null;
    readonly current_snapshot_files: Readonly<Record<string, number>> | null;
    /** Distinct files over every manifest of every snapshot, by content. */
    readonly unique_files_all_manifests?: Readonly<Record<string, number>>;
  };
}

/**
 * The table as INDEX.json sees it: the loaded table, or — where the catalog's rule picks another
 * metadata file (version-hint wins over last-updated-ms) — INDEX.json's current metadata file
 * read with the same FileIO.
 */
export function asIndexed(facts: FixtureFacts, loaded: LoadedTable): { metadata: TableMetadata; io: LoadedTable['io']; metadataFile: string } {
  const file = facts.report.current_metadata;
  if (loaded.metadataLocation.endsWith(`/${file}`)) return { metadata: loaded.metadata, io: loaded.io, metadataFile: file };
  const text = fs.readFileSync(path.join(REAL_FIXTURES_DIR, facts.fixture, file), 'utf8');
  return { metadata: parseTableMetadata(text), io: loaded.io, metadataFile: file };
}

/** INDEX.json's rows; a fixture over another's files (FILES_OF) gets that one's file counts. */
export function fixtureFacts(): FixtureFacts[] {
  return withBorrowedCounts(parseJson(fs.readFileSync(path.join(REAL_FIXTURES_DIR, 'INDEX.json'), 'utf8')) as FixtureFacts[]);
}

export function withBorrowedCounts<T extends { fixture: string; report: { per_snapshot?: unknown; current_snapshot_files?: unknown } }>(rows: T[]): T[] {
  const byName = new Map(rows.map((r) => [r.fixture, r]));
  return rows.map((row) => {
    const owner = FILES_OF[row.fixture] === undefined ? undefined : byName.get(FILES_OF[row.fixture]!);
    if (!owner) return row;
    const { per_snapshot, current_snapshot_files } = owner.report;
    return { ...row, report: { ...row.report, per_snapshot, current_snapshot_files } };
  });
}

/** Live data files INDEX.json counted for a snapshot (all `data:*` kinds), if it lists the snapshot. */
export function indexedDataFileCount(facts: FixtureFacts, snapshotId: bigint): number | undefined {
  const snap = facts.report.per_snapshot?.find((s) => s['snapshot-id'] != null && BigInt(s['snapshot-id']) === snapshotId);
  if (!snap) return undefined;
  return Object.entries(snap.live_files)
    .filter(([kind]) => kind.startsWith('data:'))
    .reduce((n, [, count]) => n + count, 0);
}
