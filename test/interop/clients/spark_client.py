"""Spark (pyspark + iceberg-spark-runtime) as an interop client.

Jobs (JSON):
  {"client": "spark", "catalog": CAT, "sql": ["CREATE ...", ...]}         run statements → {"ok": true}
  {"client": "spark", "catalog": CAT, "query": "SELECT ..."}              → {"rows": [...]} (small results)
  {"client": "spark", "catalog": CAT, "table": "ns.t", "columns": [...], "filter": "SQL predicate",
   "snapshotId": "<int64 as a string, optional: VERSION AS OF>"}
                                                                           → rows summary + files read
                                                                             (SELECT DISTINCT _file, a second query)
  {"client": "spark", "catalog": CAT, "table": "ns.t", "columns": [...], "filter": "...",
   "startSnapshotId": "<int64>", "endSnapshotId": "<int64>"}               Spark's own incremental read
                                                                           (read options start-/end-snapshot-id)
  {"client": "spark", "parquet": ["<data file>", ...], "columns": [...], "filter": "..."}
                                                                           → rows of those Parquet files, read as
                                                                             plain Parquet (no Iceberg involved)
  {"client": "spark", "catalog": CAT, "incremental": "ns.t", "cases": [
     {"start": "<int64>" | null, "end": "<int64>", "inclusive": bool, "filter": <REST filter JSON> | null}]}
                                                                           → {"cases": [{"files": [...]} | {"error": "..."}]}:
                                                                             Iceberg Java's own IncrementalAppendScan
                                                                             (fromSnapshotExclusive, or fromSnapshotInclusive
                                                                             when `inclusive`, .toSnapshot(end).filter(...)
                                                                             .planFiles()) on the catalog's table, via Py4J
  {"client": "spark", "catalog": CAT, "metadataOnlyAppend": "ns.t", "files": N}
                                                                           → {"snapshotId": "<int64>"}: one fast append
                                                                             (Iceberg Java, via Py4J) of N data files that
                                                                             exist only in metadata: a scan of it can be
                                                                             planned, never read
  {"client": "spark", "catalog": CAT, "transaction": [{"table": "ns.t", "set": {"k": "v"},
   "addColumn": "c" (optional)}, ...], "stale": true (optional)}         → {"committed": true} or
                                                                             {"committed": false, "error": "..."}:
                                                                             one multi-table commit (Iceberg Java's
                                                                             Catalog.commitTransaction: the REST catalog's
                                                                             POST …/transactions/commit) setting those
                                                                             table properties and adding an optional string
                                                                             column (requirements: assert-last-assigned-
                                                                             field-id, assert-current-schema-id); with
                                                                             `stale`, a column `between_<n>` is added to the
                                                                             first table on its own between reading its
                                                                             base and committing, so the requirements fail
CAT = {"name": "ice", "uri": "http://127.0.0.1:<port>", "warehouse": "<name>" (optional),
       "planning": "server" | "client"}; an https:// uri is verified with the driver JVM's trust
       store: ICEFRONT_INTEROP_SPARK_JAVA_OPTIONS (e.g. -Djavax.net.ssl.trustStore=<file>
       -Djavax.net.ssl.trustStorePassword=<pw>) becomes spark.driver.extraJavaOptions.
   or {"name": "h", "type": "hadoop", "warehouse": "file:///<folder>"}: Iceberg's HadoopCatalog
       reading a warehouse folder directly, no REST catalog involved.
   or {"name": "lake", "type": "sql", "uri": "/abs/catalog.db" | "postgresql://user[:pw]@host:port/db",
       "warehouse": "file:///<folder>"}: Iceberg's JdbcCatalog (`type=jdbc`, `jdbc.schema-version=V1`)
       on that SQLite file or PostgreSQL database, no REST catalog involved. JdbcCatalog's
       catalog_name is the Spark catalog's name, so this one is registered as `name` itself
       (default `sql`), not a derived name: one session holds one JdbcCatalog per name.
In SQL, the catalog is `{catalog}`; it is registered with the session on first use (Spark loads
catalogs lazily, so one JVM serves every catalog). Scan rows: timestamptz values (Spark's
TimestampType, which pyspark hands over as naive local time) become aware datetimes in UTC.

One SparkSession per process: `python spark_client.py '<job json>'` runs one job; worker.py
keeps the session for many.
"""
import datetime
import json
import os
import sys

