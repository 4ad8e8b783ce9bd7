#!/usr/bin/env bash
# Installs Debian's chromium once (apt-get, as root) for the dashboard's browser tests and benchmark
# (src/e2e/dashboard/, src/bench/dashboard.ts); playwright-core drives it by its executable path.
#
#   chromium.sh build   install unless present, then print the executable's path
#   chromium.sh path    print the path; fail when it is not installed
set -euo pipefail

. "$(dirname "${BASH_SOURCE[0]}")/lib/log.sh" chromium

find_bin() {
  for b in "${CHROMIUM_PATH:-}" /usr/bin/chromium /usr/bin/chromium-browser; do
    if [ -n "$b" ] && [ -x "$b" ]; then echo "$b"; return 0; fi
  done
  return 1
}

cmd_build() {
  if find_bin; then log "chromium: present"; return; fi
  command -v apt-get >/dev/null || die "apt-get is not available"
  [ "$(id -u)" = 0 ] || die "installing chromium needs root"
  local t0; t0=$(date +%s)
  log "installing Debian's chromium with apt-get"
  DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=900 update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=900 install -y -qq --no-install-recommends chromium fonts-dejavu-core >/dev/null
  log "chromium: installed in $(( $(date +%s) - t0 )) s"
  find_bin || die "chromium installed but not found"
}

case "${1:-build}" in
  build) cmd_build ;;
  path) find_bin || die "chromium is not installed (run scripts/chromium.sh build)" ;;
  *) die "usage: chromium.sh build|path" ;;
esac
