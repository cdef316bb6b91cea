"""Checks that each installed piece starts, against a running REST fixture (setup.sh starts it).

    verify.py <fixture-base-url> <spark jars, comma-separated> [<scratch folder>]

Spark on local[1] with the runtime jar creates, writes and reads a table through the fixture;
pyiceberg reads it back (client planning, then the fixture's server planning); DuckDB loads
httpfs, avro and iceberg from the duckdb-ext wheels and reads it too. With a scratch folder,
Spark's JdbcCatalog (the sqlite-jdbc driver among the jars) writes a table into a SQLite file
there and pyiceberg's SqlCatalog (SQLAlchemy) reads it from the same file; psycopg2 (pyiceberg's
PostgreSQL driver) must import. Prints one line per piece.
"""
import os
import sys
import time


def main() -> None:
    uri, jar = sys.argv[1], sys.argv[2]
    scratch = sys.argv[3] if len(sys.argv) > 3 else None
    t0 = time.time()
    from pyspark.sql import SparkSession

    spark = (
        SparkSession.builder.master("local[1]")
        .appName("icefront-interop-setup-check")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.jars", jar)
        .config("spark.sql.extensions", "org.apache.iceberg.spark.extensions.IcebergSparkSessionExtensions")
        .config("spark.sql.catalog.fx", "org.apache.iceberg.spark.SparkCatalog")
        .config("spark.sql.catalog.fx.type", "rest")
        .config("spark.sql.catalog.fx.uri", uri)
        .config("spark.sql.catalog.fx.cache-enabled", "false")
        .getOrCreate()
    )
    if scratch:
        db = os.path.join(scratch, "jdbc-check.db")
        spark.conf.set("spark.sql.catalog.jdbc_check", "org.apache.iceberg.spark.SparkCatalog")
        spark.conf.set("spark.sql.catalog.jdbc_check.type", "jdbc")
        spark.conf.set("spark.sql.catalog.jdbc_check.uri", f"jdbc:sqlite:{db}")
        spark.conf.set("spark.sql.catalog.jdbc_check.jdbc.schema-version", "V1")
        spark.conf.set("spark.sql.catalog.jdbc_check.warehouse", f"file://{scratch}/jdbc-wh")
    spark.sparkContext.setLogLevel("ERROR")
    spark.sql("CREATE NAMESPACE IF NOT EXISTS fx.setup_check")
    spark.sql("CREATE TABLE fx.setup_check.t (id bigint, s string) USING iceberg")
    spark.sql("INSERT INTO fx.setup_check.t VALUES (1, 'a'), (2, 'b')")
    n = spark.sql("SELECT count(*) FROM fx.setup_check.t").collect()[0][0]
    assert n == 2, f"spark read {n} rows, expected 2"
    print(f"  spark {spark.version} + iceberg runtime: wrote and read 2 rows ({time.time() - t0:.1f} s)")
    if scratch:
        spark.sql("CREATE NAMESPACE jdbc_check.ns")
        spark.sql("CREATE TABLE jdbc_check.ns.t (id bigint) USING iceberg")
        spark.sql("INSERT INTO jdbc_check.ns.t VALUES (1), (2), (3)")
    spark.stop()

    import pyiceberg
    from pyiceberg.catalog import load_catalog

    for mode in ("client", "server"):
        cat = load_catalog("fx", **{"type": "rest", "uri": uri, "scan-planning-mode": mode})
        rows = cat.load_table("setup_check.t").scan().to_arrow().num_rows
        assert rows == 2, f"pyiceberg ({mode} planning) read {rows} rows, expected 2"
    print(f"  pyiceberg {pyiceberg.__version__}: read 2 rows, client and server planning")
    if scratch:
        import psycopg2  # noqa: F401 (SqlCatalog's PostgreSQL driver)
        import sqlalchemy

        sql = load_catalog("jdbc_check", **{"type": "sql", "uri": f"sqlite:///{db}", "warehouse": f"file://{scratch}/jdbc-wh"})
        rows = sql.load_table("ns.t").scan().to_arrow().num_rows
        assert rows == 3, f"pyiceberg's SqlCatalog read {rows} rows of Spark's JdbcCatalog table, expected 3"
        print(f"  spark JdbcCatalog (sqlite-jdbc) wrote 3 rows; pyiceberg SqlCatalog (SQLAlchemy {sqlalchemy.__version__}) read them")

    import duckdb
    import duckdb_ext

    con = duckdb.connect()
    con.execute("SET extension_directory = ?", (duckdb_ext.get_extension_dir(),))
    con.execute("SET autoinstall_known_extensions = false")
    for ext in ("httpfs", "avro", "iceberg"):
        con.execute(f"LOAD {ext}")
    con.execute(
        f"ATTACH 'fx' AS fx (TYPE iceberg, ENDPOINT '{uri}', AUTHORIZATION_TYPE 'none', ACCESS_DELEGATION_MODE 'none')"
    )
    rows = con.execute("SELECT count(*) FROM fx.setup_check.t").fetchone()[0]
    assert rows == 2, f"duckdb read {rows} rows, expected 2"
    print(f"  duckdb {duckdb.__version__} + iceberg extension: read 2 rows")


if __name__ == "__main__":
    main()
