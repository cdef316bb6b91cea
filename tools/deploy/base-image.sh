#!/usr/bin/env bash
# A local stand-in for the official Node slim image (`node:24-bookworm-slim`, the Dockerfile's
# default), for machines that cannot pull from a container registry: a minimal Debian (mmdebstrap,
# variant minbase, the suite and Debian sources of this machine's apt configuration) plus the
# official Node.js binary of the line asked for (tools/node/install.sh: the pinned build from the
# npm registry, the same binary the tests run on) and this machine's npm, laid out as the official
# image lays them out (/usr/local/bin/node, /usr/local/lib/node_modules/npm).
# Imported into podman as localhost/icefront-node<major>-base:<hash>, the hash covering everything
# it is made from (this script, the suite, the apt sources, the node binary, npm's version): when
# that image is already there, nothing is done. Prints the image's name on stdout.
#
#   base=$(bash tools/deploy/base-image.sh)        # Node 24; ICEFRONT_BASE_NODE=22 for the other line
#   podman build --format docker --build-arg NODE_IMAGE="$base" -t icefront:test .
#
# Needs root (mmdebstrap's root mode), podman and mmdebstrap (tools/deploy/build-image.sh installs
# them). Only Debian's archive is contacted, through this machine's apt sources. Override the
# sources with ICEFRONT_BASE_SOURCES=FILE (a sources.list or deb822 .sources file).
# Cold: 40 s to 4 minutes on 2 cores (downloading and unpacking some 90 Debian packages, however
# fast the mirror answers); warm: a second (hashing the node binary).
set -euo pipefail
# Run from a test runner, node options may name the runner's hooks (NODE_OPTIONS=--import=…): not
# for the node binary checked here, nor for the one run inside the new tree.
unset NODE_OPTIONS

say() { echo "tools/deploy/base-image.sh: $*" >&2; }
die() { say "$*"; exit 1; }

for tool in podman mmdebstrap npm sha256sum; do
  command -v "$tool" >/dev/null 2>&1 || die "$tool is not on PATH (tools/deploy/build-image.sh installs podman and mmdebstrap)"
done
[ "$(id -u)" -eq 0 ] || die "run as root: mmdebstrap's root mode builds the tree (podman here is rootful)"

# --- what the image is made of ---------------------------------------------------------------
. /etc/os-release
suite=${VERSION_CODENAME:?/etc/os-release names no VERSION_CODENAME}

# This machine's Debian sources: every apt sources file whose entries are all signed by Debian's
# archive keyring (or the classic /etc/apt/sources.list, which names no key). Third-party
# repositories (signed by their own keys) are left out: the image gets Debian's packages only.
sources=()
if [ -n "${ICEFRONT_BASE_SOURCES:-}" ]; then
  [ -f "$ICEFRONT_BASE_SOURCES" ] || die "ICEFRONT_BASE_SOURCES=$ICEFRONT_BASE_SOURCES is not a file"
  sources=("$ICEFRONT_BASE_SOURCES")
else
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    grep -Eq '^[[:space:]]*(deb[[:space:]]|URIs:)' "$f" || continue       # nothing enabled in it
    keys=$(grep -Eoi '(signed-by[=:][[:space:]]*)[^] ,]+' "$f" | sed -E 's/^signed-by[=:][[:space:]]*//I' | sort -u || true)
    if [ -z "$keys" ]; then
      [ "$f" = /etc/apt/sources.list ] && sources+=("$f")
    elif ! grep -qv '/usr/share/keyrings/debian-archive-keyring.gpg' <<<"$keys"; then
      sources+=("$f")
    fi
  done
fi
[ "${#sources[@]}" -gt 0 ] || die "found no Debian apt sources in /etc/apt (set ICEFRONT_BASE_SOURCES=FILE)"

