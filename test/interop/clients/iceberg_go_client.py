"""iceberg-go (the Go library, v0.7.0) as an interop client: tools/interop/iceberg-go/main.go,
built by tools/interop/iceberg-go.sh.

Job: {"client": "iceberg-go", "catalog": CAT, "table": "ns.t", "columns": [...], "filter": "expr",
      "snapshotId": "<int64 as a string, optional>"}
  or {"client": "iceberg-go", "catalog": CAT, "list": true}  → {"namespaces": [[...]], "tables": ["ns.t"]}
  or {"client": "iceberg-go", "catalog": CAT, "ops": [OP, ...]}  (writes, below)
with CAT = {"uri", "warehouse" (optional), "planning": "server" | "client", "properties" (optional)}.
`server` is iceberg-go's `table.WithScanPlanningMode(table.ScanPlanningRemote)` (POST …/plan,
GET …/plan/{id} while submitted, POST …/tasks for every plan task), `client` its local planning.

The filter: a REST JSON expression (a string starting with `{`, or `true`/`false`) goes to the
Go program as it is; anything else is pyiceberg's row-filter syntax (`p = 'a'`, `id >= 100`,
`note IS NULL`, `LIKE 'x%'`, `BETWEEN`, `IN`, `NOT`), which pyiceberg's parser turns into an
expression tree written here as REST JSON (numbers as JSON numbers, strings as strings). The Go
program parses that JSON with iceberg-go's own parser (iceberg.ParseExpr), typing each literal by
its column in the scan's schema, and iceberg-go binds it and writes it again for `/plan`.

Returns the rows summary (rows.py) of the Arrow IPC stream the Go program wrote, converted by
pyarrow exactly as pyiceberg_client.py converts pyiceberg's Arrow table (`to_pylist()`), with
`files` = the data files of the planned tasks and `deletes` = "<data file> <- <delete file>" for
every position delete, equality delete and deletion vector attached to a task; plus `tasks` (the
number of tasks iceberg-go planned, after its own splitting), `requests` (what iceberg-go sent, by
kind: "POST plan", "POST tasks", "GET plan/{id}", "DELETE plan/{id}", …) and `maxTasksInFlight`
(the most POST …/tasks it had in flight at once, seen at its HTTP transport), `maxPlanTasksListed`
(the most plan tasks one /plan or /tasks answer listed: iceberg-go fetches those together) and
`gomaxprocs` (Go's GOMAXPROCS, iceberg-go's default bound on concurrent /tasks).

Write job: iceberg-go's own writes through the REST catalog, OPs in order, each one commit (the Go
program's `write` op; its header names the iceberg-go API of each) → {"ok": true, "snapshots":
{"ns.t": "<main's current snapshot id, or null>", ...}, "requests": {...}}, OP one of
  {"op": "create_namespace", "namespace": "ns"}
  {"op": "create_table", "table": "ns.t", "schema": [["id", "long"], ...],
   "partition": [["name", "identity"], ...] (optional), "properties": {...} (optional)}
  {"op": "append", "table": "ns.t", "rows": [{...}, ...], "branch": "b1" (optional)}
  {"op": "overwrite", "table": "ns.t", "rows": [...], "filter": "expr"}   rows matching filter replaced
  {"op": "delete", "table": "ns.t", "filter": "expr"}   copy-on-write, or merge-on-read by the
      table's write.delete.mode (position deletes on v2, deletion vectors on v3)
  {"op": "add_column", "table": "ns.t", "name": "note", "type": "string"}
  {"op": "add_partition_field", "table": "ns.t", "column": "id", "transform": "bucket[2]"}
  {"op": "set_properties", "table": "ns.t", "properties": {...}}
as pyiceberg_client.py's write ops (types long, int, string, double, boolean, date); filters are
written as REST JSON as for scans.

The binary: $ICEFRONT_INTEROP_ICEBERG_GO_BIN, else the last line of tools/interop/iceberg-go.sh
(which builds it into the user's cache once), run once per process.
`python iceberg_go_client.py '<job json>'` runs one job.
"""
import json
import os
import subprocess
import sys
import tempfile

from rows import summarize

REPO = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))
BUILD_SCRIPT = os.path.join(REPO, "tools", "interop", "iceberg-go.sh")
_binary = None


def binary() -> str:
    global _binary
    if _binary is None:
        path = os.environ.get("ICEFRONT_INTEROP_ICEBERG_GO_BIN")
        if not path:
            built = subprocess.run(["bash", BUILD_SCRIPT], capture_output=True, text=True, timeout=1800)
            if built.returncode != 0:
                raise RuntimeError(f"{BUILD_SCRIPT} exited {built.returncode}: {built.stderr.strip()[-2000:]}")
            path = built.stdout.strip().splitlines()[-1]
        _binary = path
    return _binary


def _literal(lit):
    import decimal

    v = lit.value
    if isinstance(v, decimal.Decimal):
        # A JSON number; iceberg-go's parser converts it to the column's type (double or decimal).
        return float(v)
    if isinstance(v, (bool, int, float, str)):
        return v
    raise ValueError(f"cannot write literal {lit!r} as REST JSON")