from rows import summarize

_spark = None
_catalogs = {}


def session():
    global _spark
    if _spark is None:
        from pyspark.sql import SparkSession

        jar = os.environ["ICEFRONT_INTEROP_SPARK_JAR"]
        builder = (
            SparkSession.builder.master("local[1]")
            .appName("icefront-interop")
            .config("spark.driver.bindAddress", "127.0.0.1")
            .config("spark.driver.host", "127.0.0.1")
            .config("spark.ui.enabled", "false")
            .config("spark.ui.showConsoleProgress", "false")
            .config("spark.sql.session.timeZone", "UTC")
            .config("spark.sql.shuffle.partitions", "1")
            .config("spark.default.parallelism", "1")
            .config("spark.jars", jar)
            .config("spark.sql.extensions", "org.apache.iceberg.spark.extensions.IcebergSparkSessionExtensions")
        )
        # e.g. -Djavax.net.ssl.trustStore=…: read by the driver JVM pyspark starts (spark-submit --conf)
        java_options = os.environ.get("ICEFRONT_INTEROP_SPARK_JAVA_OPTIONS")
        if java_options:
            builder = builder.config("spark.driver.extraJavaOptions", java_options)
        _spark = builder.getOrCreate()
        _spark.sparkContext.setLogLevel("ERROR")
    return _spark


def catalog(cat) -> str:
    """Registers CAT under a name derived from its settings; returns that name."""
    key = json.dumps(cat, sort_keys=True)
    if key in _catalogs:
        return _catalogs[key]
    if cat.get("tls"):
        raise ValueError("a catalog ref's `tls` is pyiceberg's: Spark's REST client trusts the JVM's truststore "
                         "(ICEFRONT_INTEROP_SPARK_JAVA_OPTIONS=-Djavax.net.ssl.trustStore=…, ClientWorker.start's sparkJavaOptions)")
    if cat.get("type") == "sql":
        # JdbcCatalog.initialize(name, …) takes the Spark catalog's name as its catalog_name
        name = cat.get("name", "sql")
        if name in _catalogs.values():
            raise ValueError(f"a Spark catalog named {name!r} is registered already with other settings: {key}")
    else:
        name = f"{cat.get('name', 'c')}_{len(_catalogs)}"
    spark = session()
    p = f"spark.sql.catalog.{name}"
    spark.conf.set(p, "org.apache.iceberg.spark.SparkCatalog")
    if cat.get("type") == "hadoop":
        # Iceberg's own HadoopCatalog straight on a warehouse folder: no REST server involved.
        spark.conf.set(f"{p}.type", "hadoop")
        spark.conf.set(f"{p}.warehouse", cat["warehouse"])
    elif cat.get("type") == "sql":
        # Iceberg's own JdbcCatalog straight on the database: no REST server involved.
        spark.conf.set(f"{p}.type", "jdbc")
        for k, v in jdbc_properties(cat["uri"]).items():
            spark.conf.set(f"{p}.{k}", v)
        spark.conf.set(f"{p}.jdbc.schema-version", "V1")
        spark.conf.set(f"{p}.warehouse", cat["warehouse"])
    else:
        spark.conf.set(f"{p}.type", "rest")
        spark.conf.set(f"{p}.uri", cat["uri"])
        if cat.get("warehouse"):
            spark.conf.set(f"{p}.warehouse", cat["warehouse"])
        spark.conf.set(f"{p}.scan-planning-mode", cat.get("planning", "client"))
    spark.conf.set(f"{p}.cache-enabled", "false")
    spark.conf.set(f"{p}.rest-metrics-reporting-enabled", "false")
    for k, v in cat.get("properties", {}).items():
        spark.conf.set(f"{p}.{k}", v)
    _catalogs[key] = name
    return name


