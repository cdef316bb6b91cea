#!/usr/bin/env bash
# Helm v4, pinned, built from its Go module (`go install`, through the Go module proxy `go env
# GOPROXY` names) into ${XDG_CACHE_HOME:-~/.cache}/icefront/helm/<version>/helm, once: later runs
# find it there. Prints the binary's path on stdout (progress and errors go to stderr), so
#   helm=$(bash tools/deploy/helm.sh) && "$helm" lint deploy/helm/icefront
# Concurrent runs (tap runs test files in parallel) wait for one build under a flock.
# Needs Go 1.24 or newer on PATH. Cold (empty Go module and build caches): about 4.5 minutes on
# 2 cores, downloading and compiling some 120 modules; warm: instant.
set -euo pipefail

HELM_VERSION=v4.3.2   # `go list -m -versions helm.sh/helm/v4` lists the others

dir="${XDG_CACHE_HOME:-$HOME/.cache}/icefront/helm/$HELM_VERSION"
bin="$dir/helm"
if [ -x "$bin" ]; then echo "$bin"; exit 0; fi

if ! command -v go >/dev/null 2>&1; then
  echo "tools/deploy/helm.sh: go is not on PATH: Helm $HELM_VERSION is built from its Go module (Go 1.24 or newer)" >&2
  exit 1
fi
mkdir -p "$dir"
exec 9>"$dir/.lock"
flock 9
if [ ! -x "$bin" ]; then
  echo "tools/deploy/helm.sh: building Helm $HELM_VERSION with $(go version | cut -d' ' -f3) into $dir (once)" >&2
  tmp=$(mktemp -d "$dir/.build.XXXXXX")
  trap 'rm -rf "$tmp"' EXIT
  # -mod=mod: resolve from the module's own go.mod, whatever GOFLAGS the caller has; the version
  # stamp is what `helm version` prints (it is otherwise empty for a `go install` build).
  GOBIN="$tmp" GOFLAGS=-mod=mod CGO_ENABLED=0 go install \
    -ldflags "-s -w -X helm.sh/helm/v4/internal/version.version=$HELM_VERSION" \
    "helm.sh/helm/v4/cmd/helm@$HELM_VERSION" >&2
  mv "$tmp/helm" "$bin"
fi
echo "$bin"
