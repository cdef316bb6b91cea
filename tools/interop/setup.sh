#!/usr/bin/env bash
# Installs the interop suite's toolchain into git-ignored folders of this clone, and checks that
# each piece starts:
#   .interop/venv/           Python venv: pyspark, pyiceberg (with SQLAlchemy and psycopg2 for its
#                            SqlCatalog), duckdb + extension wheels, moto[server] (requirements.txt)
#   .interop/jars/fixture/   the Iceberg REST fixture's classpath, iceberg-aws-bundle included (pom.xml)
#   .interop/jars/spark/     iceberg-spark-runtime + iceberg-aws-bundle + the SQLite and PostgreSQL
#                            JDBC drivers (JdbcCatalog) (pom.xml)
#   .interop/jars/spark-next/ the same at the next Iceberg version (1.12.0), for a second Spark JVM
#   .interop/jars/writer/    iceberg-data + iceberg-parquet and theirs, beyond the fixture's (pom.xml)
#   .interop/classes/        LoopbackRESTCatalogServer, compiled against the fixture classpath
#   .interop/writer-classes/ writers/…/EqualityDeleteWriter, compiled against fixture + writer jars
#   .interop/env.json        what the harness reads: paths and versions
#   .interop/stamp           hash of every pin; equal on a later run → everything is reused
# Idempotent and safe to run concurrently (flock). pip's and Maven's user caches make a run in a
# fresh clone fast. Exit codes: 0 ready, 3 a required tool is missing (the message names it),
# anything else: a step failed (its log tail is printed).
#   --force   reinstall even when the stamp matches
set -euo pipefail
start=$(date +%s.%N)
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
dir="$repo/.interop"
mkdir -p "$dir"
log="$dir/setup.log"
force=0
[ "${1:-}" = "--force" ] && force=1

elapsed() { awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }'; }
missing() { echo "interop setup: missing $1" >&2; exit 3; }

# One setup at a time per clone: concurrent test files wait here, then find the stamp.
exec 9>"$dir/.lock"
flock 9

python=${ICEFRONT_INTEROP_PYTHON:-python3}
command -v java >/dev/null || missing "java (JDK 17 or 21 on PATH)"
command -v javac >/dev/null || missing "javac (a JDK 17 or 21, not only a JRE)"
command -v mvn >/dev/null || missing "mvn (Maven 3.8+ on PATH)"
command -v "$python" >/dev/null || missing "$python (Python 3.10+ on PATH, or set ICEFRONT_INTEROP_PYTHON)"
java_version=$(java -version 2>&1 | head -n 1)
java_major=$(java -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p')
case "$java_major" in 17 | 21) ;; *) missing "Java 17 or 21 (found: $java_version)" ;; esac
py_version=$("$python" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
"$python" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 10) else 1)' || missing "Python 3.10+ (found $py_version)"
"$python" -c 'import venv, ensurepip' 2>/dev/null || missing "Python's venv/ensurepip modules (found $python $py_version without them)"