def jdbc_properties(uri: str) -> dict:
    """A SqlCatalogRef's database as JdbcCatalog properties: `uri` (jdbc:sqlite:/… or
    jdbc:postgresql://host:port/db…) and, for PostgreSQL, `jdbc.user` / `jdbc.password`."""
    from urllib.parse import unquote, urlsplit

    if uri.startswith("/"):
        return {"uri": f"jdbc:sqlite:{uri}"}
    u = urlsplit(uri)
    if u.scheme.split("+")[0] not in ("postgresql", "postgres"):
        raise ValueError(f"a sql catalog ref's uri is a SQLite file's absolute path or postgresql://…, got {uri!r}")
    host = u.hostname or "localhost"
    out = {"uri": f"jdbc:postgresql://{host}{f':{u.port}' if u.port else ''}{u.path}{f'?{u.query}' if u.query else ''}"}
    if u.username:
        out["jdbc.user"] = unquote(u.username)
    if u.password:
        out["jdbc.password"] = unquote(u.password)
    return out


def run(job) -> dict:
    spark = session()
    if "parquet" in job:
        return _parquet_rows(spark, job)
    name = catalog(job["catalog"])
    if "incremental" in job:
        return {"cases": [_incremental_files(spark, f"{name}.{job['incremental']}", c) for c in job["cases"]]}
    if "transaction" in job:
        return _transaction(spark, name, job["transaction"], bool(job.get("stale")))
    if "metadataOnlyAppend" in job:
        return _metadata_only_append(spark, f"{name}.{job['metadataOnlyAppend']}", int(job["files"]))
    if "sql" in job:
        for stmt in job["sql"]:
            spark.sql(stmt.replace("{catalog}", name)).collect()
        return {"ok": True}
    if "query" in job:
        return {"rows": [r.asDict(recursive=True) for r in spark.sql(job["query"].replace("{catalog}", name)).collect()]}
    cols = ", ".join(f"`{c}`" for c in job["columns"])
    where = f" WHERE {job['filter']}" if job.get("filter") else ""
    source = f"{name}.{job['table']}"
    if job.get("snapshotId"):
        source += f" VERSION AS OF {int(job['snapshotId'])}"
    if job.get("endSnapshotId"):
        reader = spark.read.format("iceberg").option("end-snapshot-id", str(int(job["endSnapshotId"])))
        if job.get("startSnapshotId"):
            reader = reader.option("start-snapshot-id", str(int(job["startSnapshotId"])))
        df = reader.load(source)
        df = df.where(job["filter"]) if job.get("filter") else df
        df = df.selectExpr(*(f"`{c}`" for c in job["columns"]))
        return summarize([_zoned(r.asDict(recursive=True), df.schema) for r in df.collect()], None)
    df = spark.sql(f"SELECT {cols} FROM {source}{where}")
    rows = [_zoned(r.asDict(recursive=True), df.schema) for r in df.collect()]
    files = None
    files_error = None
    if job.get("files", True):
        # A second query, so a scan that cannot project the _file metadata column still
        # reports its rows (and the failure is named on its own).
        try:
            got = spark.sql(f"SELECT DISTINCT _file FROM {source}{where}").collect()
            files = [r[0] for r in got]
        except Exception as e:  # reported to the harness as filesError
            files_error = f"{type(e).__name__}: {e}"[:2000]
    out = summarize(rows, files)
    if files_error:
        out["filesError"] = files_error
    return out


def _incremental_files(spark, table_name, case) -> dict:
    """Iceberg Java's IncrementalAppendScan.planFiles() for one range: the data files, sorted."""
    from py4j.protocol import Py4JJavaError

    jvm = spark._jvm
    Long = jvm.java.lang.Long
    try:
        table = jvm.org.apache.iceberg.spark.Spark3Util.loadIcebergTable(spark._jsparkSession, table_name)
        scan = table.newIncrementalAppendScan()
        if case.get("start") is not None:
            start = Long.parseLong(case["start"])
            scan = scan.fromSnapshotInclusive(start) if case.get("inclusive") else scan.fromSnapshotExclusive(start)
        scan = scan.toSnapshot(Long.parseLong(case["end"]))
        if case.get("filter") is not None:
            scan = scan.filter(jvm.org.apache.iceberg.expressions.ExpressionParser.fromJson(json.dumps(case["filter"])))
        tasks = scan.planFiles()
        files = []
        try:
            it = tasks.iterator()
            while it.hasNext():
                files.append(it.next().file().location())
        finally:
            tasks.close()
        return {"files": sorted(files)}
    except Py4JJavaError as e:
        return {"error": f"{e.java_exception.getClass().getName()}: {e.java_exception.getMessage()}"}
    except Exception as e:  # pyspark re-raises some Java exceptions as its own (IllegalArgumentException)
        return {"error": f"{type(e).__name__}: {e}"}


