"""Runs many client jobs in one process, so Spark's JVM starts once per test file.

Protocol: one JSON object per line on stdin, {"id": N, "job": {...}}; one per line on stdout,
{"id": N, "ok": true, "result": {...}} or {"id": N, "ok": false, "error": "...", "traceback": "..."}.
job["client"] picks spark_client, pyiceberg_client, duckdb_client, trino_client or
iceberg_go_client. Everything else the
process (or Spark's JVM, which inherits fd 1) prints goes to stderr: fd 1 is moved there at
start and the protocol keeps a private duplicate of it.
"""
import json
import os
import sys
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

protocol = os.fdopen(os.dup(1), "w", buffering=1)
os.dup2(2, 1)
sys.stdout = sys.stderr


def client(name):
    if name == "spark":
        import spark_client as m
    elif name == "pyiceberg":
        import pyiceberg_client as m
    elif name == "duckdb":
        import duckdb_client as m
    elif name == "trino":
        import trino_client as m
    elif name == "iceberg-go":
        import iceberg_go_client as m
    else:
        raise ValueError(f"unknown client {name!r}")
    return m


def main() -> None:
    for line in sys.stdin:
        if not line.strip():
            continue
        msg = json.loads(line)
        try:
            result = client(msg["job"]["client"]).run(msg["job"])
            reply = {"id": msg["id"], "ok": True, "result": result}
        except Exception as e:  # the harness reports it, naming the job
            reply = {"id": msg["id"], "ok": False, "error": f"{type(e).__name__}: {e}"[:4000],
                     "traceback": traceback.format_exc()[-4000:]}
        protocol.write(json.dumps(reply, default=str) + "\n")
    spark = sys.modules.get("spark_client")
    if spark is not None and spark._spark is not None:
        spark._spark.stop()


if __name__ == "__main__":
    main()
