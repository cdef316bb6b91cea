/**
 * Filters over the real fixture tables (and the demo warehouse) for the filtered-plan soundness
 * test, in the REST legacy JSON form. Each is chosen to prune: it names the partition transform
 * or metric it exercises. Values come from the tables' data (see each table in INDEX.md).
 */
type Json = unknown;

const p = (type: string, term: string, value?: Json): Json => (value === undefined ? { type, term } : { type, term, value });
const set = (type: 'in' | 'not-in', term: string, values: Json[]): Json => ({ type, term, values });
const and = (left: Json, right: Json): Json => ({ type: 'and', left, right });
const or = (left: Json, right: Json): Json => ({ type: 'or', left, right });
const not = (child: Json): Json => ({ type: 'not', child });

export interface FilterCase {
  readonly table: string;
  readonly filter: Json;
  /** What the case exercises. */
  readonly covers: string;
  /** False for the few cases kept to check residuals on files that must all stay. */
  readonly prunes?: boolean;
}

const BUCKETS = 'iceberg-cxx/tables/bucket_partitioning';
const IDENTITY = 'iceberg-cxx/tables/identity_partitioning';
const IMPALA_PART = 'impala/iceberg_partitioned';
const IMPALA_FLAT = 'impala/iceberg_non_partitioned';
const LINEITEM = 'glaredb/tables-v2/lineitem_partitioned';

