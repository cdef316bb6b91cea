"""Trino (a server the harness runs, test/interop/harness/trino.ts) as an interop client, through
its Python DB-API client (`trino` on PyPI).

Jobs (JSON), the shapes of spark_client.py's:
  {"client": "trino", "catalog": CAT, "sql": ["CREATE TABLE {catalog}.db.t ...", ...]}  → {"ok": true}
  {"client": "trino", "catalog": CAT, "query": "SELECT ..."}   → {"rows": [{column: value}, ...]}
                                                                 (small results; cast int64 ids to
                                                                 varchar, JSON numbers lose them)
  {"client": "trino", "catalog": CAT, "table": "ns.t", "columns": [...], "filter": "Trino SQL predicate",
   "snapshotId": "<int64 as a string, optional: FOR VERSION AS OF>"}
                                                               → rows summary (rows.py), no file set
CAT = {"name": "ice", "uri": "http://127.0.0.1:<port>" (the Iceberg REST catalog), "warehouse": "<name>"
       (optional), "trino": "http://127.0.0.1:<port>" (the Trino server; else $ICEFRONT_INTEROP_TRINO_URL)}.
`planning` is ignored: Trino 476 plans every scan itself (client side). `properties` are ignored
(they are Iceberg Java catalog properties; Trino's own catalog properties differ), except `token`,
a bearer token, which becomes Trino's OAUTH2 security with that token. `trinoProperties` are
Trino's own catalog properties, added as given (e.g. `iceberg.unique-table-location`).

In SQL, `{catalog}` is the Trino catalog. Each CAT becomes a Trino catalog on first use:
`CREATE CATALOG <name> USING iceberg WITH (...)` (the server runs `catalog.management=dynamic`):
an Iceberg REST catalog (`iceberg.catalog.type=rest`) with nested namespaces on (a namespace
`a.b` is Trino's schema "a.b") and Trino's local file system for the fixture's file:// tables
(`fs.native-local.enabled`, `local.location=/`). A table `a.b.t` is schema "a.b", table "t".

Values: Trino's client already returns Python values of the same kinds as Spark's once rows.py
canonicalises them (timestamp with time zone as aware datetimes, converted to UTC there; decimal
as Decimal; date; uuid as uuid.UUID, written as its string).

`python trino_client.py '<job json>'` runs one job.
"""
import json
import os
import re
import sys
import uuid
from urllib.parse import urlsplit

from rows import summarize

_catalogs = {}
# Catalogs live as long as the Trino server; a second worker process on the same server must not
# collide with the first one's names.
_token = uuid.uuid4().hex[:6]


def _server(cat) -> str:
    url = cat.get("trino") or os.environ.get("ICEFRONT_INTEROP_TRINO_URL")
    if not url:
        raise ValueError("no Trino server: the catalog ref has no `trino` URL and ICEFRONT_INTEROP_TRINO_URL is unset")
    return url


def connect(url):
    import trino

    u = urlsplit(url)
    return trino.dbapi.connect(host=u.hostname, port=u.port, http_scheme=u.scheme or "http", user="icefront-interop")


def _execute(conn, sql):
    cur = conn.cursor()
    try:
        cur.execute(sql)
        rows = cur.fetchall()
        names = [d[0] for d in cur.description] if cur.description else []
        return names, rows
    finally:
        cur.close()


def _literal(s: str) -> str:
    return "'" + s.replace("'", "''") + "'"


def catalog(conn, cat) -> str:
    """Creates the Trino catalog for CAT on first use; returns its name."""
    token = cat.get("properties", {}).get("token")
    key = json.dumps({**{k: v for k, v in cat.items() if k not in ("planning", "properties")}, "token": token}, sort_keys=True)
    if key in _catalogs:
        return _catalogs[key]
    base = re.sub(r"[^a-z0-9_]", "_", cat.get("name", "c").lower())
    name = f"{base}_{_token}_{len(_catalogs)}"
    props = {
        "iceberg.catalog.type": "rest",
        "iceberg.rest-catalog.uri": cat["uri"],
        "iceberg.rest-catalog.nested-namespace-enabled": "true",
        "fs.native-local.enabled": "true",
        "local.location": "/",
    }
    if cat.get("warehouse"):
        props["iceberg.rest-catalog.warehouse"] = cat["warehouse"]
    props.update(cat.get("trinoProperties", {}))
    if token:
        # a catalog that wants a bearer token (the Iceberg property `token`): Trino's OAUTH2 security with a fixed token
        props["iceberg.rest-catalog.security"] = "OAUTH2"
        props["iceberg.rest-catalog.oauth2.token"] = token
    with_ = ", ".join(f'"{k}" = {_literal(v)}' for k, v in props.items())
    _execute(conn, f"CREATE CATALOG {name} USING iceberg WITH ({with_})")
    _catalogs[key] = name
    return name


def _table(name: str, table: str) -> str:
    schema, _, t = table.rpartition(".")
    return f'{name}."{schema}"."{t}"'


def run(job) -> dict:
    cat = job["catalog"]
    conn = connect(_server(cat))
    try:
        name = catalog(conn, cat)
        if "sql" in job:
            for stmt in job["sql"]:
                _execute(conn, stmt.replace("{catalog}", name))
            return {"ok": True}
        if "query" in job:
            names, rows = _execute(conn, job["query"].replace("{catalog}", name))
            return {"rows": [dict(zip(names, r)) for r in rows]}
        cols = ", ".join(f'"{c}"' for c in job["columns"])
        source = _table(name, job["table"])
        if job.get("snapshotId"):
            source += f" FOR VERSION AS OF {int(job['snapshotId'])}"
        where = f" WHERE {job['filter']}" if job.get("filter") else ""
        names, rows = _execute(conn, f"SELECT {cols} FROM {source}{where}")
        return summarize([dict(zip(names, r)) for r in rows], None)
    finally:
        conn.close()


if __name__ == "__main__":
    print(json.dumps(run(json.loads(sys.argv[1] if len(sys.argv) > 1 else sys.stdin.read())), default=str))
