/**
 * Every table metadata file of the 171 real tables in ../shared/fixtures/real parses, writes
 * back losslessly, and is accepted by the REST OpenAPI `TableMetadata` schema.
 */
import t, { type Test } from 'tap';
import fs from 'node:fs';
import path from 'node:path';
import { currentSnapshot, metadataFileText, parseTableMetadata, tableMetadataText, tableMetadataToJson, type TableMetadata } from '../../src/iceberg/index.js';
import { parseJson, stringifyJson } from '../../src/json/index.js';
import { REAL_FIXTURES_DIR, REAL_FIXTURES_SKIP, realFixturesAvailable } from '../helpers/real-fixtures.js';
import { openApiAvailable, validateAgainst } from '../helpers/openapi.js';

const skip = realFixturesAvailable() ? false : REAL_FIXTURES_SKIP;

function metadataFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...metadataFiles(p));
    else if (e.name.endsWith('.metadata.json')) out.push(p);
  }
  return out.sort();
}

interface Loaded {
  readonly file: string;
  readonly text: string;
  readonly meta: TableMetadata;
}

/** Parses every file; files that are not table metadata at all (no format-version) are reported. */
function loadAll(t: Test): { loaded: Loaded[]; notMetadata: string[] } {
  const loaded: Loaded[] = [];
  const notMetadata: string[] = [];
  for (const file of metadataFiles(REAL_FIXTURES_DIR)) {
    const text = metadataFileText(fs.readFileSync(file));
    const raw = parseJson(text) as Record<string, unknown>;
    const rel = path.relative(REAL_FIXTURES_DIR, file);
    if (raw['format-version'] === undefined) {
      t.throws(() => parseTableMetadata(text), { code: 'INVALID_METADATA', message: /'format-version'/ }, `${rel} is not table metadata`);
      notMetadata.push(rel);
      continue;
    }
    try {
      loaded.push({ file: rel, text, meta: parseTableMetadata(text) });
    } catch (err) {
      t.fail(`${rel} does not parse: ${(err as Error).message}`);
    }
  }
  return { loaded, notMetadata };
}

t.test('real metadata files', { skip }, async (t) => {
  const { loaded, notMetadata } = loadAll(t);
  t.ok(loaded.length > 500, `${loaded.length} metadata files parsed`);
  t.comment(`not table metadata: ${notMetadata.join(', ') || 'none'}`);
  t.ok(notMetadata.length <= 2, 'only placeholder files lack a format-version');

  t.test('every file writes back and re-parses to the same model', async (t) => {
    for (const { file, meta } of loaded) {
      const again = parseTableMetadata(stringifyJson(tableMetadataToJson(meta), 2));
      t.same(again, meta, file);
      t.equal(currentSnapshot(again)?.snapshotId, currentSnapshot(meta)?.snapshotId, `${file} current snapshot`);
    }
  });

  t.test('the text writer (per-snapshot texts kept) writes exactly what the JSON model serialises to', async (t) => {
    let differ = 0;
    for (const { file, meta } of loaded) {
      for (const mode of ['all', 'refs'] as const) {
        const expected = stringifyJson(tableMetadataToJson(meta, { snapshots: mode }));
        // twice: the second time from the texts the first one kept
        for (const round of ['first', 'kept'])
          if (tableMetadataText(meta, { snapshots: mode }) !== expected) {
            differ++;
            t.fail(`${file} (${mode}, ${round} write) differs`);
          }
      }
    }
    t.equal(differ, 0, `${loaded.length} files, both snapshot modes, written twice each`);
  });

  t.test('snapshot ids keep every digit of the source text, also beyond 2^53', async (t) => {
    let checked = 0;
    let beyond = 0;
    const lost: string[] = [];
    for (const { file, text, meta } of loaded) {
      const written = stringifyJson(tableMetadataToJson(meta));
      const modelIds = new Set<string>();
      for (const s of meta.snapshots) {
        modelIds.add(s.snapshotId.toString());
        if (s.parentSnapshotId !== undefined) modelIds.add(s.parentSnapshotId.toString());
      }
      for (const m of text.matchAll(/"(?:parent-)?snapshot-id"\s*:\s*(-?\d+)/g)) {
        const digits = m[1]!;
        checked++;
        if (BigInt(digits) > BigInt(Number.MAX_SAFE_INTEGER)) beyond++;
        if (!written.includes(digits)) lost.push(`${file}: ${digits} not written`);
      }
      for (const id of modelIds) if (!text.includes(id)) lost.push(`${file}: model id ${id} is not in the source`);
    }
    t.same(lost, [], `${checked} ids checked`);
    t.ok(beyond > 1000, `${beyond} of them beyond 2^53`);
  });

  t.test("each table's current metadata matches INDEX.json", async (t) => {
    const index = parseJson(fs.readFileSync(path.join(REAL_FIXTURES_DIR, 'INDEX.json'), 'utf8')) as Array<{
      fixture: string;
      report: { dir: string; current_metadata: string; format_version: number; table_uuid: string | null; current_snapshot_id: bigint | number | null };
    }>;
    const byFile = new Map(loaded.map((l) => [l.file, l.meta]));
    for (const { fixture, report } of index) {
      const meta = byFile.get(path.join(report.dir, report.current_metadata));
      if (meta === undefined) {
        t.ok(notMetadata.length > 0, `${fixture}: current metadata ${report.current_metadata} not loaded`);
        continue;
      }
      t.equal(meta.formatVersion, report.format_version, `${fixture} format version`);
      t.equal(meta.tableUuid, report.table_uuid ?? undefined, `${fixture} table uuid`);
      const expected = report.current_snapshot_id === null || report.current_snapshot_id === -1 ? undefined : BigInt(report.current_snapshot_id);
      t.equal(meta.currentSnapshotId, expected, `${fixture} current snapshot id`);
    }
  });

  t.test('the REST OpenAPI TableMetadata schema accepts every written file', { skip: openApiAvailable() ? false : 'REST OpenAPI spec absent' }, async (t) => {
    for (const { file, meta } of loaded) {
      // v1 data the REST schema cannot express: inline `manifests`, no summary, no table-uuid
      const v1Gaps = (e: string): boolean => {
        if (meta.formatVersion !== 1) return false;
        const snap = /^\/snapshots\/(\d+) must have required property '(manifest-list|summary)'/.exec(e);
        if (snap) {
          const s = meta.snapshots[Number(snap[1])]!;
          return snap[2] === 'manifest-list' ? s.manifests !== undefined : Object.keys(s.summary).length === 0;
        }
        return e.startsWith("/ must have required property 'table-uuid'") && meta.tableUuid === undefined;
      };
      for (const mode of ['all', 'refs'] as const) {
        const errors = validateAgainst('TableMetadata', tableMetadataToJson(meta, { snapshots: mode })).filter((e) => !v1Gaps(e));
        t.same(errors, [], `${file} (${mode})`);
      }
    }
  });
});
