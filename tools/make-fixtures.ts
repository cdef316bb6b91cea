/**
 * Generates the embedded demo warehouse (`npm run fixtures` → fixtures/warehouse): four small
 * Iceberg tables written with tools/iceberg-writer, one directory per namespace. Seeds, UUIDs and
 * clocks are fixed, so re-running reproduces every byte.
 * Usage: tsx tools/make-fixtures.ts [outDir] [--location URI] (default s3://icefront-demo/warehouse)
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  appendRows,
  deleteEquality,
  deletePositions,
  deleteWithVectors,
  IdSource,
  overwriteRows,
  TableBuilder,
  type CreateTableOptions,
  type Row,
} from './iceberg-writer/index.js';

const WAREHOUSE_LOCATION = 's3://icefront-demo/warehouse';

/** Where tables are written and the location they record (`<location>/<namespace>/<table>`). */
interface Out {
  readonly dir: string;
  readonly location: string;
}
const DAY_MS = 86_400_000;
const T0 = Date.UTC(2024, 2, 1); // 2024-03-01, the clock of every table's first commit
const MICROS_PER_MS = 1000n;
const README_TITLE = '# Demo warehouse';

export interface TableReport {
  readonly name: string;
  readonly formatVersion: number;
  readonly description: string;
  readonly snapshots: number;
  readonly liveRows: number;
}

type TableSetup = Omit<CreateTableOptions, 'root' | 'location' | 'timestampMs'>;

function create(out: Out, ns: string, table: string, setup: TableSetup): TableBuilder {
  return TableBuilder.create({
    ...setup,
    root: path.join(out.dir, ns, table),
    location: `${out.location}/${ns}/${table}`,
    timestampMs: T0,
  });
}

const micros = (ms: number): bigint => BigInt(ms) * MICROS_PER_MS;
const days = (ms: number): number => Math.floor(ms / DAY_MS);
const field = (id: number, name: string, type: string, required = false) => ({ id, name, required, type });

/** sales/orders: v2, four-field partitioning (identity, day, bucket, truncate), append ×2 then overwrite. */
function salesOrders(out: Out): TableReport {
  const t = create(out, 'sales', 'orders', {
    formatVersion: 2,
    seed: 'sales.orders',
    schema: {
      type: 'struct', 'schema-id': 0, 'identifier-field-ids': [1],
      fields: [
        field(1, 'order_id', 'long', true), field(2, 'region', 'string'), field(3, 'order_ts', 'timestamptz'),
        field(4, 'customer_id', 'int'), field(5, 'sku', 'string'), field(6, 'amount', 'decimal(10, 2)'),
        field(7, 'quantity', 'int'), field(8, 'order_date', 'date'), field(9, 'shipped_at', 'timestamp'),
        field(10, 'discount', 'double'), field(11, 'gift', 'boolean'), field(12, 'order_uuid', 'uuid'),
        field(13, 'signature', 'binary'),
      ],
    },
    partitionSpec: {
      'spec-id': 0,
      fields: [
        { name: 'region', transform: 'identity', 'source-id': 2, 'field-id': 1000 },
        { name: 'order_ts_day', transform: 'day', 'source-id': 3, 'field-id': 1001 },
        { name: 'customer_id_bucket', transform: 'bucket[8]', 'source-id': 4, 'field-id': 1002 },
        { name: 'sku_trunc', transform: 'truncate[4]', 'source-id': 5, 'field-id': 1003 },
      ],
    },
    sortOrder: { 'order-id': 1, fields: [{ transform: 'identity', 'source-id': 1, direction: 'asc', 'null-order': 'nulls-first' }] },
    properties: { 'write.format.default': 'parquet', 'write.parquet.compression-codec': 'snappy' },
  });
  const rnd = new IdSource('sales.orders.rows');
  const order = (id: number, region: string, dayOffset: number): Row => {
    const ts = T0 + dayOffset * DAY_MS + rnd.int(0, 86_399) * 1000;
    return {
      order_id: BigInt(id),
      region,
      order_ts: micros(ts),
      customer_id: [101, 202, 303][id % 3]!,
      sku: ['BOOK-0001', 'BOOK-0042', 'GAME-0007'][id % 2 === 0 ? 0 : rnd.int(1, 2)]!,
      amount: BigInt(rnd.int(100, 99_999)),
      quantity: rnd.int(1, 5),
      order_date: days(ts),
      shipped_at: id % 4 === 0 ? null : micros(ts + 2 * DAY_MS),
      discount: id === 3 ? Number.NaN : id === 5 ? null : rnd.int(0, 30) / 100,
      gift: id % 5 === 0,
      order_uuid: rnd.uuid(),
      signature: id % 6 === 0 ? null : rnd.bytes(6),
    };
  };
  const day1 = [...Array(12).keys()].map((i) => order(i + 1, i % 3 === 0 ? 'US' : 'EU', 0));
  appendRows(t, day1);
  appendRows(t, [...Array(10).keys()].map((i) => order(i + 13, i % 2 === 0 ? 'US' : 'EU', 1)));
  // the US files of day 1 are rewritten with corrected amounts; order 4 is dropped
  const usDay1 = t.liveFiles().filter((f) => f.rows?.some((r) => r.region === 'US' && r.order_date === days(T0)));
  const corrected = usDay1
    .flatMap((f) => f.rows ?? [])
    .filter((r) => r.order_id !== 4n)
    .map((r) => ({ ...r, amount: (r.amount as bigint) + 100n }));
  overwriteRows(t, usDay1.map((f) => f.file.filePath), corrected);
  return report('sales.orders', t, 'v2; partitioned by identity(region), day(order_ts), bucket[8](customer_id), truncate[4](sku); '
    + 'sorted by order_id; append, append, overwrite (US day-1 files replaced, one order dropped); manifests deflate');
}

