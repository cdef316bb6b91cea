#!/usr/bin/env bash
# Installs the browser the status page's test drives (test/http/ui/status-page-browser.test.ts):
# Debian's chromium, launched by playwright-core with no browser download of its own. Debian's
# release pins the series; security updates move the version, so it is printed rather than
# pinned. Needs root (or sudo); does nothing when chromium is already installed. Exit 0 when
# ready, 3 when it cannot be installed here.
set -euo pipefail
if ! [ -x /usr/bin/chromium ]; then
  sudo=""
  if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null 2>&1 || { echo "browser setup: chromium is missing and installing it needs root or sudo" >&2; exit 3; }
    sudo="sudo -n"
  fi
  log=/tmp/icefront-browser-apt.log
  echo "browser setup: installing chromium from Debian's packages"
  if ! DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends chromium >"$log" 2>&1; then
    $sudo apt-get update -q >>"$log" 2>&1 || true
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends chromium >>"$log" 2>&1 || {
      echo "browser setup: could not install chromium (see $log)" >&2
      exit 3
    }
  fi
fi
echo "browser setup: $(/usr/bin/chromium --version 2>/dev/null | head -n 1)"
