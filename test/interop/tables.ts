/**
 * The tables the interop suite writes into the REST fixture through Icefront, and the scans it
 * reads back from each. One definition per table: the SQL Spark runs (through Icefront's `rest`
 * catalog, so every commit passes the door), the columns read, and the filters, each a predicate
 * Spark SQL, pyiceberg's row-filter parser and DuckDB all accept (with a per-client spelling
 * only where their syntaxes differ). A filter may read an older snapshot (`at`: an index into
 * the table's snapshots in commit order).
 *
 * What the tables cover (issue 9, item 3):
 *   events    format v2, identity partition, merge-on-read DELETE and UPDATE (position deletes;
 *             the UPDATE's scan planned by the fixture through Icefront)
 *   clicks    day(ts) evolved to hour(ts); columns added, renamed and promoted (int → long);
 *             a merge-on-read DELETE across both specs
 *   accounts  bucket(4, id) and truncate(2, name); decimal, double, boolean and date columns;
 *             a merge-on-read MERGE (delete, update, insert) whose scan the fixture plans
 *   dv        format v3: merge-on-read DELETE twice and UPDATE, i.e. deletion vectors (Puffin),
 *             the second replacing the first for the same data file
 *   eq_part   written by Iceberg Java's own writers (tools/interop/writers, Spark writes none):
 *             equality deletes on `id` and on `qty` per identity partition, then rows re-inserted
 *             with deleted keys (a higher sequence number: they stay)
 *   eq_global the same writer, unpartitioned: a global equality delete on `note`, a position
 *             delete, then an append
 */

import type { ScanJob } from './harness/clients.js';

export interface FilterCase {
  readonly name: string;
  /** Spark SQL / DuckDB / pyiceberg predicate; absent: the whole table. */
  readonly filter?: string;
  /** A different spelling for one client, where its syntax differs. */
  readonly spelling?: Partial<Record<ScanJob['client'], string>>;
  /** Time travel: read the snapshot at this index of the table's snapshots (commit order). */
  readonly at?: number;
  /** Columns to read, when not the table's (an old snapshot's schema). */
  readonly columns?: readonly string[];
}

export interface InteropTable {
  /** `db.name` */
  readonly name: string;
  /**
   * Run in order by Spark through Icefront; `{catalog}` is the catalog, `{table}` the table. Or
   * the Java equality-delete writer (harness/java-writer.ts), which commits both eq_ tables.
   */
  readonly write: ReadonlyArray<{ readonly sql: string; readonly planning?: 'server' }> | 'equality-delete-writer';
  /** Operations of the table's snapshots in commit order, as the fixture must record them. */
  readonly snapshots: readonly string[];
  readonly columns: readonly string[];
  readonly filters: readonly FilterCase[];
}

const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, k) => from + k);
const q = (s: string | null): string => (s === null ? 'NULL' : `'${s}'`);
const values = (ids: number[], row: (i: number) => string): string => ids.map((i) => `(${row(i)})`).join(', ');
const ts = (baseMs: number, hours: number): string => `TIMESTAMP '${new Date(baseMs + hours * 3_600_000).toISOString().slice(0, 19).replace('T', ' ')}+00:00'`;
const MOR = `'format-version'='2', 'write.delete.mode'='merge-on-read', 'write.update.mode'='merge-on-read', 'write.merge.mode'='merge-on-read'`;

const eventRow = (i: number): string =>
  `${i}, '${['a', 'b', 'c'][i % 3]}', ${(i * 1.5).toFixed(1)}D, ${q(i % 4 === 0 ? null : `n${i}`)}, DATE '2026-01-0${1 + (i % 5)}'`;

