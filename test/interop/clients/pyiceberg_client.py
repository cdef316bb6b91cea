"""pyiceberg as an interop client.

Job: {"client": "pyiceberg", "catalog": CAT, "table": "ns.t", "columns": [...], "filter": "expr",
      "snapshotId": "<int64 as a string, optional>"}
with CAT = {"uri", "warehouse" (optional), "planning": "server" | "client",
             "tls": {"caFile", "certFile", "keyFile"} (optional, each optional)}: its REST catalog,
             `tls` as RestCatalog's `ssl` property ({"cabundle": caFile, "client": {"cert", "key"}});
  or {"type": "sql", "name": "lake", "uri": "/abs/catalog.db" | "postgresql://user[:pw]@host:port/db",
      "warehouse": "file:///<folder>"}: its SqlCatalog (SQLAlchemy; `sqlite:///…` or
      `postgresql+psycopg2://…`) on Iceberg's JDBC catalog tables, catalog_name `name` (default `sql`);
  or {"type": "hadoop", "warehouse": "file:///<folder>"}: a table of a HadoopCatalog-layout folder
      read from its own files (`StaticTable` on `<ns>/<table>/metadata/v<N>.metadata.json`, N from
      `version-hint.text`), no catalog at all (read jobs only).
The filter is pyiceberg's row-filter string syntax (`p = 'a'`, `id >= 100`, `note IS NULL`, `AND`).
Returns the rows summary with `files` = the data files of the planned tasks and `deletes` = the
"<data file> <- <delete file>" pairs the planner attached.

Write job: {"client": "pyiceberg", "catalog": CAT (REST or sql), "ops": [OP, ...]} → {"ok": true,
"snapshots": {"ns.t": "<current snapshot id>", ...}} (the tables the ops touched), where OP is one of
  {"op": "create_namespace", "namespace": "ns"}
  {"op": "create_table", "table": "ns.t", "schema": [["id", "long"], ["name", "string"], ...],
   "partition": [["name", "identity"], ...] (optional), "properties": {...} (optional)}
  {"op": "append", "table": "ns.t", "rows": [{...}, ...]}
  {"op": "overwrite", "table": "ns.t", "rows": [...], "filter": "expr"}   rows matching filter replaced
  {"op": "delete", "table": "ns.t", "filter": "expr"}
  {"op": "add_column", "table": "ns.t", "name": "note", "type": "string"}  (update_schema)
Types: long, int, string, double, boolean, date. Rows are built into Arrow with the table's
current schema.

`python pyiceberg_client.py '<job json>'` runs one job.
"""
import json
import sys
from urllib.parse import urlsplit

from rows import summarize


def sql_uri(uri: str) -> str:
    """A SqlCatalogRef's database as SQLAlchemy's URL."""
    if uri.startswith("/"):
        return f"sqlite:///{uri}"
    u = urlsplit(uri)
    if u.scheme.split("+")[0] not in ("postgresql", "postgres"):
        raise ValueError(f"a sql catalog ref's uri is a SQLite file's absolute path or postgresql://…, got {uri!r}")
    return "postgresql+psycopg2://" + uri.split("://", 1)[1]


def load(cat):
    from pyiceberg.catalog import load_catalog

    if cat.get("type") == "sql":
        props = {"type": "sql", "uri": sql_uri(cat["uri"]), "warehouse": cat["warehouse"]}
        props.update(cat.get("properties", {}))
        return load_catalog(cat.get("name", "sql"), **props)
    props = {"type": "rest", "uri": cat["uri"], "scan-planning-mode": cat.get("planning", "client")}
    if cat.get("warehouse"):
        props["warehouse"] = cat["warehouse"]
    if cat.get("tls"):
        props["ssl"] = ssl_property(cat["tls"])
    props.update(cat.get("properties", {}))
    return load_catalog("interop", **props)


def ssl_property(tls) -> dict:
    """A ref's `tls` as RestCatalog's `ssl` property: its requests Session's `verify` (the CA
    bundle) and `cert` (client certificate and key), set in RestCatalog._create_session."""
    ssl = {}
    if tls.get("caFile"):
        ssl["cabundle"] = tls["caFile"]
    if tls.get("certFile"):
        ssl["client"] = {"cert": tls["certFile"], **({"key": tls["keyFile"]} if tls.get("keyFile") else {})}
    return ssl


