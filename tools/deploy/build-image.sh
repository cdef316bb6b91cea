#!/usr/bin/env bash
# Builds the repository's Dockerfile with podman on a machine that cannot pull from a container
# registry: the base image is made here (tools/deploy/base-image.sh: Debian from this machine's apt
# sources plus this machine's Node.js), then
#   podman build --format docker --build-arg NODE_IMAGE=<that base> -t TAG .
# Prints TAG (default icefront:test) as its last line on stdout; progress goes to stderr.
#
#   bash tools/deploy/build-image.sh [TAG]     build (podman's layer cache makes a rebuild quick)
#   bash tools/deploy/build-image.sh --run-flags
#       the flags `podman run` (and `podman build`) need on this machine, one per line (see below)
#   bash tools/deploy/build-image.sh --install
#       only install what is missing (podman, mmdebstrap, runc) with apt-get
#
# Needs root: apt-get, mmdebstrap's root mode, rootful podman. Idempotent: installs only what is
# missing, makes the base image only when it is not there yet.
#
# What this machine needed, found by probing (each candidate runs `true` in the base image; the
# first that works is used, so a machine that needs none of it gets none of it):
#  - `--ulimit nofile=…,nproc=…` at the limits this process already has: rootful podman otherwise
#    asks the runtime for 1048576 open files and processes, which fails without CAP_SYS_RESOURCE
#    ("setrlimit RLIMIT_NOFILE: Operation not permitted"); the process limit conmon passes on is
#    at most kernel.pid_max.
#  - `--runtime=runc`: crun 1.8 refuses a cgroup v1/v2 hybrid host whose v2 hierarchy has a
#    controller ("cgroups in hybrid mode not supported"); runc runs there.
# Podman's defaults otherwise work here: overlay storage, cgroupfs, the CNI bridge network (a
# published port and the build's network access to the npm registry).
#
# npm inside the build reaches the registry the way this machine does. When this machine's npm
# trusts an extra CA bundle (npm's `cafile`, or NODE_EXTRA_CA_CERTS: a TLS-inspecting proxy), it
# is handed to the build as the secret `ca-certificates` (the Dockerfile's npm steps use it; it
# stays out of the image's layers).
set -euo pipefail
unset NODE_OPTIONS   # a test runner's hooks (NODE_OPTIONS=--import=…) are not for the tools run here

say() { echo "tools/deploy/build-image.sh: $*" >&2; }
die() { say "$*"; exit 1; }

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)

install_tools() {
  local missing=()
  command -v podman >/dev/null 2>&1 || missing+=(podman)
  command -v mmdebstrap >/dev/null 2>&1 || missing+=(mmdebstrap)
  command -v runc >/dev/null 2>&1 || missing+=(runc)
  [ "${#missing[@]}" -eq 0 ] && return 0
  [ "$(id -u)" -eq 0 ] || die "missing ${missing[*]}, and not root to install them with apt-get"
  command -v apt-get >/dev/null 2>&1 || die "missing ${missing[*]}, and there is no apt-get to install them"
  say "installing ${missing[*]} with apt-get (once)"
  export DEBIAN_FRONTEND=noninteractive
  # Package lists first when apt does not know a package (a fresh machine, lists never fetched).
  local p
  for p in "${missing[@]}"; do
    apt-cache show "$p" >/dev/null 2>&1 || { apt-get update -qq >&2; break; }
  done
  if ! apt-get install -y -qq --no-install-recommends "${missing[@]}" >/tmp/icefront-apt-install.log 2>&1; then
    apt-get update -qq >&2
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/tmp/icefront-apt-install.log 2>&1 \
      || { tail -n 20 /tmp/icefront-apt-install.log >&2; die "apt-get install ${missing[*]} failed (log: /tmp/icefront-apt-install.log)"; }
  fi
}

# The flags podman needs here, one per line, probed with the base image (see the header).
run_flags() {
  local base=$1 hn hu pidmax nproc
  hn=$(ulimit -Hn); hu=$(ulimit -Hu)
  pidmax=$(cat /proc/sys/kernel/pid_max 2>/dev/null || echo 32768)
  [ "$hn" = unlimited ] && hn=1048576
  [ "$hu" = unlimited ] && hu=$pidmax
  nproc=$(( hu < pidmax ? hu : pidmax ))
  local -a limits=("" "--ulimit=nofile=$hn:$hn --ulimit=nproc=$hu:$hu" "--ulimit=nofile=$hn:$hn --ulimit=nproc=$nproc:$nproc")
  local -a runtimes=("")
  command -v runc >/dev/null 2>&1 && runtimes+=("--runtime=runc")
  local rt lim errors=""
  for rt in "${runtimes[@]}"; do
    for lim in "${limits[@]}"; do
      # shellcheck disable=SC2086 # the flags are words
      if out=$(podman run --rm $rt $lim "$base" true 2>&1); then
        for f in $rt $lim; do echo "$f"; done
        return 0
      fi
      errors+="  podman run ${rt:+$rt }${lim:+$lim }$base true: $(tail -n 1 <<<"$out")"$'\n'
    done
  done
  die "podman cannot run a container here; tried:"$'\n'"$errors"
}

ca_bundle() {
  local f
  f=$(npm config get cafile 2>/dev/null || true)
  if [ -n "$f" ] && [ "$f" != null ] && [ "$f" != undefined ] && [ -s "$f" ]; then echo "$f"; return; fi
  if [ -n "${NODE_EXTRA_CA_CERTS:-}" ] && [ -s "$NODE_EXTRA_CA_CERTS" ]; then echo "$NODE_EXTRA_CA_CERTS"; return; fi
}

mode=build
tag=icefront:test
case "${1:-}" in
  --install) mode=install ;;
  --run-flags) mode=flags ;;
  -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
  -*) die "unknown option $1 (--install, --run-flags, or a tag)" ;;
  "") ;;
  *) tag=$1 ;;
esac

install_tools
[ "$mode" = install ] && exit 0
[ "$(id -u)" -eq 0 ] || die "run as root (rootful podman, mmdebstrap's root mode)"

base=$(bash "$here/base-image.sh")
flag_lines=$(run_flags "$base")
mapfile -t flags <<<"$flag_lines"
[ -n "$flag_lines" ] || flags=()
if [ "$mode" = flags ]; then
  printf '%s\n' "${flags[@]}"
  exit 0
fi

secret=()
ca=$(ca_bundle)
[ -n "$ca" ] && secret=(--secret "id=ca-certificates,src=$ca")

# One build of the repository at a time (the tests build it from parallel processes).
exec 8>"/tmp/icefront-image-build.lock"
flock 8
say "podman build --format docker --build-arg NODE_IMAGE=$base ${flags[*]} ${secret[*]} -t $tag $repo"
log=$(mktemp /tmp/icefront-image-build.XXXXXX.log)
if ! podman build --format docker --build-arg "NODE_IMAGE=$base" "${flags[@]}" "${secret[@]}" -t "$tag" "$repo" >"$log" 2>&1; then
  tail -n 40 "$log" >&2
  die "podman build failed (whole log: $log)"
fi
rm -f "$log"
echo "$tag"