const events: InteropTable = {
  name: 'db.events',
  write: [
    {
      sql: `CREATE TABLE {table} (id bigint, category string, amount double, note string, day date)
            USING iceberg PARTITIONED BY (category) TBLPROPERTIES (${MOR})`,
    },
    { sql: `INSERT INTO {table} VALUES ${values(range(1, 24), eventRow)}` },
    { sql: `INSERT INTO {table} VALUES ${values(range(101, 124), eventRow)}` },
    { sql: 'DELETE FROM {table} WHERE id % 5 = 0' },
    // Row-level DML whose scan the fixture plans (Spark asks Icefront, Icefront proxies): its
    // select carries _file, _pos, _spec_id, _partition.
    { sql: `UPDATE {table} SET note = 'updated' WHERE id IN (7, 107)`, planning: 'server' },
  ],
  snapshots: ['append', 'append', 'delete', 'overwrite'],
  columns: ['id', 'category', 'amount', 'note', 'day'],
  filters: [
    { name: 'none' },
    { name: 'identity partition', filter: "category = 'b'" },
    { name: 'identity partition, in', filter: "category IN ('a', 'c')" },
    { name: 'identity partition, not', filter: "NOT (category = 'a')" },
    { name: 'long metrics (the second commit)', filter: 'id >= 100' },
    { name: 'long metrics, one row the UPDATE rewrote', filter: 'id = 107' },
    { name: 'is null', filter: 'note IS NULL' },
    { name: 'is not null', filter: 'note IS NOT NULL' },
    { name: 'string prefix', filter: "note LIKE 'n1%'" },
    { name: 'double metrics', filter: 'amount > 30.0 AND amount <= 160.5' },
    { name: 'date metrics', filter: "day = DATE '2026-01-03'", spelling: { pyiceberg: "day = '2026-01-03'", 'iceberg-go': "day = '2026-01-03'" } },
    { name: 'partition and metrics', filter: "category = 'a' AND id < 110" },
    { name: 'or across partitions', filter: "category = 'c' OR id = 101" },
    { name: 'time travel: the first append', at: 0 },
    { name: 'time travel: the DELETE’s snapshot (before the UPDATE), metrics', filter: 'id < 110', at: 2 },
  ],
};