def static_table(cat, name: str):
    """A HadoopCatalog-layout table read from its own metadata files."""
    from pyiceberg.table import StaticTable

    base = cat["warehouse"].rstrip("/") + "/" + "/".join(name.split("."))
    path = base.removeprefix("file://")
    with open(f"{path}/metadata/version-hint.text") as f:
        version = f.read().strip()
    return StaticTable.from_metadata(f"{base}/metadata/v{version}.metadata.json")


def run(job) -> dict:
    cat = job["catalog"]
    if "ops" in job:
        return write(load(cat), job["ops"])
    table = static_table(cat, job["table"]) if cat.get("type") == "hadoop" else load(cat).load_table(job["table"])
    kwargs = {"selected_fields": tuple(job["columns"])}
    if job.get("filter"):
        kwargs["row_filter"] = job["filter"]
    if job.get("snapshotId"):
        kwargs["snapshot_id"] = int(job["snapshotId"])
    scan = table.scan(**kwargs)
    tasks = list(scan.plan_files())
    out = summarize(scan.to_arrow().to_pylist(), [task.file.file_path for task in tasks])
    # (data file, delete file) pairs: which deletes the planner attached to which data file.
    out["deletes"] = sorted({f"{task.file.file_path} <- {d.file_path}" for task in tasks for d in task.delete_files})
    return out


def _type(name: str):
    from pyiceberg import types

    return {
        "long": types.LongType(),
        "int": types.IntegerType(),
        "string": types.StringType(),
        "double": types.DoubleType(),
        "boolean": types.BooleanType(),
        "date": types.DateType(),
    }[name]


def _arrow(table, rows):
    import datetime

    import pyarrow as pa

    schema = table.schema().as_arrow()
    fixed = []
    for r in rows:
        fixed.append({k: (datetime.date.fromisoformat(v) if isinstance(v, str) and pa.types.is_date(schema.field(k).type) else v) for k, v in r.items()})
    return pa.Table.from_pylist(fixed, schema=schema)


def write(catalog, ops) -> dict:
    from pyiceberg.partitioning import PartitionField, PartitionSpec
    from pyiceberg.schema import Schema
    from pyiceberg.transforms import parse_transform
    from pyiceberg.types import NestedField

    touched = {}
    for op in ops:
        kind = op["op"]
        if kind == "create_namespace":
            catalog.create_namespace(op["namespace"])
            continue
        name = op["table"]
        if kind == "create_table":
            fields = [NestedField(i + 1, n, _type(t), required=False) for i, (n, t) in enumerate(op["schema"])]
            schema = Schema(*fields)
            ids = {f.name: f.field_id for f in fields}
            spec = PartitionSpec(
                *(PartitionField(source_id=ids[col], field_id=1000 + i, transform=parse_transform(tr), name=f"{col}_{tr}" if tr != "identity" else col)
                  for i, (col, tr) in enumerate(op.get("partition", [])))
            )
            catalog.create_table(name, schema=schema, partition_spec=spec, properties=op.get("properties", {}))
            touched[name] = None
            continue
        table = catalog.load_table(name)
        if kind == "append":
            table.append(_arrow(table, op["rows"]))
        elif kind == "overwrite":
            table.overwrite(_arrow(table, op["rows"]), overwrite_filter=op["filter"])
        elif kind == "delete":
            table.delete(delete_filter=op["filter"])
        elif kind == "add_column":
            with table.update_schema() as update:
                update.add_column(op["name"], _type(op["type"]))
        else:
            raise ValueError(f"unknown pyiceberg op {kind!r}")
        touched[name] = None
    for name in touched:
        snap = catalog.load_table(name).current_snapshot()
        touched[name] = str(snap.snapshot_id) if snap else None
    return {"ok": True, "snapshots": touched}


if __name__ == "__main__":
    print(json.dumps(run(json.loads(sys.argv[1] if len(sys.argv) > 1 else sys.stdin.read()))))
