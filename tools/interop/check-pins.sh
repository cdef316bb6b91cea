#!/usr/bin/env bash
# Asks the registries whether every pin of the interop toolchain exists: the top-level Python
# pins of requirements.txt (`pip index versions`) and the artifacts of pom.xml
# (`mvn dependency:get`, one artifact at a time, transitive off). Run it by hand before changing
# a pin; setup.sh does not (installing is the real check). Prints one line per pin; exits 1 if
# any is missing.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
python=${ICEFRONT_INTEROP_PYTHON:-python3}
bad=0

# Top-level pins only: the lines before the frozen-dependencies comment.
while IFS= read -r line; do
  case "$line" in '# Everything they pulled in'*) break ;; '#'* | '') continue ;; esac
  spec=${line%%#*}
  name=${spec%%==*}
  name=${name%%\[*}
  version=${spec##*==}
  if "$python" -m pip index versions "$name" 2>/dev/null | grep -q "Available versions:.*\b${version//./\\.}\b"; then
    echo "ok      pypi  $name==$version"
  else
    echo "MISSING pypi  $name==$version"
    bad=1
  fi
done <"$here/requirements.txt"

# Artifacts as group:artifact:version[:packaging:classifier], read from pom.xml's properties.
prop() { sed -n "s:.*<$1>\(.*\)</$1>.*:\1:p" "$here/pom.xml" | head -n 1; }
ice=$(prop iceberg.version)
artifacts=(
  "org.apache.iceberg:$(prop spark.runtime):$ice"
  "org.apache.iceberg:iceberg-open-api:$ice:jar:test-fixtures"
  "org.apache.iceberg:iceberg-core:$ice"
  "org.apache.iceberg:iceberg-core:$ice:jar:tests"
  "org.apache.iceberg:iceberg-aws:$ice"
  "org.apache.iceberg:iceberg-gcp:$ice"
  "org.apache.iceberg:iceberg-azure:$ice"
  "org.apache.iceberg:iceberg-data:$ice"
  "org.apache.iceberg:iceberg-parquet:$ice"
  "org.apache.hadoop:hadoop-common:$(prop hadoop.version)"
  "org.eclipse.jetty.ee10:jetty-ee10-servlet:$(prop jetty.version)"
  "org.eclipse.jetty.compression:jetty-compression-server:$(prop jetty.version)"
  "org.eclipse.jetty.compression:jetty-compression-gzip:$(prop jetty.version)"
  "org.xerial:sqlite-jdbc:$(prop sqlite.version)"
  "org.slf4j:slf4j-simple:$(prop slf4j.version)"
  "org.xerial:sqlite-jdbc:$(prop spark.sqlite.version)"
  "org.postgresql:postgresql:$(prop spark.postgresql.version)"
)
for a in "${artifacts[@]}"; do
  if mvn -B -q dependency:get -Dartifact="$a" -Dtransitive=false >/dev/null 2>&1; then
    echo "ok      maven $a"
  else
    echo "MISSING maven $a"
    bad=1
  fi
done
exit "$bad"