// clicks: ts every 5 hours from 2026-03-01 under day(ts); then hour(ts) for ts every hour on
// 2026-03-05; then a new column, a rename and a promotion.
const MARCH_1 = Date.UTC(2026, 2, 1);
const MARCH_5 = Date.UTC(2026, 2, 5);
const clicks: InteropTable = {
  name: 'db.clicks',
  write: [
    {
      sql: `CREATE TABLE {table} (id bigint, ts timestamp, user_name string, score int, tag string)
            USING iceberg PARTITIONED BY (days(ts)) TBLPROPERTIES (${MOR})`,
    },
    { sql: `INSERT INTO {table} VALUES ${values(range(1, 30), (i) => `${i}, ${ts(MARCH_1, i * 5)}, 'u${i % 4}', ${i * 3}, ${q(i % 5 === 0 ? null : `t${i % 3}`)}`)}` },
    { sql: 'ALTER TABLE {table} REPLACE PARTITION FIELD days(ts) WITH hours(ts)' },
    { sql: `INSERT INTO {table} VALUES ${values(range(31, 50), (i) => `${i}, ${ts(MARCH_5, i - 30)}, 'u${i % 4}', ${i * 3}, ${q(`t${i % 3}`)}`)}` },
    { sql: 'ALTER TABLE {table} ADD COLUMN extra string' },
    { sql: 'ALTER TABLE {table} RENAME COLUMN tag TO label' },
    { sql: 'ALTER TABLE {table} ALTER COLUMN score TYPE bigint' },
    {
      sql: `INSERT INTO {table} VALUES ${values(range(51, 60), (i) => `${i}, ${ts(MARCH_5, i - 40)}, 'u${i % 4}', ${10_000_000_000 + i}, 't${i % 3}', 'x${i}'`)}`,
    },
    { sql: 'DELETE FROM {table} WHERE id IN (5, 35, 55)' },
  ],
  snapshots: ['append', 'append', 'append', 'delete'],
  columns: ['id', 'ts', 'user_name', 'score', 'label', 'extra'],
  filters: [
    { name: 'none' },
    {
      name: 'day and hour transforms (both specs), timestamptz lower bound',
      filter: "ts >= TIMESTAMP '2026-03-03 00:00:00+00:00'",
      spelling: {
        pyiceberg: "ts >= '2026-03-03T00:00:00+00:00'",
        duckdb: "ts >= TIMESTAMPTZ '2026-03-03 00:00:00+00:00'",
        'iceberg-go': "ts >= '2026-03-03T00:00:00+00:00'",
      },
    },
    {
      name: 'hour transform, a window inside one day',
      filter: "ts >= TIMESTAMP '2026-03-05 02:00:00+00:00' AND ts < TIMESTAMP '2026-03-05 06:00:00+00:00'",
      spelling: {
        pyiceberg: "ts >= '2026-03-05T02:00:00+00:00' AND ts < '2026-03-05T06:00:00+00:00'",
        duckdb: "ts >= TIMESTAMPTZ '2026-03-05 02:00:00+00:00' AND ts < TIMESTAMPTZ '2026-03-05 06:00:00+00:00'",
        'iceberg-go': "ts >= '2026-03-05T02:00:00+00:00' AND ts < '2026-03-05T06:00:00+00:00'",
      },
    },
    { name: 'metrics on a column promoted int → long', filter: 'score > 100' },
    { name: 'metrics on a renamed column (old files name it tag)', filter: "label = 't1'" },
    { name: 'a column added later is null in older files', filter: 'extra IS NULL' },
    { name: 'a column added later, equality', filter: "extra = 'x57'" },
    { name: 'string in', filter: "user_name IN ('u1', 'u3')" },
    // Its filter avoids `tag`: Spark (Iceberg 1.11) binds a time-travel filter to the current
    // schema when it evaluates manifests, so `tag = 't2'` fails straight on the fixture too.
    { name: 'time travel: before the partition evolution', at: 0, columns: ['id', 'ts', 'user_name', 'score', 'tag'], filter: 'score < 45' },
    { name: 'time travel: before the DELETE', at: 2, columns: ['id', 'ts', 'user_name', 'score', 'label', 'extra'], filter: 'id > 28' },
  ],
};

const NAMES = ['alpha', 'beta', 'gamma', 'delta', 'abacus', 'bravo', 'alpine'];
const accountRow = (i: number): string =>
  `${i}, '${NAMES[i % NAMES.length]}${i}', ${(i * 12.25).toFixed(2)}BD, ${(i / 40).toString()}D, ${i % 3 !== 0}, DATE_ADD(DATE '2025-01-01', ${i})`;
const accounts: InteropTable = {
  name: 'db.accounts',
  write: [
    {
      sql: `CREATE TABLE {table} (id bigint, name string, balance decimal(10,2), rate double, active boolean, opened date)
            USING iceberg PARTITIONED BY (bucket(4, id), truncate(2, name)) TBLPROPERTIES (${MOR})`,
    },
    { sql: `INSERT INTO {table} VALUES ${values(range(1, 40), accountRow)}` },
    {
      sql: `MERGE INTO {table} t
            USING (SELECT * FROM VALUES (2L, 'd', 0BD), (9L, 'u', 999.99BD), (41L, 'i', 41.41BD), (42L, 'i', 42.42BD) AS s(id, op, balance)) s
            ON t.id = s.id
            WHEN MATCHED AND s.op = 'd' THEN DELETE
            WHEN MATCHED THEN UPDATE SET t.balance = s.balance
            WHEN NOT MATCHED THEN INSERT (id, name, balance, rate, active, opened)
                                  VALUES (s.id, CONCAT('alpha', CAST(s.id AS STRING)), s.balance, 0.5D, true, DATE '2025-03-01')`,
      planning: 'server',
    },
  ],
  snapshots: ['append', 'overwrite'],
  columns: ['id', 'name', 'balance', 'rate', 'active', 'opened'],
  filters: [
    { name: 'none' },
    { name: 'bucket transform, equality', filter: 'id = 17' },
    { name: 'bucket transform, in (a row the MERGE updated, one it inserted)', filter: 'id IN (3, 9, 41)' },
    { name: 'bucket transform, not in', filter: 'id NOT IN (1, 2, 3, 4, 5)' },
    { name: 'truncate transform, equality', filter: "name = 'alpha14'" },
    { name: 'truncate transform, prefix as wide as the truncation', filter: "name LIKE 'al%'" },
    { name: 'truncate transform, prefix wider than the truncation', filter: "name LIKE 'alp%'" },
    { name: 'not starts with', filter: "name NOT LIKE 'b%'" },
    { name: 'decimal metrics', filter: 'balance > 300.00' },
    { name: 'double metrics', filter: 'rate <= 0.25' },
    { name: 'boolean', filter: 'active = false' },
    { name: 'date range', filter: "opened BETWEEN DATE '2025-01-10' AND DATE '2025-01-20'", spelling: { pyiceberg: "opened BETWEEN '2025-01-10' AND '2025-01-20'", 'iceberg-go': "opened BETWEEN '2025-01-10' AND '2025-01-20'" } },
    { name: 'time travel: before the MERGE', at: 0, filter: 'id <= 10' },
  ],
};

