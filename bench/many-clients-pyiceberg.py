"""One pyiceberg client of bench/many-clients.ts, planning one table once.

    python many-clients-pyiceberg.py '<job json>'
    job: {"uri": URL, "warehouse": NAME (optional), "table": "ns.t",
          "planning": "server" | "client", "properties": {...}, "filter": "c4 < 1000" (optional)}

Imports pyiceberg (its table, PyArrow FileIO and expression parser modules too, so no import is
timed) and makes the REST catalog (load_catalog: GET /v1/config) with
scan-planning-mode=`planning` and the extra `properties` (s3.* for the table's FileIO), as
bench/peer_pyiceberg.py does, prints `READY`, and waits for a line on stdin: the start barrier,
released for every client at once. Then, timed: load_table, then plan_files of a scan (with
`filter` as its row_filter), every planned file counted. server: POST /plan, then every plan
task's /tasks, one at a time; client: the manifest list and every manifest read here through the
FileIO. Nothing is read from data files.

stdout, one JSON line: {"ok": true, "files": N, "startEpochMs": barrier passed, "endEpochMs": last
file planned, "loadMs", "planMs", "maxRssKB": the process's peak resident set (getrusage)};
on failure {"ok": false, "error", "traceback"} and exit 1.
"""
import json
import resource
import sys
import time
import traceback


def main():
    job = json.loads(sys.argv[1])
    from pyiceberg.catalog import load_catalog

    # imported before the barrier, not timed: what load_table (its FileIO) and a filter would import
    import pyiceberg.expressions.parser  # noqa: F401
    import pyiceberg.io.pyarrow  # noqa: F401
    import pyiceberg.table  # noqa: F401

    props = {"type": "rest", "uri": job["uri"], "scan-planning-mode": job.get("planning", "server"), **(job.get("properties") or {})}
    if job.get("warehouse"):
        props["warehouse"] = job["warehouse"]
    catalog = load_catalog("bench", **props)
    print("READY", flush=True)
    if not sys.stdin.readline():
        raise RuntimeError("stdin closed before the start line")
    t0 = time.time()
    table = catalog.load_table(job["table"])
    t1 = time.time()
    scan = table.scan(row_filter=job["filter"]) if job.get("filter") else table.scan()
    files = sum(1 for _ in scan.plan_files())
    t2 = time.time()
    return {
        "ok": True,
        "files": files,
        "startEpochMs": t0 * 1000,
        "endEpochMs": t2 * 1000,
        "loadMs": (t1 - t0) * 1000,
        "planMs": (t2 - t1) * 1000,
        "maxRssKB": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
    }


if __name__ == "__main__":
    try:
        out = main()
    except Exception as e:
        print(json.dumps({"ok": False, "error": f"{type(e).__name__}: {e}"[:4000], "traceback": traceback.format_exc()[-4000:]}), flush=True)
        sys.exit(1)
    print(json.dumps(out), flush=True)
