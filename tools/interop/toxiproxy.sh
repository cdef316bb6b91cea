#!/usr/bin/env bash
# Builds Toxiproxy's server (the Go module github.com/Shopify/toxiproxy/v2, pinned) into the user's
# cache with `go install`, so later runs, other clones and CI on the same machine reuse it:
#   ${XDG_CACHE_HOME:-~/.cache}/icefront/toxiproxy/<version>/bin/server
# The fault tests put it between Icefront and an upstream (or S3) and drive it through its HTTP API.
# Idempotent and safe to run concurrently (flock). Prints the binary's path on its last line.
# Exit codes: 0 built or reused, 3 go missing, anything else: the build failed (log tail printed).
set -euo pipefail
version=v2.12.0
cache=${XDG_CACHE_HOME:-$HOME/.cache}/icefront/toxiproxy
root="$cache/$version"
bin="$root/bin/server"
mkdir -p "$cache"
exec 9>"$cache/.lock"
flock 9
if [ ! -x "$bin" ]; then
  command -v go >/dev/null || { echo "toxiproxy: missing go (the Go toolchain, to build Toxiproxy $version)" >&2; exit 3; }
  start=$(date +%s)
  if ! GOBIN="$root/bin" GOFLAGS=-trimpath go install "github.com/Shopify/toxiproxy/v2/cmd/server@$version" >"$cache/build.log" 2>&1; then
    echo "toxiproxy: go install failed; last lines of $cache/build.log:" >&2
    tail -n 30 "$cache/build.log" >&2
    exit 1
  fi
  echo "toxiproxy: built $version in $(($(date +%s) - start)) s" >&2
fi
echo "$bin"
