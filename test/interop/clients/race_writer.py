"""One pyiceberg writer of commit-races.test.ts (issue #40 "Races" and "Crashes"), or its reader.

`python race_writer.py '<job json>'` prints one JSON line (the result) on stdout; progress goes
to stderr.

Write job: {"mode": "write", "uri": "http://127.0.0.1:<port>", "warehouse": "lake",
            "table": "db.t", "writer": W, "appends": N (race)  |  "stopFile": "/abs" (crash),
            "goFile": "/abs" (optional), "deadlineS": 240}
  A pyiceberg 0.12 REST client appending to one table. Append k of writer W holds the rows
  id = W*1_000_000 + k*100 + j, j < rows(k) = 1 + k % 10, with columns w = W and k = k, and the
  snapshot summary properties race.writer = W, race.append = k.
  - 200: acknowledged; the next append (k+1).
  - 409: pyiceberg 0.12.0 (as installed) retries a commit answered 409 itself, as Iceberg Java
    does: `commit.retry.num-retries` (default 4) times, refreshing the table and rebuilding its
    snapshot on the new parent each time, with a warning "Commit failed due to a concurrent
    update, retrying"; the writer counts those warnings (one per 409). When pyiceberg gives up
    (CommitFailedException) the writer reloads the table and appends the same rows again (same
    ids), after a jittered exponential pause (50 ms doubling, at most 1 s), and counts that 409 too.
  - a refused or broken connection, or an answer 5xx (CommitStateUnknownException, ServerError,
    ServiceUnavailableError): the outcome is unknown. Recorded with its ids and cause; the writer
    reloads the table (retrying until the server answers) and goes on with append k+1, never
    resending those ids. The test decides afterwards whether they are in the table.
  With `goFile`, the writer loads the table, prints READY on stderr and waits for that file to
  exist before its first append (a start line, so that all writers race from the start).
  Race mode stops after N acknowledged appends (or unknown ones); crash mode starts no new
  append once `stopFile` exists. Result:
  {"writer": W, "acked": [[k, firstId, rows, attempts]], "unknown": [[k, firstId, rows, cause]],
   "conflicts": n (every 409), "engineRetries": n (of them, retried inside pyiceberg),
   "reloadFailures": n, "seconds": s, "error": null | "…"}
  `attempts` counts the writer's own tries of an append (1 + the times pyiceberg gave up).

Read job: {"mode": "read", "table": "db.t", "catalog": {"type": "sql", "uri": "sqlite:////abs.db" |
           "postgresql+psycopg2://…", "name": "lake"} | {"type": "static", "metadataDir": "/abs"}}
  The independent reader, never through Icefront: pyiceberg's SqlCatalog straight on the database,
  or StaticTable on the `v<N>.metadata.json` of the highest N present in the metadata folder (what
  Iceberg's HadoopCatalog takes as current when the version hint is behind). Result:
  {"metadataLocation", "metadataLog": [...], "ids": [...] (sorted), "files": [...] (the data files
   of the planned scan, sorted), "snapshots": [[writer, append], ...], "currentSnapshotId",
   "chain": [[snapshot id, parent id], ...] (in the metadata's order),
   "store": {"rows": [[metadata_location, previous_metadata_location]]} (the table's iceberg_tables
            rows) | {"versions": [N, ...] (every v<N>.metadata.json present), "hint": "…"}}
"""
import json
import logging
import os
import random
import re
import sys
import time

ROWS_MOD = 10


def log(*args):
    print(*args, file=sys.stderr, flush=True)


def rows_of(writer: int, k: int) -> tuple[int, int]:
    """(first id, row count) of append k of a writer."""
    return writer * 1_000_000 + k * 100, 1 + k % ROWS_MOD


