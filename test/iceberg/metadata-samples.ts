/** Hand-written table metadata documents for the iceberg/ tests (Java test-resource style). */

/** A v2 table with two schemas, two specs, three snapshots (one on a tag) and statistics. */
export const V2 = `{
  "format-version" : 2,
  "table-uuid" : "9c12d441-03fe-4693-9a96-a0705ddf69c1",
  "location" : "s3://bucket/test/location",
  "last-sequence-number" : 34,
  "last-updated-ms" : 1602638573590,
  "last-column-id" : 3,
  "current-schema-id" : 1,
  "schemas" : [
    {"type" : "struct", "schema-id" : 0, "fields" : [{"id" : 1, "name" : "x", "required" : true, "type" : "long"}]},
    {"type" : "struct", "schema-id" : 1, "identifier-field-ids" : [1, 2], "fields" : [
      {"id" : 1, "name" : "x", "required" : true, "type" : "long"},
      {"id" : 2, "name" : "y", "required" : true, "type" : "long", "doc" : "comment"},
      {"id" : 3, "name" : "z", "required" : true, "type" : "long"}]}
  ],
  "default-spec-id" : 1,
  "partition-specs" : [
    {"spec-id" : 0, "fields" : []},
    {"spec-id" : 1, "fields" : [{"name" : "x", "transform" : "identity", "source-id" : 1, "field-id" : 1000}]}
  ],
  "last-partition-id" : 1000,
  "default-sort-order-id" : 3,
  "sort-orders" : [
    {"order-id" : 0, "fields" : []},
    {"order-id" : 3, "fields" : [{"transform" : "identity", "source-id" : 2, "direction" : "asc", "null-order" : "nulls-first"}]}
  ],
  "properties" : {"read.split.target.size" : "134217728"},
  "current-snapshot-id" : 3055729675574597004,
  "refs" : {
    "main" : {"snapshot-id" : 3055729675574597004, "type" : "branch"},
    "v1-tag" : {"snapshot-id" : 3051729675574597004, "type" : "tag", "max-ref-age-ms" : 86400000}
  },
  "snapshots" : [
    {"sequence-number" : 0, "snapshot-id" : 3051729675574597004, "timestamp-ms" : 1515100955770,
     "summary" : {"operation" : "append"}, "manifest-list" : "s3://a/b/1.avro", "schema-id" : 0},
    {"sequence-number" : 1, "snapshot-id" : 3052729675574597004, "parent-snapshot-id" : 3051729675574597004,
     "timestamp-ms" : 1525100955770, "summary" : {"operation" : "append"}, "manifest-list" : "s3://a/b/2.avro"},
    {"sequence-number" : 2, "snapshot-id" : 3055729675574597004, "parent-snapshot-id" : 3052729675574597004,
     "timestamp-ms" : 1555100955770, "summary" : {"operation" : "overwrite"}, "manifest-list" : "s3://a/b/3.avro", "schema-id" : 1}
  ],
  "statistics" : [
    {"snapshot-id" : 3051729675574597004, "statistics-path" : "s3://a/b/stats-1.puffin", "file-size-in-bytes" : 413,
     "file-footer-size-in-bytes" : 42, "blob-metadata" : [{"type" : "apache-datasketches-theta-v1", "snapshot-id" : 3051729675574597004,
     "sequence-number" : 0, "fields" : [1]}]},
    {"snapshot-id" : 3052729675574597004, "statistics-path" : "s3://a/b/stats-2.puffin", "file-size-in-bytes" : 413,
     "file-footer-size-in-bytes" : 42, "blob-metadata" : []}
  ],
  "partition-statistics" : [
    {"snapshot-id" : 3055729675574597004, "statistics-path" : "s3://a/b/pstats.parquet", "file-size-in-bytes" : 43}
  ],
  "snapshot-log" : [
    {"timestamp-ms" : 1515100955770, "snapshot-id" : 3051729675574597004},
    {"timestamp-ms" : 1525100955770, "snapshot-id" : 3052729675574597004},
    {"timestamp-ms" : 1555100955770, "snapshot-id" : 3055729675574597004}
  ],
  "metadata-log" : [{"timestamp-ms" : 1515100955770, "metadata-file" : "s3://bucket/.../v1.json"}],
  "x-vendor-extension" : {"keep" : [1, 9158179788527662767]}
}`;

/** A v1 table as old writers wrote it: only `schema` and `partition-spec`, no sort orders, no refs. */
export const V1_LEGACY = `{
  "format-version": 1,
  "table-uuid": "d20125c8-7284-442c-9aea-15fee620737c",
  "location": "/tmp/iceberg/t",
  "last-updated-ms": 1600000000000,
  "last-column-id": 2,
  "schema": {"type": "struct", "fields": [
    {"id": 1, "name": "id", "required": true, "type": "long"},
    {"id": 2, "name": "data", "required": false, "type": "string"}]},
  "partition-spec": [{"name": "data", "transform": "identity", "source-id": 2}],
  "properties": {},
  "current-snapshot-id": 7001,
  "snapshots": [{"snapshot-id": 7001, "timestamp-ms": 1600000000000, "summary": {"operation": "append"}, "manifest-list": "/tmp/l.avro"}]
}`;

/** A v3 table with no current snapshot written as null, row lineage and an encryption key. */
export const V3 = `{
  "format-version": 3,
  "table-uuid": "4b0c3c3f-8ee8-4a6a-9a3a-7d1e1c2b0a11",
  "location": "s3://b/v3",
  "last-sequence-number": 0,
  "last-updated-ms": 1700000000000,
  "last-column-id": 2,
  "current-schema-id": 0,
  "schemas": [{"type": "struct", "schema-id": 0, "fields": [
    {"id": 1, "name": "v", "required": false, "type": "variant"},
    {"id": 2, "name": "ts", "required": false, "type": "timestamptz_ns", "initial-default": "2024-01-01T00:00:00.000000001+00:00"}]}],
  "default-spec-id": 0,
  "partition-specs": [{"spec-id": 0, "fields": []}],
  "last-partition-id": 999,
  "default-sort-order-id": 0,
  "sort-orders": [{"order-id": 0, "fields": []}],
  "properties": {"owner": "me"},
  "current-snapshot-id": null,
  "next-row-id": 0,
  "encryption-keys": [{"key-id": "k1", "encrypted-key-metadata": "AAEC", "encrypted-by-id": "kms", "properties": {"a": "b"}}],
  "refs": {},
  "snapshots": [],
  "snapshot-log": [],
  "metadata-log": []
}`;
