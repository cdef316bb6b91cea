#!/usr/bin/env bash
# Installs PostgreSQL's server binaries for the `sql` catalog tests on PostgreSQL
# (test/helpers/postgres.ts runs a throwaway cluster from /usr/lib/postgresql/<major>/bin;
# test/interop/own-catalog-writes.test.ts's `pg` catalog): Debian's `postgresql` package. Debian's
# release pins the major (15 on bookworm); security updates move the minor, so it is printed
# rather than pinned. Only the binaries are used (the tests start clusters of their own, as the
# `postgres` user when run as root). Needs root (or sudo); does nothing when
# /usr/lib/postgresql/*/bin/initdb is there. Exit 0 when ready, 3 when it cannot be installed here.
set -euo pipefail
have() { compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null; }
if ! have; then
  sudo=""
  if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null 2>&1 || { echo "postgres setup: PostgreSQL is missing and installing it needs root or sudo (Debian package postgresql)" >&2; exit 3; }
    sudo="sudo -n"
  fi
  log=/tmp/icefront-postgres-apt.log
  echo "postgres setup: installing Debian's postgresql package"
  install() { DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends postgresql; }
  if ! install >"$log" 2>&1; then
    $sudo apt-get update -q >>"$log" 2>&1 || true
    install >>"$log" 2>&1 || {
      echo "postgres setup: could not install Debian's postgresql package (see $log)" >&2
      exit 3
    }
  fi
  have || { echo "postgres setup: postgresql installed but no /usr/lib/postgresql/*/bin/initdb (see $log)" >&2; exit 3; }
fi
bin=$(compgen -G '/usr/lib/postgresql/*/bin/initdb' | sort -V | tail -n 1)
echo "postgres setup: $("$(dirname "$bin")/postgres" --version)"