def cause_of(exc: BaseException) -> str | None:
    """'refused', 'disconnected', 'http-<status>' when the outcome of a commit is unknown; None otherwise."""
    import requests
    from pyiceberg.exceptions import CommitStateUnknownException, ServerError, ServiceUnavailableError

    if isinstance(exc, requests.exceptions.ConnectionError):
        seen, e = set(), exc
        text = repr(exc)
        while e is not None and id(e) not in seen:
            seen.add(id(e))
            if isinstance(e, ConnectionRefusedError):
                return "refused"
            e = e.__cause__ or e.__context__
        return "refused" if "Connection refused" in text or "NewConnectionError" in text else "disconnected"
    if isinstance(exc, (requests.exceptions.ChunkedEncodingError, requests.exceptions.ReadTimeout)):
        return "disconnected"
    if isinstance(exc, (CommitStateUnknownException, ServerError, ServiceUnavailableError)):
        m = re.search(r"\b(5\d\d)\b", str(exc))
        return f"http-{m.group(1) if m else '5xx'}"
    return None


class RetryCounter(logging.Handler):
    """Counts pyiceberg's "Commit failed due to a concurrent update, retrying" warnings: one per 409 it retried."""

    def __init__(self):
        super().__init__(logging.WARNING)
        self.count = 0

    def emit(self, record):
        if "Commit failed due to a concurrent update" in record.getMessage():
            self.count += 1


class Writer:
    def __init__(self, job):
        self.job = job
        self.w = int(job["writer"])
        self.name = job["table"]
        self.deadline = time.monotonic() + float(job.get("deadlineS", 240))
        self.catalog = None
        self.table = None
        self.reload_failures = 0

    def connect(self):
        from pyiceberg.catalog import load_catalog

        self.catalog = load_catalog(f"w{self.w}", type="rest", uri=self.job["uri"], warehouse=self.job.get("warehouse", "lake"))

    def reload(self):
        """The table as the server has it now; retried (a restarting server) until the deadline."""
        pause = 0.02
        while True:
            try:
                if self.catalog is None:
                    self.connect()
                self.table = self.catalog.load_table(self.name)
                return
            except Exception as exc:  # noqa: BLE001 - any failure to reach a restarting server
                if cause_of(exc) is None and not isinstance(exc, OSError):
                    raise
                self.reload_failures += 1
                if time.monotonic() > self.deadline:
                    raise RuntimeError(f"writer {self.w}: no table load within the deadline: {exc!r}") from exc
                time.sleep(pause * (0.5 + random.random()))
                pause = min(pause * 2, 0.2)

    def frame(self, k: int):
        import pyarrow as pa

        first, count = rows_of(self.w, k)
        schema = self.table.schema().as_arrow()
        return pa.Table.from_pylist([{"id": first + j, "w": self.w, "k": k} for j in range(count)], schema=schema)

    def run(self) -> dict:
        from pyiceberg.exceptions import CommitFailedException

        started = time.monotonic()
        acked, unknown, conflicts, error = [], [], 0, None
        retries = RetryCounter()
        logging.getLogger("pyiceberg").addHandler(retries)
        stop_file = self.job.get("stopFile")
        appends = self.job.get("appends")
        k = 0
        try:
            self.reload()
            go_file = self.job.get("goFile")
            if go_file is not None:
                # all writers loaded and ready: start together, so the appends race
                log("READY")
                while not os.path.exists(go_file):
                    if time.monotonic() > self.deadline:
                        raise RuntimeError(f"writer {self.w}: no go within the deadline")
                    time.sleep(0.01)
                started = time.monotonic()
            while True:
                if appends is not None and k >= int(appends):
                    break
                if stop_file is not None and os.path.exists(stop_file):
                    break
                first, count = rows_of(self.w, k)
                attempts, pause = 0, 0.05
                while True:
                    attempts += 1
                    try:
                        self.table.append(self.frame(k), snapshot_properties={"race.writer": str(self.w), "race.append": str(k)})
                        acked.append([k, first, count, attempts])
                        break
                    except CommitFailedException:
                        conflicts += 1
                        if time.monotonic() > self.deadline:
                            raise RuntimeError(f"writer {self.w}: append {k} still refused (409) after {attempts} attempts at the deadline")
                        time.sleep(pause * random.random())
                        pause = min(pause * 2, 1.0)
                        self.reload()
                    except Exception as exc:  # noqa: BLE001 - sorted by cause_of
                        cause = cause_of(exc)
                        if cause is None:
                            raise
                        unknown.append([k, first, count, cause])
                        log(f"writer {self.w}: append {k} unknown ({cause}): {exc!r}"[:300])
                        self.reload()
                        break
                k += 1
        except Exception as exc:  # noqa: BLE001 - reported to the test, which fails on it
            error = f"{type(exc).__name__}: {exc}"[:2000]
        return {
            "writer": self.w,
            "acked": acked,
            "unknown": unknown,
            "conflicts": conflicts + retries.count,
            "engineRetries": retries.count,
            "reloadFailures": self.reload_failures,
            "seconds": round(time.monotonic() - started, 2),
            "error": error,
        }


