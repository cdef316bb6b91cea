"""The line protocol of the bench's Python drivers (peer_spark.py, peer_pyiceberg.py): one JSON
job per line on stdin, one JSON reply per line on `out`; a job that raises is answered
{"ok": false, "error", "traceback"}, reported by the TypeScript side."""
import json
import sys
import traceback


def serve(handle, out):
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            reply = handle(json.loads(line))
        except Exception as e:
            reply = {"ok": False, "error": f"{type(e).__name__}: {e}"[:4000], "traceback": traceback.format_exc()[-4000:]}
        out.write(json.dumps(reply) + "\n")
        out.flush()
