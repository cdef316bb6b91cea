#!/usr/bin/env bash
# Installs what `npm run bench` measures against, from Debian's packages: nginx (the static
# upstream and the peer proxy) and wrk (the load generator, a process of its own). Debian's
# release pins the series (bookworm: nginx 1.22, wrk 4.1); security updates move the patch level,
# so the versions are printed rather than pinned. Needs root (or sudo); does nothing when both
# are already installed. Exit 0 when ready, 3 when a package cannot be installed here.
set -euo pipefail
need=()
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || need+=(nginx-light)
command -v wrk >/dev/null 2>&1 || need+=(wrk)
if [ ${#need[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" = 0 ] || sudo="sudo"
  echo "bench setup: installing ${need[*]} from Debian's packages"
  if ! DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${need[@]}" >/tmp/icefront-bench-apt.log 2>&1; then
    $sudo apt-get update -q >>/tmp/icefront-bench-apt.log 2>&1 || true
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${need[@]}" >>/tmp/icefront-bench-apt.log 2>&1 || {
      echo "bench setup: could not install ${need[*]} (see /tmp/icefront-bench-apt.log)" >&2
      exit 3
    }
  fi
fi
echo "bench setup: $(/usr/sbin/nginx -v 2>&1), $(wrk -v 2>&1 | head -n 1 | cut -d' ' -f1-2)"