/** sales/returns: v2, position and equality deletes, a re-insert after the equality delete, and a dangling position delete. */
function salesReturns(out: Out): TableReport {
  const t = create(out, 'sales', 'returns', {
    formatVersion: 2,
    seed: 'sales.returns',
    codec: 'snappy',
    schema: {
      type: 'struct', 'schema-id': 0,
      fields: [
        field(1, 'return_id', 'long', true), field(2, 'order_id', 'long'), field(3, 'region', 'string'),
        field(4, 'reason', 'string'), field(5, 'returned_on', 'date'), field(6, 'refund', 'decimal(9, 2)'),
        field(7, 'restocked', 'boolean'),
      ],
    },
    partitionSpec: { 'spec-id': 0, fields: [{ name: 'region', transform: 'identity', 'source-id': 3, 'field-id': 1000 }] },
    properties: { 'write.delete.mode': 'merge-on-read' },
  });
  const reasons = ['damaged', 'wrong size', 'late', 'changed mind'];
  const ret = (id: number, region: string): Row => ({
    return_id: BigInt(id),
    order_id: BigInt(1000 + id),
    region,
    reason: reasons[id % reasons.length]!,
    returned_on: days(T0) + (id % 9),
    refund: BigInt(id * 1250),
    restocked: id % 2 === 0 ? true : id % 3 === 0 ? null : false,
  });
  const { dataFiles } = appendRows(t, [...Array(16).keys()].map((i) => ret(i + 1, i < 9 ? 'EU' : 'US')), { rowsPerFile: 5 });
  const [euA, , , usB] = dataFiles;
  deletePositions(t, [{ dataFile: euA!.path, positions: [1, 3] }, { dataFile: usB!.path, positions: [0] }], { perFile: true });
  // return 7 (EU) and 14 (US) are deleted by value; return 99 matches nothing
  deleteEquality(t, ['return_id'], [
    { return_id: 7n, region: 'EU' }, { return_id: 14n, region: 'US' }, { return_id: 99n, region: 'US' },
  ]);
  // return 7 comes back: newer than the equality delete, so it stays
  appendRows(t, [{ ...ret(7, 'EU'), reason: 'reopened' }, ret(17, 'EU')]);
  // compaction of the first EU file; its position-delete file stays behind, dangling
  const survivors = t.liveRows().filter((r) => r.dataFile === euA!.path).map((r) => r.row);
  overwriteRows(t, [euA!.path], survivors);
  return report('sales.returns', t, 'v2; partitioned by identity(region); append, position deletes (file-scoped), '
    + 'equality deletes on return_id, append re-inserting a deleted key, overwrite compacting a file (its position delete is left dangling); manifests snappy');
}

