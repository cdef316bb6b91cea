import t from 'tap';
import fs from 'node:fs';
import path from 'node:path';
import {
  currentViewSchema,
  currentViewVersion,
  metadataFileText,
  parseViewMetadata,
  viewMetadataToJson,
  viewVersionById,
} from '../../src/iceberg/index.js';
import { parseJson, stringifyJson } from '../../src/json/index.js';
import { VIEW, VIEW_LIBERAL } from './view-samples.js';
import { OPENAPI_SKIP, openApiAvailable, validateAgainst } from '../helpers/openapi.js';
import { REAL_FIXTURES_DIR, REAL_FIXTURES_SKIP, realFixturesAvailable } from '../helpers/real-fixtures.js';

const json = (text: string) => parseJson(text) as Record<string, unknown>;
const edit = (text: string, change: (o: Record<string, unknown>) => void): string => {
  const o = json(text);
  change(o);
  return stringifyJson(o);
};
const versions = (o: Record<string, unknown>) => o['versions'] as Record<string, unknown>[];

t.test('view metadata is read into its model', async (t) => {
  const meta = parseViewMetadata(VIEW);
  t.equal(meta.viewUuid, 'fa6506c3-7681-40c8-86dc-e36561f83385');
  t.equal(meta.formatVersion, 1);
  t.equal(meta.location, 's3://bucket/views/event_counts');
  t.equal(meta.currentVersionId, 2);
  t.same(meta.properties, { comment: 'counts per day', owner: 'analytics' });
  t.same(meta.versionLog, [
    { timestampMs: 1700000000000, versionId: 1 },
    { timestampMs: 1700000100000, versionId: 2 },
  ]);
  const v1 = viewVersionById(meta, 1)!;
  t.equal(v1.defaultCatalog, 'prod');
  t.same(v1.defaultNamespace, ['analytics']);
  t.same(v1.summary, { 'engine-name': 'spark', 'engine-version': '3.5.1' });
  const current = currentViewVersion(meta);
  t.equal(current.versionId, 2);
  t.notOk('defaultCatalog' in current, 'an absent default-catalog stays absent');
  t.same(
    current.representations.map((r) => (r.kind === 'sql' ? r.dialect : r.type)),
    ['spark', 'trino'],
  );
  t.equal(currentViewSchema(meta).findField(2)?.doc, 'rows that day');
});

t.test('parse → json → parse is stable and loses nothing', async (t) => {
  for (const [name, text] of [
    ['VIEW', VIEW],
    ['VIEW_LIBERAL', VIEW_LIBERAL],
  ] as const) {
    const once = viewMetadataToJson(parseViewMetadata(text));
    const twice = viewMetadataToJson(parseViewMetadata(stringifyJson(once)));
    t.equal(stringifyJson(twice), stringifyJson(once), `${name} round trips`);
  }
  const written = viewMetadataToJson(parseViewMetadata(VIEW)) as Record<string, unknown>;
  const original = json(VIEW);
  for (const key of Object.keys(original)) t.same(written[key], original[key], `${key} is written as read`);
});

t.test('view metadata is written in Java ViewMetadataParser key order', async (t) => {
  const out = viewMetadataToJson(parseViewMetadata(VIEW)) as Record<string, unknown>;
  t.same(Object.keys(out), ['view-uuid', 'format-version', 'location', 'properties', 'schemas', 'current-version-id', 'versions', 'version-log']);
  t.same(Object.keys(versions(out)[0]!), ['version-id', 'timestamp-ms', 'schema-id', 'summary', 'default-catalog', 'default-namespace', 'representations']);
  t.same(Object.keys(versions(out)[1]!), ['version-id', 'timestamp-ms', 'schema-id', 'summary', 'default-namespace', 'representations']);
  t.same(Object.keys((out['version-log'] as object[])[0]!), ['timestamp-ms', 'version-id']);
});

t.test('empty properties are not written, as Java', async (t) => {
  const out = viewMetadataToJson(parseViewMetadata(VIEW_LIBERAL)) as Record<string, unknown>;
  t.notOk('properties' in out);
});

t.test('what foreign writers do is read liberally', async (t) => {
  const meta = parseViewMetadata(VIEW_LIBERAL);
  t.same(meta.properties, {}, 'absent properties are empty');
  const v = currentViewVersion(meta);
  t.notOk('defaultCatalog' in v, 'a null default-catalog is absent');
  t.same(v.summary, { operation: 'create', retries: '2' }, 'a number in the summary becomes its text');
  t.same(v.representations[0], { kind: 'sql', sql: 'select 1 id', dialect: 'spark' }, 'the type SQL is read case-insensitively');
  t.equal(v.representations.filter((r) => r.kind === 'sql').length, 2, 'two queries for one dialect are readable (Java TestViewMetadataParser)');
  t.same(v.representations[2], { kind: 'other', type: 'substrait', json: { type: 'substrait', plan: 'AAEC', version: 1 } });
  t.same(meta.extra, { 'x-vendor': { kept: true } }, 'a vendor key is kept, the legacy current-schema-id is not');
  const out = viewMetadataToJson(meta) as Record<string, unknown>;
  t.notOk('current-schema-id' in out);
  t.same(out['x-vendor'], { kept: true });
  t.same((versions(out)[0]!['representations'] as unknown[])[2], { type: 'substrait', plan: 'AAEC', version: 1 }, 'an unknown representation is written back as read');
  t.same((versions(out)[0]!['representations'] as unknown[])[0], { type: 'sql', sql: 'select 1 id', dialect: 'spark' });
});

