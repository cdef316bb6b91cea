"""pyiceberg as an interop client.

Job: {"client": "pyiceberg", "catalog": CAT, "table": "ns.t", "columns": [...], "filter": "expr",
      "snapshotId": "<int64 as a string, optional>"}
with CAT = {"uri", "warehouse" (optional), "planning": "server" | "client"}. The filter is
pyiceberg's row-filter string syntax (`p = 'a'`, `id >= 100`, `note IS NULL`, `AND`).
Returns the rows summary with `files` = the data files of the planned tasks and `deletes` = the
"<data file> <- <delete file>" pairs the planner attached.

`python pyiceberg_client.py '<job json>'` runs one job.
"""
import json
import sys

from rows import summarize


def run(job) -> dict:
    from pyiceberg.catalog import load_catalog

    cat = job["catalog"]
    props = {"type": "rest", "uri": cat["uri"], "scan-planning-mode": cat.get("planning", "client")}
    if cat.get("warehouse"):
        props["warehouse"] = cat["warehouse"]
    props.update(cat.get("properties", {}))
    table = load_catalog("interop", **props).load_table(job["table"])
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


if __name__ == "__main__":
    print(json.dumps(run(json.loads(sys.argv[1] if len(sys.argv) > 1 else sys.stdin.read()))))