def highest_version(metadata_dir: str) -> str:
    """The `v<N>.metadata.json` (or `v<N>.gz.metadata.json`) of the highest N in the folder."""
    best = None
    for name in os.listdir(metadata_dir):
        m = re.fullmatch(r"v(\d+)(\.gz)?\.metadata\.json", name)
        if m and (best is None or int(m.group(1)) > best[0]):
            best = (int(m.group(1)), name)
    if best is None:
        raise RuntimeError(f"no v<N>.metadata.json in {metadata_dir}")
    return os.path.join(metadata_dir, best[1])


def read(job) -> dict:
    cat = job["catalog"]
    store = {}
    if cat["type"] == "static":
        from pyiceberg.table import StaticTable

        folder = cat["metadataDir"]
        table = StaticTable.from_metadata("file://" + highest_version(folder))
        store["versions"] = sorted(int(m.group(1)) for n in os.listdir(folder) if (m := re.fullmatch(r"v(\d+)(?:\.gz)?\.metadata\.json", n)))
        hint = os.path.join(folder, "version-hint.text")
        store["hint"] = open(hint).read().strip() if os.path.exists(hint) else None
    else:
        from pyiceberg.catalog import load_catalog
        from sqlalchemy import text

        props = {"type": "sql", "uri": cat["uri"], "warehouse": cat.get("warehouse", "file:///nonexistent"), "init_catalog_tables": "false"}
        catalog = load_catalog(cat.get("name", "lake"), **props)
        table = catalog.load_table(job["table"])
        namespace, name = job["table"].rsplit(".", 1)
        with catalog.engine.connect() as conn:
            rows = conn.execute(
                text("SELECT metadata_location, previous_metadata_location FROM iceberg_tables WHERE catalog_name = :c AND table_namespace = :n AND table_name = :t"),
                {"c": cat.get("name", "lake"), "n": namespace, "t": name},
            ).fetchall()
        store["rows"] = [[r[0], r[1]] for r in rows]
    scan = table.scan(selected_fields=("id",))
    files = sorted({task.file.file_path for task in scan.plan_files()})
    ids = sorted(scan.to_arrow()["id"].to_pylist())
    snaps = []
    for s in table.metadata.snapshots:
        w = s.summary["race.writer"] if s.summary else None
        k = s.summary["race.append"] if s.summary else None
        snaps.append([int(w) if w is not None else -1, int(k) if k is not None else -1])
    current = table.current_snapshot()
    return {
        "metadataLocation": table.metadata_location,
        "metadataLog": [e.metadata_file for e in table.metadata.metadata_log],
        "ids": ids,
        "files": files,
        "snapshots": snaps,
        "currentSnapshotId": str(current.snapshot_id) if current else None,
        "chain": [[str(s.snapshot_id), str(s.parent_snapshot_id) if s.parent_snapshot_id is not None else None] for s in table.metadata.snapshots],
        "store": store,
    }


if __name__ == "__main__":
    job = json.loads(sys.argv[1] if len(sys.argv) > 1 else sys.stdin.read())
    if job["mode"] == "write":
        out = Writer(job).run()
    elif job["mode"] == "read":
        out = read(job)
    else:
        raise SystemExit(f"unknown mode {job['mode']!r}")
    print(json.dumps(out), flush=True)