mapfile -t writer_sources < <(find "$here/writers" -name '*.java' | LC_ALL=C sort)
stamp=$(cat "$here/requirements.txt" "$here/pom.xml" "$here/verify.py" "$here/moto-server.py" "$0" \
  "$here"/fixture/org/apache/iceberg/rest/*.java "${writer_sources[@]}" | sha256sum | cut -c1-16)
stamp="$stamp java=$java_major python=$py_version"
if [ "$force" = 0 ] && [ -f "$dir/stamp" ] && [ "$(cat "$dir/stamp")" = "$stamp" ] && [ -f "$dir/env.json" ]; then
  echo "interop setup: reused .interop (stamp $stamp) in $(elapsed) s"
  exit 0
fi
rm -f "$dir/stamp"
: >"$log"

step() {
  local name=$1
  shift
  local t0
  t0=$(date +%s)
  if ! "$@" >>"$log" 2>&1; then
    echo "interop setup: step '$name' failed; last lines of $log:" >&2
    tail -n 25 "$log" >&2
    exit 1
  fi
  echo "  $name: $(($(date +%s) - t0)) s"
}

echo "interop setup: installing into $dir ($java_version; $python $py_version)"
venv="$dir/venv"
install_python() {
  [ -x "$venv/bin/python" ] || "$python" -m venv "$venv"
  "$venv/bin/python" -m pip install --disable-pip-version-check -q -r "$here/requirements.txt"
}
step "python venv (pip install -r tools/interop/requirements.txt)" install_python

jars="$dir/jars"
resolve_jars() {
  rm -rf "$jars"
  mvn -B -q -f "$here/pom.xml" -Dinterop.jars="$jars" package
}
step "jars (mvn -f tools/interop/pom.xml package)" resolve_jars

classes="$dir/classes"
compile_launcher() {
  rm -rf "$classes"
  javac -d "$classes" -cp "$jars/fixture/*" "$here"/fixture/org/apache/iceberg/rest/*.java
}
step "fixture launcher (javac)" compile_launcher

writer_classes="$dir/writer-classes"
compile_writer() {
  rm -rf "$writer_classes"
  javac -d "$writer_classes" -cp "$jars/fixture/*:$jars/writer/*" "${writer_sources[@]}"
}
step "equality-delete writer (javac)" compile_writer

spark_jar=$(ls "$jars"/spark/iceberg-spark-runtime-*.jar)
spark_aws_jar=$(ls "$jars"/spark/iceberg-aws-bundle-*.jar)
# JdbcCatalog's drivers (type=jdbc on jdbc:sqlite: / jdbc:postgresql:), on Spark's classpath with the runtime
spark_jdbc_jars=$(ls "$jars"/spark/sqlite-jdbc-*.jar "$jars"/spark/postgresql-*.jar | paste -sd, -)
spark_next_jars=$(ls "$jars"/spark-next/*.jar | paste -sd, -)
fixture_cp="$classes:$jars/fixture/*"
writer_cp="$writer_classes:$jars/fixture/*:$jars/writer/*"
writer_main=dev.icefront.interop.EqualityDeleteWriter

# Start the fixture on a free loopback port with a throwaway warehouse, then run verify.py.
check=$(mktemp -d)
fixture_pid=
cleanup() {
  [ -n "$fixture_pid" ] && kill "$fixture_pid" 2>/dev/null || true
  rm -rf "$check"
}
trap cleanup EXIT
verify() {
  CATALOG_WAREHOUSE="file://$check/wh" CATALOG_URI="jdbc:sqlite:$check/catalog.db" CATALOG_REST_PORT=0 \
    java -cp "$fixture_cp" org.apache.iceberg.rest.LoopbackRESTCatalogServer >"$check/out" 2>"$check/err" &
  fixture_pid=$!
  local port=
  for _ in $(seq 1 120); do
    port=$(sed -n 's/^LISTENING 127.0.0.1://p' "$check/out")
    [ -n "$port" ] && break
    kill -0 "$fixture_pid" 2>/dev/null || { cat "$check/err"; return 1; }
    sleep 0.25
  done
  [ -n "$port" ] || { echo "fixture did not start"; cat "$check/err"; return 1; }
  "$venv/bin/python" - "http://127.0.0.1:$port" <<'EOF'
import json, sys, urllib.request
with urllib.request.urlopen(sys.argv[1] + "/v1/config", timeout=10) as r:
    body = json.load(r)
assert r.status == 200 and "endpoints" in body, body
print("  REST fixture: GET /v1/config 200 with", len(body["endpoints"]), "endpoints")
EOF
  "$venv/bin/python" "$here/verify.py" "http://127.0.0.1:$port" "$spark_jar,$spark_jdbc_jars" "$check"
  "$venv/bin/python" "$here/moto-server.py" --check
  # The writer commits its two tables to the same fixture; its stdout must be one JSON line.
  java -cp "$writer_cp" "$writer_main" "http://127.0.0.1:$port" check >"$check/writer.out" 2>"$check/writer.err" ||
    { tail -n 40 "$check/writer.err"; return 1; }
  "$venv/bin/python" - "$check/writer.out" <<'EOF'
import json, sys
lines = open(sys.argv[1]).read().splitlines()
assert len(lines) == 1, f"expected one JSON line on stdout, got {len(lines)}"
tables = json.loads(lines[0])["tables"]
ops = {name: [c["operation"] for c in t["commits"]] for name, t in tables.items()}
assert all(o == ["append", "delete", "delete", "append"] for o in ops.values()), ops
print(f"  equality-delete writer: committed {sum(map(len, ops.values()))} snapshots to {', '.join(ops)}")
EOF
}
t0=$(date +%s)
if ! verify >"$check/verify.log" 2>&1; then
  cat "$check/verify.log" >>"$log"
  echo "interop setup: verification failed; last lines:" >&2
  grep -v '^\s*at ' "$check/verify.log" | tail -n 25 >&2
  exit 1
fi
grep '^  ' "$check/verify.log" || true
echo "  verify (fixture, spark, spark jdbc catalog, pyiceberg, duckdb, moto, writer): $(($(date +%s) - t0)) s"

"$venv/bin/python" - "$dir/env.json" "$venv/bin/python" "$spark_jar" "$classes" "$jars/fixture" "$java_version" \
  "$writer_classes" "$jars/writer" "$writer_main" "$spark_aws_jar" "$here/moto-server.py" "$spark_next_jars" "$spark_jdbc_jars" <<'EOF'
import json, re, sys, importlib.metadata as md
out, python, spark_jar, classes, fixture_jars, java, writer_classes, writer_jars, writer_main, spark_aws_jar, moto_server, spark_next_jars, spark_jdbc_jars = sys.argv[1:]
next_jars = spark_next_jars.split(",")
next_version = re.search(r"-(\d+\.\d+\.\d+)\.jar$", next(j for j in next_jars if "spark-runtime" in j)).group(1)
pkgs = ["pyspark", "pyiceberg", "duckdb", "duckdb-ext-iceberg", "duckdb-ext-httpfs", "pyarrow", "moto", "SQLAlchemy", "psycopg2-binary"]
json.dump({
    "python": python,
    "sparkJar": spark_jar,
    "sparkJars": [spark_jar, spark_aws_jar, *spark_jdbc_jars.split(",")],
    "sparkJarsNext": next_jars,
    "icebergNext": next_version,
    "motoServer": moto_server,
    "fixtureClasspath": [classes, fixture_jars + "/*"],
    "fixtureMain": "org.apache.iceberg.rest.LoopbackRESTCatalogServer",
    "java": java,
    "versions": {p: md.version(p) for p in pkgs},
    "writerClasspath": [writer_classes, fixture_jars + "/*", writer_jars + "/*"],
    "writerMain": writer_main,
}, open(out, "w"), indent=2)
EOF
echo "$stamp" >"$dir/stamp"
echo "interop setup: installed in $(elapsed) s (stamp $stamp)"
