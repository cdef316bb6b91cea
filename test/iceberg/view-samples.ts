/** Hand-written view metadata documents for the view tests (Java test-resource style). */

/** Two versions over one schema; version 2 is current. */
export const VIEW = `{
  "view-uuid" : "fa6506c3-7681-40c8-86dc-e36561f83385",
  "format-version" : 1,
  "location" : "s3://bucket/views/event_counts",
  "properties" : {"comment" : "counts per day", "owner" : "analytics"},
  "schemas" : [
    {"type" : "struct", "schema-id" : 0, "fields" : [
      {"id" : 1, "name" : "day", "required" : false, "type" : "date"},
      {"id" : 2, "name" : "events", "required" : true, "type" : "long", "doc" : "rows that day"}]}
  ],
  "current-version-id" : 2,
  "versions" : [
    {"version-id" : 1, "timestamp-ms" : 1700000000000, "schema-id" : 0,
     "summary" : {"engine-name" : "spark", "engine-version" : "3.5.1"},
     "default-catalog" : "prod", "default-namespace" : ["analytics"],
     "representations" : [{"type" : "sql", "sql" : "SELECT day, count(*) events FROM events GROUP BY day", "dialect" : "spark"}]},
    {"version-id" : 2, "timestamp-ms" : 1700000100000, "schema-id" : 0,
     "summary" : {"engine-name" : "trino", "engine-version" : "440"},
     "default-namespace" : ["analytics"],
     "representations" : [
       {"type" : "sql", "sql" : "SELECT day, count(*) AS events FROM events GROUP BY day", "dialect" : "spark"},
       {"type" : "sql", "sql" : "SELECT day, count(*) AS events FROM events GROUP BY 1", "dialect" : "trino"}]}
  ],
  "version-log" : [
    {"timestamp-ms" : 1700000000000, "version-id" : 1},
    {"timestamp-ms" : 1700000100000, "version-id" : 2}
  ]
}`;

/**
 * Written the way early and foreign writers do: no properties, `current-schema-id` at the top,
 * a null default-catalog, an upper-case `SQL` type, a representation of an unknown type, two
 * queries for one dialect, a vendor key.
 */
export const VIEW_LIBERAL = `{
  "view-uuid" : "0f1c7a3e-5a0b-4d1e-9a43-6c0b1f5a2d77",
  "format-version" : 1,
  "location" : "file:/tmp/warehouse/db/v",
  "current-schema-id" : 3,
  "schemas" : [
    {"type" : "struct", "schema-id" : 3, "identifier-field-ids" : [1], "fields" : [{"id" : 1, "name" : "id", "required" : true, "type" : "int"}]}
  ],
  "current-version-id" : 1,
  "versions" : [
    {"version-id" : 1, "timestamp-ms" : 1600000000000, "schema-id" : 3, "summary" : {"operation" : "create", "retries" : 2},
     "default-catalog" : null, "default-namespace" : [],
     "representations" : [
       {"type" : "SQL", "sql" : "select 1 id", "dialect" : "spark"},
       {"type" : "sql", "sql" : "select 1 as id", "dialect" : "Spark"},
       {"type" : "substrait", "plan" : "AAEC", "version" : 1}]}
  ],
  "version-log" : [{"timestamp-ms" : 1600000000000, "version-id" : 1}],
  "x-vendor" : {"kept" : true}
}`;

/** A CreateViewRequest as Java's RESTSessionCatalog sends it. */
export const CREATE_VIEW_REQUEST = {
  name: 'event_counts',
  'view-version': {
    'version-id': 1,
    'timestamp-ms': 1700000000000,
    'schema-id': 7,
    summary: { 'engine-name': 'spark', 'engine-version': '3.5.1' },
    'default-catalog': 'prod',
    'default-namespace': ['analytics'],
    representations: [{ type: 'sql', sql: 'SELECT day, count(*) events FROM events GROUP BY day', dialect: 'spark' }],
  },
  schema: {
    type: 'struct',
    'schema-id': 7,
    fields: [
      { id: 1, name: 'day', required: false, type: 'date' },
      { id: 2, name: 'events', required: true, type: 'long' },
    ],
  },
  properties: { comment: 'counts per day' },
};