/** events/clicks: v3 with deletion vectors and row lineage. */
function eventsClicks(out: Out): TableReport {
  const t = create(out, 'events', 'clicks', {
    formatVersion: 3,
    seed: 'events.clicks',
    schema: {
      type: 'struct', 'schema-id': 0,
      fields: [
        field(1, 'event_id', 'long', true), field(2, 'event_ts', 'timestamptz'), field(3, 'user_id', 'int'),
        field(4, 'page', 'string'), field(5, 'session', 'uuid'), field(6, 'duration_ms', 'long'), field(7, 'bot', 'boolean'),
      ],
    },
    partitionSpec: { 'spec-id': 0, fields: [{ name: 'event_ts_day', transform: 'day', 'source-id': 2, 'field-id': 1000 }] },
    properties: { 'write.delete.mode': 'merge-on-read' },
  });
  const rnd = new IdSource('events.clicks.rows');
  const pages = ['/', '/pricing', '/docs', '/blog/iceberg', '/signup'];
  const click = (id: number, dayOffset: number): Row => ({
    event_id: BigInt(id),
    event_ts: micros(T0 + dayOffset * DAY_MS + id * 61_000),
    user_id: rnd.int(1, 6),
    page: pages[id % pages.length]!,
    session: rnd.uuid(),
    duration_ms: id % 10 === 0 ? null : BigInt(rnd.int(50, 90_000)),
    bot: id % 7 === 0,
  });
  const { dataFiles } = appendRows(t, [...Array(30).keys()].map((i) => click(i + 1, i < 15 ? 0 : 1)), { rowsPerFile: 10 });
  // a run of positions (run-length encoded in the bitmap) and scattered ones
  deleteWithVectors(t, [
    { dataFile: dataFiles[0]!.path, positions: [2, 3, 4, 5, 6, 7] },
    { dataFile: dataFiles[2]!.path, positions: [0, 4] },
  ]);
  appendRows(t, [...Array(8).keys()].map((i) => click(i + 31, 2)));
  return report('events.clicks', t, 'v3; partitioned by day(event_ts); append, deletion vectors (two blobs in one Puffin file), append; row lineage (first-row-id)');
}

/** legacy/inventory: v1, the first snapshot listing its manifests inline (no manifest list). */
function legacyInventory(out: Out): TableReport {
  const t = create(out, 'legacy', 'inventory', {
    formatVersion: 1,
    seed: 'legacy.inventory',
    codec: 'null',
    schema: {
      type: 'struct', 'schema-id': 0,
      fields: [
        field(1, 'sku', 'string', true), field(2, 'warehouse', 'string'), field(3, 'on_hand', 'int'),
        field(4, 'unit_cost', 'decimal(8, 2)'), field(5, 'last_counted', 'date'), field(6, 'updated_at', 'timestamp'),
        field(7, 'weight_kg', 'float'),
      ],
    },
    partitionSpec: { 'spec-id': 0, fields: [{ name: 'warehouse', transform: 'identity', 'source-id': 2, 'field-id': 1000 }] },
  });
  const item = (n: number, warehouse: string): Row => ({
    sku: `SKU-${String(n).padStart(4, '0')}`,
    warehouse,
    on_hand: (n * 37) % 120,
    unit_cost: BigInt(199 + n * 75),
    last_counted: days(T0) - (n % 5),
    updated_at: micros(T0 - n * 3_600_000),
    weight_kg: n === 4 ? null : Math.fround(0.25 * n),
  });
  // the first snapshot lists its manifests inline, as writers did before manifest lists
  const files = appendRows(t, [...Array(8).keys()].map((i) => item(i + 1, i % 2 ? 'AMS' : 'BER')), { inlineManifests: true });
  appendRows(t, [...Array(5).keys()].map((i) => item(i + 9, 'CPH')));
  const ams = files.dataFiles.find((f) => f.rows[0]?.warehouse === 'AMS')!;
  overwriteRows(t, [ams.path], ams.rows.map((r) => ({ ...r, on_hand: (r.on_hand as number) + 1 })));
  return report('legacy.inventory', t, 'v1; partitioned by identity(warehouse); manifests uncompressed (null codec); '
    + 'the first snapshot lists its manifests inline; append, append, overwrite (DELETED/EXISTING entries without sequence numbers)');
}

