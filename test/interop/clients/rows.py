"""Row canonicalisation shared by the clients: every engine's rows become the same strings.

A row is a mapping column → value; its canonical form is JSON with sorted keys, where ints stay
ints, floats are repr()'d (so 1.0 and 1 differ, as the column type does), dates and timestamps
are ISO strings (timestamps with a zone converted to UTC, `+00:00`), UUIDs are their string form
(as Spark reads them), Decimals are strings and bytes are hex. The result's `hash` is SHA-256
over the sorted canonical rows, so it ignores order, and `rows` carries them (up to MAX_ROWS)
for diffs.
"""
import datetime
import decimal
import hashlib
import json
import uuid

MAX_ROWS = 500


def _value(v):
    if v is None or isinstance(v, (bool, int, str)):
        return v
    if isinstance(v, float):
        return {"float": repr(v)}
    if isinstance(v, datetime.datetime) and v.tzinfo is not None:
        # timestamptz: every client's zone becomes UTC (DuckDB answers in the session's zone).
        return v.astimezone(datetime.timezone.utc).isoformat()
    if isinstance(v, (datetime.datetime, datetime.date, datetime.time)):
        return v.isoformat()
    if isinstance(v, uuid.UUID):
        # uuid columns: Spark reads them as strings, pyarrow and DuckDB as uuid.UUID.
        return str(v)
    if isinstance(v, decimal.Decimal):
        return {"decimal": str(v)}
    if isinstance(v, (bytes, bytearray, memoryview)):
        return {"bytes": bytes(v).hex()}
    if isinstance(v, dict):
        return {k: _value(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_value(x) for x in v]
    return {"repr": repr(v)}


def canonical(row) -> str:
    return json.dumps({k: _value(v) for k, v in row.items()}, sort_keys=True, separators=(",", ":"))


def summarize(rows, files=None) -> dict:
    """rows: iterable of dicts. files: the data files the client planned or read, or None."""
    lines = sorted(canonical(r) for r in rows)
    digest = hashlib.sha256("\n".join(lines).encode()).hexdigest()
    out = {"count": len(lines), "hash": digest, "rows": lines[:MAX_ROWS], "truncated": len(lines) > MAX_ROWS}
    out["files"] = sorted(set(files)) if files is not None else None
    return out