export const REAL_CASES: readonly FilterCase[] = [
  // bucket[N] on ten source types (one Trino file; bucket projection of eq/in, bounds on the rest)
  { table: BUCKETS, filter: p('eq', 'col_int', 2), covers: 'bucket[2] int eq' },
  { table: BUCKETS, filter: p('eq', 'col_string', 'other-string'), covers: 'bucket[42] string eq' },
  { table: BUCKETS, filter: p('eq', 'col_uuid', '00000000-0000-0000-0000-000000000001'), covers: 'bucket[55] uuid eq' },
  { table: BUCKETS, filter: p('eq', 'col_varbinary', '00FF'), covers: 'bucket[812] binary eq' },
  { table: BUCKETS, filter: set('in', 'col_decimal', ['1.00', '2.00']), covers: 'bucket[4] decimal in' },
  { table: BUCKETS, filter: p('lt', 'col_timestamptz', '2020-01-01T00:00:00+00:00'), covers: 'bucket[123] timestamptz: range via metrics only' },
  { table: BUCKETS, filter: p('eq', 'col_long', 2), covers: 'bucket[3] long eq (matches)', prunes: false },
  // identity on every primitive type (one file)
  { table: IDENTITY, filter: p('gt', 'col_float', 3), covers: 'identity float gt' },
  { table: IDENTITY, filter: p('eq', 'col_bool', true), covers: 'identity boolean eq' },
  { table: IDENTITY, filter: p('not-eq', 'col_string', 'some-string'), covers: 'identity string not-eq (unique value)' },
  { table: IDENTITY, filter: p('gt', 'col_time', '18:00:00'), covers: 'identity time gt' },
  { table: IDENTITY, filter: p('lt', 'col_date', '2025-01-01'), covers: 'identity date lt' },
  { table: IDENTITY, filter: p('lt-eq', 'col_decimal', '2.99'), covers: 'identity decimal lt-eq' },
  // day / hour / month on timestamptz, one file with a null partition
  { table: 'iceberg-cxx/tables/day_timestamptz_partitioning', filter: p('gt-eq', 'c2', '2025-01-01T00:00:00+00:00'), covers: 'day(timestamptz) gt-eq, null partition' },
  { table: 'iceberg-cxx/tables/hour_timestamptz_partitioning', filter: p('lt', 'c2', '2024-03-04T00:00:00+00:00'), covers: 'hour(timestamptz) lt, null partition' },
  { table: 'iceberg-cxx/tables/month_timestamptz_partitioning', filter: p('is-null', 'c2'), covers: 'month(timestamptz) is-null' },
  { table: 'iceberg-cxx/tables/month_timestamptz_partitioning', filter: p('not-null', 'c2'), covers: 'month(timestamptz) not-null' },
  // year on date, timestamp, timestamptz
  { table: 'iceberg-cxx/tables/year_date_partitioning', filter: p('gt', 'c2', '2024-12-31'), covers: 'year(date) gt' },
  { table: 'iceberg-cxx/tables/year_timestamp_partitioning', filter: p('lt', 'c2', '2025-01-01T00:00:00'), covers: 'year(timestamp) lt' },
  { table: 'iceberg-cxx/tables/year_timestamptz_partitioning', filter: p('eq', 'c2', '2024-03-03T23:52:00+00:00'), covers: 'year(timestamptz) eq' },
  { table: 'duckdb-iceberg/partition_timestamp_year', filter: p('lt', 'partition_col', '2021-01-01T00:00:00'), covers: 'year(timestamp) lt, three years' },
  // pre-1970 hours (fixInclusiveTimeProjection)
  { table: 'impala/hadoop_catalog/ice/iceberg_timestamp_part', filter: p('lt', 'ts', '1969-01-01T01:10:00'), covers: 'hour(timestamp) lt before 1970' },
  { table: 'impala/hadoop_catalog/ice/iceberg_timestamptz_part', filter: p('eq', 'ts', '1969-01-01T00:00:00+00:00'), covers: 'hour(timestamptz) eq before 1970' },
  // partition evolution and null partition values
  { table: 'iceberg-cxx/tables/partition_evolution', filter: p('gt', 'c3', 10), covers: 'two specs, identity(c3) only in the second; double metrics' },
  { table: 'iceberg-cxx/tables/partition_evolution', filter: and(p('eq', 'c1', 1), p('gt-eq', 'c2', '2025-03-04')), covers: 'two specs, and over identity(c1), identity(c2)' },
  { table: 'iceberg-cxx/tables/partitioning_with_null_value', filter: p('is-null', 'c1'), covers: 'identity int is-null' },
  { table: 'iceberg-cxx/tables/partitioning_with_null_value', filter: p('not-eq', 'c1', 1), covers: 'identity int not-eq with null partitions' },
  { table: 'duckdb-iceberg/hive_partitioned_table', filter: p('eq', 'event_type', 'view'), covers: 'identity(event_type) in spec 1 only, metrics in spec 0' },
  // identity string partitions and metrics on 20 Spark files
  { table: IMPALA_PART, filter: p('eq', 'action', 'click'), covers: 'identity string eq' },
  { table: IMPALA_PART, filter: set('in', 'action', ['view', 'download']), covers: 'identity string in' },
  { table: IMPALA_PART, filter: p('starts-with', 'action', 'do'), covers: 'identity string starts-with' },
  { table: IMPALA_PART, filter: p('not-starts-with', 'action', 'vi'), covers: 'identity string not-starts-with' },
  { table: IMPALA_PART, filter: p('gt-eq', 'event_time', '2020-01-01T10:00:00+00:00'), covers: 'hour(timestamptz) gt-eq' },
  { table: IMPALA_PART, filter: not(p('eq', 'action', 'view')), covers: 'not over identity' },
  { table: IMPALA_PART, filter: or(p('eq', 'action', 'click'), p('gt', 'id', 18)), covers: 'or of partition and metrics' },
  { table: IMPALA_FLAT, filter: p('lt', 'id', 5), covers: 'int metrics lt' },
  { table: IMPALA_FLAT, filter: p('eq', 'user', 'Alan'), covers: 'string metrics eq' },
  { table: IMPALA_FLAT, filter: set('not-in', 'user', ['Alex', 'Lisa']), covers: 'string metrics not-in (unique values)' },
  { table: IMPALA_FLAT, filter: p('lt', 'event_time', '2020-01-01T09:00:00+00:00'), covers: 'timestamptz metrics lt' },
  // identity on the remaining types (DuckDB's Spark tables, two files each)
  { table: 'duckdb-iceberg/partition_bigint', filter: p('lt', 'partition_col', 0), covers: 'identity long lt (extreme values)' },
  { table: 'duckdb-iceberg/partition_binary', filter: p('eq', 'partition_col', 'AABBCC'), covers: 'identity binary eq' },
  { table: 'duckdb-iceberg/partition_decimal_hugeint', filter: p('gt', 'partition_col', '0'), covers: 'identity decimal(36,23) gt' },
  { table: 'duckdb-iceberg/partition_decimal_bigint', filter: set('in', 'partition_col', ['0.00000000001', '1.23456789012']), covers: 'identity decimal(16,11) in' },
  { table: 'duckdb-iceberg/partition_double', filter: p('gt', 'partition_col', 3), covers: 'identity float gt' },
  { table: 'duckdb-iceberg/partition_fixed_length_binary/default.db/partition_fixed_length_binary', filter: p('eq', 'partition_col', '68656C6C6F20776F726C64'), covers: 'identity fixed[11] eq' },
  { table: 'duckdb-iceberg/partition_time/default.db/partition_time', filter: p('lt', 'partition_col', '10:00:00'), covers: 'identity time lt' },
  { table: 'duckdb-iceberg/partition_timestamp_ns', filter: p('gt', 'partition_col', '2023-06-01T00:00:00'), covers: 'identity timestamp gt' },
  { table: 'duckdb-iceberg/partition_timestamptz/default.db/partition_timestamptz', filter: p('eq', 'partition_col', '2023-05-15T14:30:45+00:00'), covers: 'identity timestamptz eq' },
  { table: 'duckdb-iceberg/partition_bool', filter: p('eq', 'partition_col', true), covers: 'identity boolean eq' },
  { table: 'duckdb-iceberg/partition_integer', filter: set('not-in', 'partition_col', [42, 7]), covers: 'identity int not-in' },
  { table: 'duckdb-iceberg/partition_bucket_test', filter: p('eq', 'partition_col', 'partition_3'), covers: 'bucket[10] string eq' },
  { table: 'duckdb-iceberg/partition_bucket_test', filter: set('in', 'partition_col', ['partition_2', 'partition_3']), covers: 'bucket[10] string in' },
  { table: 'duckdb-iceberg/uuid', filter: p('eq', 'uuid', '00000000-0000-0000-0000-000000000001'), covers: 'uuid metrics eq' },
  { table: 'duckdb-iceberg/uuid', filter: p('lt', 'uuid', '10000000-0000-0000-0000-000000000000'), covers: 'uuid metrics lt (Java signed order: 8…-f… sort first)' },
  // nulls
  { table: 'duckdb-iceberg/null_stats/default/test_nulls', filter: p('eq', 'flag', false), covers: 'boolean bounds, no null counts, an all-null file without bounds' },
  { table: 'duckdb-iceberg/null_stats/default/test_nulls', filter: p('is-null', 'flag'), covers: 'is-null without null counts (nothing to prune)', prunes: false },
  { table: 'duckdb-iceberg/null_stats/default/test_nulls', filter: p('eq', 'name', 'e'), covers: 'string bounds, no null counts' },
  { table: 'duckdb-iceberg/is_null_is_not_null', filter: p('is-null', 'value'), covers: 'string null counts is-null' },
  { table: 'duckdb-iceberg/large_partitioned_table', filter: p('lt', 'joined', '1985-01-01T00:00:00+00:00'), covers: 'month(timestamptz) lt, 15 files' },
  { table: 'duckdb-iceberg/large_partitioned_table', filter: p('eq', 'joined', '1985-01-31T23:00:00+00:00'), covers: 'month(timestamptz) eq, no column stats' },
  // TPC-H lineitem: identity(l_shipmode), metrics on long/date/decimal
  { table: LINEITEM, filter: p('eq', 'l_shipmode', 'AIR'), covers: 'identity string eq, 7 files' },
  { table: LINEITEM, filter: set('not-in', 'l_shipmode', ['AIR', 'MAIL']), covers: 'identity string not-in' },
  { table: LINEITEM, filter: p('starts-with', 'l_shipmode', 'REG'), covers: 'identity string starts-with (space in value)' },
  { table: LINEITEM, filter: p('lt', 'l_orderkey', 6000), covers: 'long metrics lt' },
  { table: LINEITEM, filter: p('lt', 'l_shipdate', '1992-03-01'), covers: 'date metrics lt' },
  { table: LINEITEM, filter: and(p('eq', 'l_shipmode', 'SHIP'), p('gt', 'l_linenumber', 7)), covers: 'and of identity and int metrics' },
  { table: LINEITEM, filter: p('gt', 'l_extendedprice', '99000.00'), covers: 'decimal(15,2) metrics gt' },
  // doubles, floats, NaN counts
  { table: 'jankaul-iceberg-rust/nyc_taxis', filter: p('gt', 'fare_amount', 40), covers: 'double metrics gt' },
  { table: 'jankaul-iceberg-rust/nyc_taxis', filter: p('lt', 'trip_distance', 1), covers: 'float metrics lt' },
  { table: 'jankaul-iceberg-rust/nyc_taxis', filter: p('is-nan', 'fare_amount'), covers: 'double NaN counts is-nan' },
  { table: 'jankaul-iceberg-rust/nyc_taxis', filter: p('eq', 'store_and_fwd_flag', 'Y'), covers: 'string metrics eq' },
  { table: 'polars/iceberg-table', filter: p('lt', 'ts', '2023-03-02T00:00:00'), covers: 'day(timestamp) lt' },
  // merge-on-read tables under a filter (deletes filtered by the row filter too)
  { table: 'dremio-oss/v2/multi_rowgroup_orders_with_deletes', filter: and(p('gt-eq', 'order_id', 2500), p('lt', 'order_id', 3500)), covers: 'int metrics range, position deletes' },
  { table: 'dremio-oss/v2/multi_rowgroup_orders_with_deletes', filter: p('eq', 'order_year', 2019), covers: 'identity int eq, position deletes' },
  { table: 'dremio-oss/v2/orders', filter: p('is-nan', 'amount'), covers: 'double NaN counts is-nan' },
  { table: 'impala/hadoop_catalog/ice/iceberg_v2_delete_equality_partitioned', filter: p('eq', 'd', '2023-12-25'), covers: 'identity date eq, equality deletes' },
  { table: 'impala/hadoop_catalog/ice/iceberg_v2_delete_equality_partitioned', filter: p('gt', 'i', 100), covers: 'int metrics gt, equality deletes' },
  {
    table: 'dremio-oss/v2/products_with_eq_deletes',
    filter: and(p('eq', 'category', 'widget'), p('eq', 'color', 'green')),
    covers: 'equality deletes on color; whole-row delete files filtered by their stats',
  },
  { table: 'dremio-oss/v2/products_with_eq_deletes', filter: p('lt', 'product_id', 100), covers: 'int metrics, equality deletes on product_id' },
  {
    table: 'icebird/hyperparam-iceberg/java/bunnies',
    filter: p('gt', 'Average Weight', 3),
    // Java prunes this delete file by its (null) Average Weight stats and resurrects a deleted row;
    // Icefront prunes delete files by partition only, so the deleted row stays deleted.
    covers: 'equality delete whose non-key columns are written as null',
    prunes: false,
  },
  // renamed columns, bucket[4] + identity(date)
  { table: 'icebird/hyperparam-iceberg/spark/rename_column', filter: p('eq', 'id', 4), covers: 'bucket[4] int eq' },
  { table: 'icebird/hyperparam-iceberg/spark/rename_column', filter: p('is-null', 'event_date'), covers: 'identity date is-null' },
  { table: 'icebird/hyperparam-iceberg/spark/rename_column', filter: p('starts-with', 'name', 'Flo'), covers: 'string metrics starts-with (non-ASCII bounds)' },
  { table: 'icebird/hyperparam-iceberg/spark/rename_column', filter: p('gt', 'price', '100.00'), covers: 'decimal(10,2) metrics gt' },
  { table: 'iceberg-cxx/tables/types/all_trino_types', filter: p('starts-with', 'string_col', 'World'), covers: 'string metrics starts-with' },
  { table: 'iceberg-cxx/tables/types/all_trino_types', filter: p('lt', 'binary_col', 'DE'), covers: 'binary metrics lt' },
  // nested fields, schema evolution, v3 default values
  { table: 'duckdb-iceberg/struct_filter_issue', filter: p('lt', 'redpanda.timestamp', '2025-01-01T00:00:00'), covers: 'hour() of a field inside a struct' },
  { table: 'impala/hadoop_catalog/ice/iceberg_v2_equality_delete_schema_evolution', filter: p('is-null', 'j'), covers: 'column added later: older files have no stats for it and read null' },
  { table: 'impala/iceberg_v3/iceberg_v3_default_value', filter: p('eq', 'j', -1), covers: 'v3 initial-default: a file written before the column reads the default' },
  { table: 'impala/iceberg_v3/test_default_part', filter: p('eq', 'j', -1), covers: 'identity(j) added by partition evolution; older files read the default' },
  // tables as their writers left them (issue 8): each case fails with a wrong answer or an error
  // when its class is mishandled
  { table: 'dremio-oss/partitionednation', filter: p('eq', 'regionkey', 11), covers: 'version hint says 2; v3 and v4 exist: this file was committed after the hint' },
  { table: 'duckdb-iceberg/partition_timestamptz/default.db/partition_timestamptz', filter: p('eq', 'partition_col', '2023-05-15T16:30:45+02'), covers: 'timestamptz literal with a ±HH offset' },
  { table: 'duckdb-iceberg/large_partitioned_table', filter: p('eq', 'joined', '1985-01-31T23:00:00+00'), covers: 'timestamptz ±HH offset; location typo, paths resolved by suffix' },
  { table: 'duckdb-iceberg/large_partitioned_table', filter: p('gt-eq', 'joined', '1985-02-01T01:00:00+0100'), covers: 'timestamptz ±HHMM offset' },
  { table: 'duckdb-iceberg/big_query_error', filter: p('eq', 'id', 1), covers: 'gs:// location, manifest list and data recorded relative to the writer', prunes: false },
  { table: 'iceberg-cxx/meta_perf/warehouse/performance/manifest_files', filter: p('lt', 'a', 1024), covers: 'one manifest listed 10,000 times, read once; location ends in /metadata' },
  { table: 'duckdb-iceberg/moved_positional_delete_path', filter: p('eq', 'id', 'value_0'), covers: 'placeholder bounds min_val_N > max_val_N are not evidence; deletes hold original paths', prunes: false },
  { table: 'duckdb-iceberg/moved_positional_delete_path', filter: p('starts-with', 'eventcode', 'value_1'), covers: 'starts-with above both placeholder bounds', prunes: false },
];