t.test('gzip-compressed view metadata reads through metadataFileText', async (t) => {
  const { gzipSync } = await import('node:zlib');
  t.equal(parseViewMetadata(metadataFileText(gzipSync(Buffer.from(VIEW)))).currentVersionId, 2);
});

t.test('unusable view metadata is INVALID_METADATA naming the field', async (t) => {
  const cases: Array<[string, string, RegExp]> = [
    ['not JSON', '{"view-uuid": ', /not valid JSON/],
    ['not an object', '[]', /\(root\)/],
    ['format version 2', edit(VIEW, (o) => (o['format-version'] = 2)), /'format-version'/],
    ['no format version', edit(VIEW, (o) => delete o['format-version']), /'format-version'/],
    ['no view-uuid', edit(VIEW, (o) => delete o['view-uuid']), /'view-uuid'/],
    ['no location', edit(VIEW, (o) => delete o['location']), /'location'/],
    ['no current-version-id', edit(VIEW, (o) => delete o['current-version-id']), /'current-version-id'/],
    ['a current version not in versions', edit(VIEW, (o) => (o['current-version-id'] = 1234)), /'current-version-id'/],
    ['a current schema not in schemas', edit(VIEW, (o) => (versions(o)[1]!['schema-id'] = 1234)), /'versions\[1\]\.schema-id'/],
    ['two versions with one id', edit(VIEW, (o) => (versions(o)[1]!['version-id'] = 1)), /'versions\[1\]\.version-id'/],
    ['no schemas', edit(VIEW, (o) => delete o['schemas']), /'schemas'/],
    ['no versions', edit(VIEW, (o) => delete o['versions']), /'versions'/],
    ['no version-log', edit(VIEW, (o) => delete o['version-log']), /'version-log'/],
    ['a version-log entry without a version id', edit(VIEW, (o) => delete (o['version-log'] as Record<string, unknown>[])[0]!['version-id']), /'version-log\[0\]\.version-id'/],
    ['a version without summary', edit(VIEW, (o) => delete versions(o)[0]!['summary']), /'versions\[0\]\.summary'/],
    ['a version without default-namespace', edit(VIEW, (o) => delete versions(o)[0]!['default-namespace']), /'versions\[0\]\.default-namespace'/],
    ['a namespace level that is not a string', edit(VIEW, (o) => (versions(o)[0]!['default-namespace'] = [1])), /'versions\[0\]\.default-namespace\[0\]'/],
    ['representations that are not an array', edit(VIEW, (o) => (versions(o)[0]!['representations'] = {})), /'versions\[0\]\.representations'/],
    ['a SQL representation without dialect', edit(VIEW, (o) => delete (versions(o)[0]!['representations'] as Record<string, unknown>[])[0]!['dialect']), /'versions\[0\]\.representations\[0\]\.dialect'/],
    ['a representation without type', edit(VIEW, (o) => delete (versions(o)[0]!['representations'] as Record<string, unknown>[])[0]!['type']), /'versions\[0\]\.representations\[0\]\.type'/],
    ['a version id beyond int', edit(VIEW, (o) => (versions(o)[0]!['version-id'] = 2 ** 31)), /'versions\[0\]\.version-id'/],
  ];
  for (const [name, text, message] of cases) t.throws(() => parseViewMetadata(text), { code: 'INVALID_METADATA', message }, name);
});

t.test('table metadata is not view metadata', async (t) => {
  const { V2, V1_LEGACY } = await import('./metadata-samples.js');
  t.throws(() => parseViewMetadata(V2), { code: 'INVALID_METADATA' });
  t.throws(() => parseViewMetadata(V1_LEGACY), { code: 'INVALID_METADATA' });
});

t.test('written view metadata satisfies the REST spec ViewMetadata schema', { skip: openApiAvailable() ? false : OPENAPI_SKIP }, async (t) => {
  for (const text of [VIEW, VIEW_LIBERAL]) {
    const out = viewMetadataToJson(parseViewMetadata(text)) as Record<string, unknown>;
    // the spec's ViewRepresentation is SQL only: judge the SQL ones
    for (const v of versions(out)) v['representations'] = (v['representations'] as Array<{ type: string }>).filter((r) => r.type === 'sql');
    t.same(validateAgainst('ViewMetadata', out), []);
  }
});

t.test('real metadata files: views parse and round trip, tables are refused', { skip: realFixturesAvailable() ? false : REAL_FIXTURES_SKIP }, async (t) => {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.metadata\.json(\.gz)?$/.test(e.name)) files.push(p);
    }
  };
  walk(REAL_FIXTURES_DIR);
  let views = 0;
  const notRefused: string[] = [];
  for (const file of files) {
    const text = metadataFileText(fs.readFileSync(file));
    const rel = path.relative(REAL_FIXTURES_DIR, file);
    if (!text.includes('"view-uuid"')) {
      try {
        parseViewMetadata(text);
        notRefused.push(`${rel}: parsed`);
      } catch (err) {
        if ((err as { code?: string }).code !== 'INVALID_METADATA') notRefused.push(`${rel}: ${String(err)}`);
      }
      continue;
    }
    views++;
    const once = stringifyJson(viewMetadataToJson(parseViewMetadata(text)));
    t.equal(stringifyJson(viewMetadataToJson(parseViewMetadata(once))), once, `${rel} round trips`);
  }
  t.same(notRefused, [], 'every table metadata file is refused as a view with INVALID_METADATA');
  t.comment(`${files.length} metadata files, ${views} of them views${views === 0 ? ' (the real fixtures hold no view metadata yet)' : ''}`);
});
