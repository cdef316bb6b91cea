#!/usr/bin/env bash
# Builds tools/interop/iceberg-go (iceberg-go v0.7.0 as an interop client, pinned by its go.mod and
# go.sum) into the user's cache, keyed by a hash of go.mod + go.sum + main.go, so later runs, other
# clones and other worktrees reuse it:
#   ${XDG_CACHE_HOME:-~/.cache}/icefront/iceberg-go/<hash>/iceberg-go-client
# Modules come through the Go toolchain's own module download (GOPROXY as configured), checked
# against go.sum (-mod=readonly: nothing is re-resolved). Idempotent and safe to run concurrently
# (flock). Prints how long it took, then the binary's path on its last line.
# Exit codes: 0 built or reused, 3 go missing, anything else: the build failed (log tail printed).
set -euo pipefail
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/iceberg-go" && pwd)
command -v go >/dev/null || { echo "iceberg-go: missing go (the Go toolchain, 1.25.9 or newer, to build tools/interop/iceberg-go)" >&2; exit 3; }
hash=$(cat "$src/go.mod" "$src/go.sum" "$src/main.go" | sha256sum | cut -c1-16)
cache=${XDG_CACHE_HOME:-$HOME/.cache}/icefront/iceberg-go
root="$cache/$hash"
bin="$root/iceberg-go-client"
mkdir -p "$cache"
exec 9>"$cache/.lock"
flock 9
start=$(date +%s)
if [ ! -x "$bin" ]; then
  mkdir -p "$root"
  if ! (cd "$src" && nice -n 10 go build -trimpath -buildvcs=false -mod=readonly -o "$bin.tmp" .) >"$root/build.log" 2>&1; then
    echo "iceberg-go: go build failed; last lines of $root/build.log:" >&2
    tail -n 30 "$root/build.log" >&2
    exit 1
  fi
  mv "$bin.tmp" "$bin"
  echo "iceberg-go: built iceberg-go-client ($(go version | cut -d' ' -f3)) in $(($(date +%s) - start)) s"
else
  echo "iceberg-go: reused the cached build (keyed $hash) in $(($(date +%s) - start)) s"
fi
echo "$bin"