def rest_json(expr):
    """pyiceberg's unbound expression → the REST spec's expression JSON."""
    from pyiceberg import expressions as e

    def term(p):
        return p.term.name

    ops = [
        (e.And, lambda x: {"type": "and", "left": rest_json(x.left), "right": rest_json(x.right)}),
        (e.Or, lambda x: {"type": "or", "left": rest_json(x.left), "right": rest_json(x.right)}),
        (e.Not, lambda x: {"type": "not", "child": rest_json(x.child)}),
        (e.AlwaysTrue, lambda x: True),
        (e.AlwaysFalse, lambda x: False),
        (e.IsNull, lambda x: {"type": "is-null", "term": term(x)}),
        (e.NotNull, lambda x: {"type": "not-null", "term": term(x)}),
        (e.IsNaN, lambda x: {"type": "is-nan", "term": term(x)}),
        (e.NotNaN, lambda x: {"type": "not-nan", "term": term(x)}),
        (e.NotIn, lambda x: {"type": "not-in", "term": term(x), "values": sorted((_literal(l) for l in x.literals), key=lambda v: (type(v).__name__, v))}),
        (e.In, lambda x: {"type": "in", "term": term(x), "values": sorted((_literal(l) for l in x.literals), key=lambda v: (type(v).__name__, v))}),
        (e.EqualTo, lambda x: {"type": "eq", "term": term(x), "value": _literal(x.literal)}),
        (e.NotEqualTo, lambda x: {"type": "not-eq", "term": term(x), "value": _literal(x.literal)}),
        (e.LessThan, lambda x: {"type": "lt", "term": term(x), "value": _literal(x.literal)}),
        (e.LessThanOrEqual, lambda x: {"type": "lt-eq", "term": term(x), "value": _literal(x.literal)}),
        (e.GreaterThan, lambda x: {"type": "gt", "term": term(x), "value": _literal(x.literal)}),
        (e.GreaterThanOrEqual, lambda x: {"type": "gt-eq", "term": term(x), "value": _literal(x.literal)}),
        (e.NotStartsWith, lambda x: {"type": "not-starts-with", "term": term(x), "value": _literal(x.literal)}),
        (e.StartsWith, lambda x: {"type": "starts-with", "term": term(x), "value": _literal(x.literal)}),
    ]
    for cls, write in ops:
        if isinstance(expr, cls):
            return write(expr)
    raise ValueError(f"cannot write expression {expr!r} as REST JSON")


def filter_json(text: str):
    stripped = text.strip()
    if stripped.startswith("{") or stripped in ("true", "false"):
        return json.loads(stripped)
    from pyiceberg.expressions.parser import parse

    return rest_json(parse(stripped))


def _go(job_for_go) -> dict:
    done = subprocess.run([binary()], input=json.dumps(job_for_go), capture_output=True, text=True, timeout=600)
    lines = done.stdout.strip().splitlines()
    reply = json.loads(lines[-1]) if lines else {}
    if done.returncode != 0 or "error" in reply:
        raise RuntimeError(f"iceberg-go: {reply.get('error') or done.stderr.strip()[-2000:] or f'exit {done.returncode}'}")
    return reply


def run(job) -> dict:
    cat = job["catalog"]
    base = {"uri": cat["uri"], "properties": cat.get("properties", {})}
    if cat.get("warehouse"):
        base["warehouse"] = cat["warehouse"]
    if job.get("list"):
        return _go({**base, "op": "list"})
    if "ops" in job:
        steps = [{**op, "filter": filter_json(op["filter"])} if "filter" in op else op for op in job["ops"]]
        return _go({**base, "op": "write", "steps": steps})
    import pyarrow as pa

    with tempfile.TemporaryDirectory(prefix="iceberg-go-") as tmp:
        out_file = os.path.join(tmp, "rows.arrows")
        go_job = {**base, "op": "scan", "planning": cat.get("planning", "client"), "table": job["table"],
                  "columns": list(job["columns"]), "out": out_file}
        if job.get("filter"):
            go_job["filter"] = filter_json(job["filter"])
        if job.get("snapshotId"):
            go_job["snapshotId"] = str(job["snapshotId"])
        reply = _go(go_job)
        with pa.OSFile(out_file, "rb") as f:
            arrow = pa.ipc.open_stream(f).read_all()
    if arrow.num_rows != reply["rows"]:
        raise RuntimeError(f"iceberg-go wrote {reply['rows']} rows, the Arrow stream holds {arrow.num_rows}")
    out = summarize(arrow.to_pylist(), reply["files"])
    out["deletes"] = sorted(set(reply["deletes"]))
    out["tasks"] = reply["tasks"]
    out["requests"] = reply.get("requests") or {}
    out["maxTasksInFlight"] = reply.get("maxTasksInFlight", 0)
    out["maxPlanTasksListed"] = reply.get("maxPlanTasksListed", 0)
    out["gomaxprocs"] = reply.get("gomaxprocs", 0)
    return out


if __name__ == "__main__":
    print(json.dumps(run(json.loads(sys.argv[1] if len(sys.argv) > 1 else sys.stdin.read())), default=str))