const dv: InteropTable = {
  name: 'db.dv',
  write: [
    {
      sql: `CREATE TABLE {table} (id bigint, grp string, val double)
            USING iceberg PARTITIONED BY (grp)
            TBLPROPERTIES ('format-version'='3', 'write.delete.mode'='merge-on-read', 'write.update.mode'='merge-on-read')`,
    },
    { sql: `INSERT INTO {table} VALUES ${values(range(1, 30), (i) => `${i}, 'g${i % 3}', ${(i * 0.5).toFixed(1)}D`)}` },
    { sql: 'DELETE FROM {table} WHERE id % 4 = 0' },
    { sql: 'DELETE FROM {table} WHERE id IN (1, 2, 3)' },
    { sql: 'UPDATE {table} SET val = -1.0D WHERE id = 5' },
  ],
  snapshots: ['append', 'delete', 'delete', 'overwrite'],
  columns: ['id', 'grp', 'val'],
  filters: [
    { name: 'none' },
    { name: 'identity partition (v3)', filter: "grp = 'g1'" },
    { name: 'double metrics (v3)', filter: 'val > 5.0' },
    { name: 'time travel: the first deletion vectors', at: 1 },
  ],
};

// The writer's rows (see its source): eq_part ids 1..40, region east for even ids, qty = 10·id,
// note null when id % 3 = 0; eq_global ids 1..35 with the same qty and note.
const EQ_COLUMNS = ['id', 'region', 'qty', 'note'];
const eqPart: InteropTable = {
  name: 'db.eq_part',
  write: 'equality-delete-writer',
  snapshots: ['append', 'delete', 'delete', 'append'],
  columns: EQ_COLUMNS,
  filters: [
    { name: 'equality deletes on two field sets, per partition' },
    { name: 'identity partition', filter: "region = 'west'" },
    { name: 'keys deleted, then re-inserted later (they stay) or not', filter: 'id IN (3, 4, 10, 11)' },
    { name: 'int metrics around the deleted qty values', filter: 'qty >= 200 AND qty <= 320' },
    { name: 'is null', filter: 'note IS NULL' },
    { name: 'time travel: after the first equality deletes', at: 1 },
  ],
};
const eqGlobal: InteropTable = {
  name: 'db.eq_global',
  write: 'equality-delete-writer',
  snapshots: ['append', 'delete', 'delete', 'append'],
  columns: EQ_COLUMNS,
  filters: [
    { name: 'a global equality delete, a position delete, a later append' },
    { name: 'long metrics', filter: 'id < 12' },
    { name: 'string prefix', filter: "note LIKE 'n2%'" },
    { name: 'time travel: before the position delete', at: 1 },
  ],
};

export const INTEROP_TABLES: readonly InteropTable[] = [events, clicks, accounts, dv, eqPart, eqGlobal];