def _transaction(spark, catalog_name, changes, stale) -> dict:
    """One Catalog.commitTransaction of table-property changes on several tables (Py4J)."""
    from py4j.protocol import Py4JJavaError

    jvm = spark._jvm
    ice = spark._jsparkSession.sessionState().catalogManager().catalog(catalog_name).icebergCatalog()
    commits = jvm.java.util.ArrayList()
    tables = []
    for change in changes:
        ident = jvm.org.apache.iceberg.catalog.TableIdentifier.parse(change["table"])
        table = ice.loadTable(ident)
        tables.append(table)
        base = table.operations().current()
        props = jvm.java.util.HashMap()
        for k, v in change["set"].items():
            props.put(k, v)
        builder = jvm.org.apache.iceberg.TableMetadata.buildFrom(base).setProperties(props)
        if change.get("addColumn"):
            fields = jvm.java.util.ArrayList(base.schema().columns())
            last = base.lastColumnId() + 1
            fields.add(jvm.org.apache.iceberg.types.Types.NestedField.optional(last, change["addColumn"], jvm.org.apache.iceberg.types.Types.StringType.get()))
            builder = builder.setCurrentSchema(jvm.org.apache.iceberg.Schema(fields), last)
        updated = builder.build()
        commits.add(jvm.org.apache.iceberg.catalog.TableCommit.create(ident, base, updated))
    if stale:
        tables[0].updateSchema().addColumn(f"between_{len(changes)}", jvm.org.apache.iceberg.types.Types.StringType.get()).commit()
        tables[0].updateProperties().set("interop.between", "1").commit()
    try:
        ice.commitTransaction(commits)
        return {"committed": True}
    except Py4JJavaError as e:
        return {"committed": False, "error": f"{e.java_exception.getClass().getName()}: {e.java_exception.getMessage()}"}


def _metadata_only_append(spark, table_name, count) -> dict:
    """One fast append of `count` data files (one row each) whose Parquet files were never written."""
    jvm = spark._jvm
    table = jvm.org.apache.iceberg.spark.Spark3Util.loadIcebergTable(spark._jsparkSession, table_name)
    spec = table.spec()
    location = table.location()
    append = table.newFastAppend()
    for i in range(count):
        builder = jvm.org.apache.iceberg.DataFiles.builder(spec)
        builder.withPath(f"{location}/data/metadata-only-{i:06d}.parquet").withFormat("PARQUET")
        append.appendFile(builder.withFileSizeInBytes(100).withRecordCount(1).build())
    append.commit()
    table.refresh()
    return {"snapshotId": str(table.currentSnapshot().snapshotId())}


def _parquet_rows(spark, job) -> dict:
    """Rows of the given data files read as plain Parquet: what a file set holds, Iceberg aside."""
    if not job["parquet"]:
        return summarize([], None)
    df = spark.read.parquet(*job["parquet"])
    df = df.where(job["filter"]) if job.get("filter") else df
    df = df.selectExpr(*(f"`{c}`" for c in job["columns"]))
    return summarize([_zoned(r.asDict(recursive=True), df.schema) for r in df.collect()], None)


def _zoned(row, schema) -> dict:
    """Top-level TimestampType values as aware UTC datetimes (pyspark gives naive local time)."""
    from pyspark.sql.types import TimestampType

    for f in schema.fields:
        v = row.get(f.name)
        if isinstance(f.dataType, TimestampType) and v is not None:
            row[f.name] = v.astimezone(datetime.timezone.utc)
    return row


if __name__ == "__main__":
    print(json.dumps(run(json.loads(sys.argv[1] if len(sys.argv) > 1 else sys.stdin.read())), default=str))