# Node.js: the pinned official binary of the line (tools/node/install.sh); npm: the package folder
# behind `command -v npm` (…/node_modules/npm/bin/npm-cli.js), as the node-linux package has none.
node_dir=$(bash "$(dirname "$0")/../node/install.sh" "${ICEFRONT_BASE_NODE:-24}" | tail -n 1) || die "could not install Node.js ${ICEFRONT_BASE_NODE:-24} (tools/node/install.sh)"
node_bin="$node_dir/node"
npm_dir=$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")
[ -f "$npm_dir/package.json" ] && [ "$(basename "$npm_dir")" = npm ] || die "cannot find npm's package folder from $(command -v npm) (found $npm_dir)"
node_version=$("$node_bin" -p process.versions.node)
node_major=${node_version%%.*}
npm_version=$("$node_bin" -p "require('$npm_dir/package.json').version")
[ "$node_major" -ge 22 ] || die "Node.js $node_version is too old: Icefront needs 22.13 or newer"

hash=$( { cat "$0"; echo "$suite"; cat "${sources[@]}"; sha256sum "$node_bin"; echo "npm $npm_version"; } | sha256sum | cut -c1-12 )
image="localhost/icefront-node${node_major}-base:$hash"

if podman image exists "$image"; then echo "$image"; exit 0; fi

# --- build it ----------------------------------------------------------------------------------
exec 9>"/tmp/icefront-base-image.lock"
flock 9
if podman image exists "$image"; then echo "$image"; exit 0; fi

say "making $image: Debian $suite (minbase) from ${sources[*]}, the official Node.js $node_version and this machine's npm $npm_version"
work=$(mktemp -d /var/tmp/icefront-base.XXXXXX)
trap 'rm -rf "$work"' EXIT

q() { printf '%q' "$1"; }
# libstdc++6 and libgcc-s1: what the node binary links against besides libc (minbase has them
# through apt, named here so the image does not depend on that); ca-certificates for tools that use
# the system's store (node has its own).
mmdebstrap --quiet --mode=root --variant=minbase --format=tar \
  --include=libstdc++6,libgcc-s1,ca-certificates \
  --customize-hook="mkdir -p \"\$1/usr/local/bin\" \"\$1/usr/local/lib/node_modules\"" \
  --customize-hook="cp -p $(q "$node_bin") \"\$1/usr/local/bin/node\"" \
  --customize-hook="cp -a $(q "$npm_dir") \"\$1/usr/local/lib/node_modules/npm\"" \
  --customize-hook="ln -s ../lib/node_modules/npm/bin/npm-cli.js \"\$1/usr/local/bin/npm\"" \
  --customize-hook="ln -s ../lib/node_modules/npm/bin/npx-cli.js \"\$1/usr/local/bin/npx\"" \
  --customize-hook="chroot \"\$1\" env -i PATH=/usr/local/bin:/usr/bin:/bin HOME=/root node --version >/dev/null" \
  --customize-hook="chroot \"\$1\" env -i PATH=/usr/local/bin:/usr/bin:/bin HOME=/root npm --version >/dev/null" \
  --customize-hook="rm -rf \"\$1\"/var/cache/apt/* \"\$1\"/usr/share/doc/* \"\$1\"/usr/share/man/* \"\$1\"/usr/share/locale/*" \
  "$suite" "$work/rootfs.tar" "${sources[@]}"

podman import --quiet \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change "ENV NODE_VERSION=$node_version" \
  --change 'CMD ["node"]' \
  --change "LABEL org.opencontainers.image.description=\"Debian $suite minbase with the official Node.js $node_version (icefront tools/deploy/base-image.sh)\"" \
  "$work/rootfs.tar" "$image" >/dev/null
say "made $image"
# Older bases of this script (other hashes) are left over: remove those nothing is built on.
for old in $(podman images --format '{{.Repository}}:{{.Tag}}' "localhost/icefront-node${node_major}-base" 2>/dev/null); do
  [ "$old" = "$image" ] || podman rmi "$old" >/dev/null 2>&1 || true
done
echo "$image"
