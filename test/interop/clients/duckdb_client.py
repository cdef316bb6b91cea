"""DuckDB 1.4 (iceberg extension from the duckdb-ext wheels) as an interop client.

Job: {"client": "duckdb", "catalog": CAT, "table": "ns.t", "columns": [...], "filter": "SQL predicate",
      "snapshotId": "<int64 as a string, optional: AT (VERSION => …)>"}
with CAT = {"uri", "warehouse", "properties" (optional)}. DuckDB 1.4 has no server-side planning
client: it loads the table through the catalog and reads manifests itself. No data-file set
(`files` is null). Catalog properties `s3.endpoint`, `s3.region`, `s3.access-key-id` and
`s3.secret-access-key` (Iceberg's names, as the other clients take them) become a DuckDB S3 secret,
path-style, for tables on an S3-compatible store (moto); `token` becomes an iceberg secret (a bearer
token); other properties are ignored.

`python duckdb_client.py '<job json>'` runs one job.
"""
import json
import sys

from rows import summarize


def connect():
    import duckdb
    import duckdb_ext

    con = duckdb.connect()
    con.execute("SET extension_directory = ?", (duckdb_ext.get_extension_dir(),))
    con.execute("SET autoinstall_known_extensions = false")
    con.execute("SET autoload_known_extensions = false")
    # DuckDB 1.4.4 once failed a scan here with "INTERNAL Error: Pipeline batch index - gotten
    # lower batch index" (its order-preserving parallel sink; the same scan passed on a rerun and
    # straight on the fixture). Rows are compared in any order, so neither order nor parallelism
    # is needed: one thread, insertion order not preserved.
    con.execute("SET threads = 1")
    con.execute("SET preserve_insertion_order = false")
    for ext in ("httpfs", "avro", "iceberg"):
        con.execute(f"LOAD {ext}")
    return con


def s3_secret(con, props) -> None:
    """Iceberg's s3.* catalog properties as a DuckDB S3 secret (httpfs); nothing without s3.endpoint."""
    from urllib.parse import urlsplit

    if "s3.endpoint" not in props:
        return
    endpoint = urlsplit(props["s3.endpoint"])
    params = [
        ("KEY_ID", props.get("s3.access-key-id", "")),
        ("SECRET", props.get("s3.secret-access-key", "")),
        ("REGION", props.get("s3.region", props.get("client.region", "us-east-1"))),
        ("ENDPOINT", endpoint.netloc),
    ]
    options = ", ".join(f"{k} '{v.replace(chr(39), chr(39) * 2)}'" for k, v in params)
    use_ssl = "true" if endpoint.scheme == "https" else "false"
    con.execute(f"CREATE SECRET interop_s3 (TYPE s3, {options}, URL_STYLE 'path', USE_SSL {use_ssl})")


def run(job) -> dict:
    cat = job["catalog"]
    con = connect()
    try:
        props = cat.get("properties", {})
        s3_secret(con, props)
        warehouse = cat.get("warehouse", "").replace("'", "''")
        # a catalog that wants a bearer token (property `token`, as Iceberg Java names it): an iceberg secret
        auth = "AUTHORIZATION_TYPE 'none'"
        if "token" in props:
            token = props["token"].replace("'", "''")
            con.execute(f"CREATE SECRET interop_token (TYPE iceberg, TOKEN '{token}')")
            auth = "SECRET interop_token"
        con.execute(f"ATTACH '{warehouse}' AS ice (TYPE iceberg, ENDPOINT '{cat['uri']}', {auth}, ACCESS_DELEGATION_MODE 'none')")
        cols = ", ".join(f'"{c}"' for c in job["columns"])
        where = f" WHERE {job['filter']}" if job.get("filter") else ""
        at = f" AT (VERSION => {int(job['snapshotId'])})" if job.get("snapshotId") else ""
        cur = con.execute(f"SELECT {cols} FROM ice.{job['table']}{at}{where}")
        names = [d[0] for d in cur.description]
        rows = [dict(zip(names, r)) for r in cur.fetchall()]
        return summarize(rows, None)
    finally:
        con.close()


if __name__ == "__main__":
    print(json.dumps(run(json.loads(sys.argv[1] if len(sys.argv) > 1 else sys.stdin.read()))))