function report(name: string, t: TableBuilder, description: string): TableReport {
  return { name, formatVersion: t.version, description, snapshots: t.snapshotCount(), liveRows: t.liveRows().length };
}

/**
 * Writes all demo tables under `outDir` (replacing it) and their README; returns what was written.
 * Tables record `<location>/<namespace>/<table>` as their location.
 */
/** The tables buildWarehouse writes, as namespace and table folder. */
const GENERATED_TABLES = [['sales', 'orders'], ['sales', 'returns'], ['events', 'clicks'], ['legacy', 'inventory']] as const;

/**
 * Writes the generated tables into `outDir`, replacing the folder (or, with `keepOthers`, only the
 * generated tables' own folders: a writable demo keeps what its users created).
 */
export function buildWarehouse(outDir: string, location = WAREHOUSE_LOCATION, options: { keepOthers?: boolean } = {}): TableReport[] {
  // only ever replace an empty folder or a warehouse this script wrote
  const readmePath = path.join(outDir, 'README.md');
  const ours = fs.existsSync(readmePath) && fs.readFileSync(readmePath, 'utf8').startsWith(README_TITLE);
  if (fs.existsSync(outDir) && fs.readdirSync(outDir).length > 0 && !ours) {
    throw new Error(`${outDir} is not empty and is not a generated warehouse; refusing to replace it`);
  }
  if (options.keepOthers) for (const [ns, table] of GENERATED_TABLES) fs.rmSync(path.join(outDir, ns, table), { recursive: true, force: true });
  else fs.rmSync(outDir, { recursive: true, force: true });
  fs.mkdirSync(outDir, { recursive: true });
  const out: Out = { dir: outDir, location: location.replace(/\/+$/, '') };
  const tables = [salesOrders(out), salesReturns(out), eventsClicks(out), legacyInventory(out)];
  fs.writeFileSync(path.join(outDir, 'README.md'), readme(tables, out.location));
  return tables;
}

function readme(tables: readonly TableReport[], location: string): string {
  const rows = tables.map((t) => `| \`${t.name}\` | ${t.formatVersion} | ${t.snapshots} | ${t.liveRows} | ${t.description} |`);
  return [
    README_TITLE,
    '',
    'Generated by `npm run fixtures` (tools/make-fixtures.ts, writer in tools/iceberg-writer). Do not edit by hand:',
    'seeds, UUIDs and clocks are fixed, so regenerating reproduces these bytes exactly.',
    '',
    `Namespaces are directories; every table records its location as \`${location}/<namespace>/<table>\``,
    '(config.example.yaml maps that prefix to this folder). Each table uses the Hadoop layout:',
    '`metadata/v<N>.metadata.json` plus `metadata/version-hint.text`.',
    '',
    '"Live rows" is what a correct reader returns for the current snapshot after applying every delete;',
    'test/tools/make-fixtures.test.ts recomputes it from the files with independent readers.',
    '',
    '| table | format | snapshots | live rows | contents |',
    '|---|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const args = process.argv.slice(2);
  const at = args.indexOf('--location');
  const location = at >= 0 ? args.splice(at, 2)[1] : undefined;
  const out = path.resolve(args[0] ?? path.join(import.meta.dirname, '..', 'fixtures', 'warehouse'));
  for (const t of buildWarehouse(out, location)) console.log(`${t.name}: v${t.formatVersion}, ${t.snapshots} snapshots, ${t.liveRows} live rows`);
}
