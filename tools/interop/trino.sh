#!/usr/bin/env bash
# Installs Trino's server (pinned, the Maven artifact io.trino:trino-server:<version>:tar.gz, about
# 820 MB) into the user's cache, so later runs and later clones on the same machine reuse it:
#   ${XDG_CACHE_HOME:-~/.cache}/icefront/trino/<version>/   the unpacked server (bin/launcher, lib/, plugin/)
# Trino needs Java 24 or newer; the rest of the interop suite runs on the machine's Java 17/21, so
# this script only finds one (ICEFRONT_TRINO_JAVA_HOME, JAVA_HOME, the `java` on PATH, then
# /usr/lib/jvm/* and /opt/java/*) and prints it; the harness points Trino's launcher at it.
# Idempotent and safe to run concurrently (flock). Output: `trino: …` lines, then
# `java-home: <dir>`, then the install folder on the last line.
# Exit codes: 0 installed or reused, 3 Java 24+ or (for a first install) mvn missing, anything
# else: the download or unpacking failed (log tail printed).
set -euo pipefail
version=476
start=$(date +%s.%N)
cache=${XDG_CACHE_HOME:-$HOME/.cache}/icefront/trino
root="$cache/$version"
elapsed() { awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }'; }

java_major() { "$1/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p' | head -n 1; }
find_java() {
  local candidates=() h m
  [ -n "${ICEFRONT_TRINO_JAVA_HOME:-}" ] && candidates+=("$ICEFRONT_TRINO_JAVA_HOME")
  [ -n "${JAVA_HOME:-}" ] && candidates+=("$JAVA_HOME")
  if command -v java >/dev/null; then candidates+=("$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")"); fi
  for h in /usr/lib/jvm/* /opt/java/*; do [ -d "$h" ] && candidates+=("$h"); done
  for h in "${candidates[@]}"; do
    [ -x "$h/bin/java" ] || continue
    m=$(java_major "$h")
    case "$m" in '' | *[!0-9]*) continue ;; esac
    if [ "$m" -ge 24 ]; then
      echo "$h"
      return 0
    fi
  done
  return 1
}

java_home=$(find_java) || {
  echo "trino: missing Java 24 or newer (Trino $version needs it; set ICEFRONT_TRINO_JAVA_HOME to a JDK 24+ folder)" >&2
  exit 3
}

mkdir -p "$cache"
exec 9>"$cache/.lock"
flock 9
if [ ! -f "$root/.installed" ]; then
  command -v mvn >/dev/null || { echo "trino: missing mvn (Maven 3.8+ on PATH) to download io.trino:trino-server:$version:tar.gz" >&2; exit 3; }
  echo "trino: installing Trino $version into $root (an ~820 MB download)"
  log="$cache/install.log"
  : >"$log"
  work="$cache/.download-$version"
  rm -rf "$work" "$root"
  mkdir -p "$work/out" "$work/unpacked"
  fail() {
    echo "trino: $1 failed; last lines of $log:" >&2
    tail -n 25 "$log" >&2
    rm -rf "$work"
    exit 1
  }
  t0=$(date +%s)
  # A local repository of its own, removed afterwards: the tarball is not kept twice (~/.m2 and here).
  mvn -B -q -Dmaven.repo.local="$work/m2" dependency:copy \
    -Dartifact="io.trino:trino-server:$version:tar.gz" -DoutputDirectory="$work/out" >>"$log" 2>&1 || fail "mvn dependency:copy"
  echo "trino:   download: $(($(date +%s) - t0)) s"
  t0=$(date +%s)
  tar -xzf "$work/out/trino-server-$version.tar.gz" -C "$work/unpacked" >>"$log" 2>&1 || fail "unpacking"
  [ -x "$work/unpacked/trino-server-$version/bin/launcher" ] || fail "finding bin/launcher in the tarball"
  mv "$work/unpacked/trino-server-$version" "$root"
  rm -rf "$work"
  echo "$version" >"$root/.installed"
  echo "trino:   unpack: $(($(date +%s) - t0)) s"
  echo "trino: installed $version in $(elapsed) s"
else
  echo "trino: reused $root in $(elapsed) s"
fi
echo "java-home: $java_home (Java $(java_major "$java_home"))"
echo "$root"