/** The demo warehouse (always present): NaN values, truncate[4], bucket[8] on int, null binary. */
export const DEMO_CASES: readonly FilterCase[] = [
  { table: 'sales.orders', filter: p('is-nan', 'discount'), covers: 'double is-nan with a real NaN' },
  { table: 'sales.orders', filter: p('gt', 'discount', 0.2), covers: 'double gt next to NaN values (NaN never compares)' },
  { table: 'sales.orders', filter: not(p('lt-eq', 'discount', 0.2)), covers: 'not(lt-eq) next to NaN values' },
  { table: 'sales.orders', filter: p('not-nan', 'discount'), covers: 'double not-nan', prunes: false },
  { table: 'sales.orders', filter: p('starts-with', 'sku', 'GAME'), covers: 'truncate[4] string starts-with' },
  { table: 'sales.orders', filter: p('eq', 'customer_id', 101), covers: 'bucket[8] int eq' },
  { table: 'sales.orders', filter: p('is-null', 'signature'), covers: 'binary is-null' },
  { table: 'sales.orders', filter: and(p('eq', 'region', 'EU'), p('lt', 'order_ts', '2024-03-02T00:00:00+00:00')), covers: 'identity and day(timestamptz)' },
  { table: 'sales.returns', filter: p('eq', 'region', 'US'), covers: 'identity string eq, equality and position deletes' },
  { table: 'events.clicks', filter: p('gt-eq', 'event_ts', '2024-03-03T00:00:00+00:00'), covers: 'day(timestamptz), deletion vectors' },
];
