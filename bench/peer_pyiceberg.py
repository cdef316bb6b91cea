"""pyiceberg's planning time for a full scan through a server that plans, for bench/pages.ts.

Protocol: one JSON object per line on stdin, one per line on stdout:
  {"uri": URL, "warehouse": NAME, "table": "ns.t",
   "planning": "server" (default) | "client", "properties": {...}, "filter": "c4 < 1000"}
    -> {"ok": true, "ms": load-table + plan_files, "planMs": plan_files alone, "files": N}
Catalog properties as test/interop/clients/pyiceberg_client.py sets them, plus `properties`
(e.g. s3.* for a table on S3). scan-planning-mode=server: pyiceberg POSTs /plan and then every
plan task's /tasks, one at a time, with requests (Accept-Encoding: gzip, deflate); client: it
reads the manifest list and manifests itself through its FileIO. `filter` is the scan's
row_filter (pyiceberg's expression syntax). Nothing is read from data files.
"""
import sys
import time

import json_lines

_catalogs = {}


def plan(job):
    from pyiceberg.catalog import load_catalog

    extra = job.get("properties") or {}
    planning = job.get("planning", "server")
    key = (job["uri"], job.get("warehouse"), planning, tuple(sorted(extra.items())))
    if key not in _catalogs:
        props = {"type": "rest", "uri": job["uri"], "scan-planning-mode": planning, **extra}
        if job.get("warehouse"):
            props["warehouse"] = job["warehouse"]
        _catalogs[key] = load_catalog(f"bench{len(_catalogs)}", **props)
    t0 = time.perf_counter()
    table = _catalogs[key].load_table(job["table"])
    t1 = time.perf_counter()
    scan = table.scan(row_filter=job["filter"]) if job.get("filter") else table.scan()
    files = sum(1 for _ in scan.plan_files())
    t2 = time.perf_counter()
    return {"ok": True, "ms": (t2 - t0) * 1000, "planMs": (t2 - t1) * 1000, "files": files}


def main():
    json_lines.serve(plan, sys.stdout)


if __name__ == "__main__":
    main()
