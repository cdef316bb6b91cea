#!/usr/bin/env bash
# Builds Rustberg (a Rust Iceberg REST catalog, from crates.io, pinned) into the user's cache, so
# later runs on the same machine (and later clones) reuse it: the crate's own profile is ~40 minutes
# of CPU; this one is lighter (below).
#   ${XDG_CACHE_HOME:-~/.cache}/icefront/rustberg/<version>/bin/rustberg   the binary
#   ${XDG_CACHE_HOME:-~/.cache}/icefront/rustberg/target/                  cargo's target folder
# Idempotent and safe to run concurrently (flock). Prints the binary's path on its last line.
# Exit codes: 0 built or reused, 3 cargo missing, anything else: the build failed (log tail printed).
set -euo pipefail
version=0.3.0
cache=${XDG_CACHE_HOME:-$HOME/.cache}/icefront/rustberg
root="$cache/$version"
bin="$root/bin/rustberg"
mkdir -p "$cache"
exec 9>"$cache/.lock"
flock 9
if [ ! -x "$bin" ]; then
  command -v cargo >/dev/null || { echo "rustberg: missing cargo (Rust toolchain)" >&2; exit 3; }
  start=$(date +%s)
  # --locked: the crate's own Cargo.lock; only the CLI (memory:// and file:// catalogs, file:// warehouse).
  # The crate's release profile (fat LTO, one codegen unit, full optimisation) makes the build ~40
  # minutes of CPU, its last link a single core's work; a test upstream needs none of it: thin-local
  # LTO, parallel codegen, opt-level 1. Not niced: in CI it runs beside the test suite, and a niced
  # build starved there while the test that needs it waited.
  if ! CARGO_TARGET_DIR="$cache/target" CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 \
    CARGO_PROFILE_RELEASE_OPT_LEVEL=1 CARGO_PROFILE_RELEASE_INCREMENTAL=false cargo install rustberg --version "$version" --locked \
    --no-default-features --features cli --root "$root" >"$cache/build.log" 2>&1; then
    echo "rustberg: cargo install failed; last lines of $cache/build.log:" >&2
    tail -n 30 "$cache/build.log" >&2
    exit 1
  fi
  echo "rustberg: built $version in $(($(date +%s) - start)) s" >&2
fi
echo "$bin"
