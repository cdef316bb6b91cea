"""Spark's own planning time for a full scan, for bench/peer.ts.

Protocol: one JSON object per line on stdin, one per line on stdout (fd 1 is kept private; Spark's
output goes to stderr), like test/interop/clients/worker.py:
  {"catalog": CAT, "table": "ns.t", "countFiles": false, "filter": "c4 < 1000" (optional)}
    -> {"ok": true, "ms": total, "tableMs": ..., "optimizedMs": ..., "physicalMs": ...,
        "partitionsMs": ..., "partitions": N, "files": M or null}
CAT as in test/interop/clients/spark_client.py, whose session and catalog settings this reuses
(local[1], type rest, scan-planning-mode, cache-enabled false).

What is timed, with nothing read from data files (each step forces the one before):
  tableMs       spark.table(t): loadTable and analysis
  optimizedMs   queryExecution().optimizedPlan(): the optimiser (V2 scan pushdown builds the scan)
  physicalMs    queryExecution().executedPlan(): physical planning
  partitionsMs  executedPlan().execute().getNumPartitions(): the RDD and its partitions, i.e.
                Iceberg's SparkBatch.planInputPartitions() (the scan's task groups, packed into splits)
Iceberg plans the scan's file tasks (client planning: manifests read in this JVM; server planning:
POST /plan and every /tasks) in whichever step first asks for them; bench/peer.ts finds out which
from Icefront's request log by running the steps one at a time:
  {"step": "table", "catalog": CAT, "table": "ns.t"}, then {"step": "optimized"},
  {"step": "physical"}, {"step": "partitions", "countFiles": true}
With countFiles, the file tasks in the planned input partitions are counted afterwards (untimed,
one py4j call per partition), from the same planned scan.
"""
import os
import sys
import time

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "test", "interop", "clients"))

protocol = os.fdopen(os.dup(1), "w", buffering=1)
os.dup2(2, 1)
sys.stdout = sys.stderr

import spark_client  # noqa: E402  (after the fd shuffle, so its JVM writes to stderr)
import json_lines  # noqa: E402


STEPS = ["table", "optimized", "physical", "partitions"]
_kept = {}


def step(name, job, kept):
    t0 = time.perf_counter()
    if name == "table":
        spark = spark_client.session()
        catalog = spark_client.catalog(job["catalog"])
        df = spark.table(f"{catalog}.{job['table']}")
        # a filter Spark pushes down into the Iceberg scan (server planning: the /plan filter)
        kept["df"] = df.filter(job["filter"]) if job.get("filter") else df
        kept["qe"] = kept["df"]._jdf.queryExecution()
    elif name == "optimized":
        kept["qe"].optimizedPlan()
    elif name == "physical":
        kept["physical"] = kept["qe"].executedPlan()
    else:
        kept["partitions"] = kept["physical"].execute().getNumPartitions()
    kept[f"{name}Ms"] = (time.perf_counter() - t0) * 1000


def result(kept, count_files):
    files = None
    if count_files:
        physical = kept["physical"]
        leaves = physical.collectLeaves()
        scan = leaves.apply(0)
        if leaves.size() != 1 or scan.getClass().getSimpleName() != "BatchScanExec":
            raise RuntimeError(f"expected one BatchScanExec leaf, got {physical.toString()[:2000]}")
        files = sum(p.taskGroup().tasks().size() for p in scan.batch().planInputPartitions())
    times = {f"{s}Ms": kept[f"{s}Ms"] for s in STEPS}
    return {"ok": True, "ms": sum(times.values()), **times, "partitions": kept["partitions"], "files": files}


def collect_garbage():
    """A full GC in Spark's JVM before a run, untimed: a run does not pay for the garbage the one
    before it left (a server-planned scan of 100,000 files leaves hundreds of MB of it)."""
    spark_client.session()._jvm.System.gc()


def plan(job):
    global _kept
    name = job.get("step")
    if name in (None, "table"):
        collect_garbage()
    if name is None:
        kept = {}
        for s in STEPS:
            step(s, job, kept)
        return result(kept, job.get("countFiles"))
    if name == "table":
        _kept = {}
    step(name, job, _kept)
    return result(_kept, job.get("countFiles")) if name == "partitions" else {"ok": True}


def main():
    json_lines.serve(plan, protocol)
    if spark_client._spark is not None:
        spark_client._spark.stop()


if __name__ == "__main__":
    main()
