#!/usr/bin/env bash
# Builds and caches crictl (kubernetes-sigs/cri-tools) from the Go module proxy, for the tests that
# point it at a simulated node's CRI socket (src/daemon/cri/grpc/crictl.test.ts).
#
#   crictl.sh build   build crictl unless cached, then print its path
#   crictl.sh path    print the cached binary's path; fail when it is not built
#
# Environment: CRICTL_VERSION (v1.34.0: builds with the local Go and speaks CRI v1),
# CRICTL_CACHE (~/.cache/kruise-ts/crictl); the binary is $CRICTL_CACHE/<version>/crictl.
set -euo pipefail

VERSION=${CRICTL_VERSION:-v1.34.0}
CACHE=${CRICTL_CACHE:-$HOME/.cache/kruise-ts/crictl}
DIR=$CACHE/$VERSION
BIN=$DIR/crictl

log() { printf '[crictl] %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

cmd_build() {
  if [ -x "$BIN" ]; then
    log "crictl $VERSION: cached"
    echo "$BIN"
    return
  fi
  command -v go >/dev/null || die "go is not on PATH"
  mkdir -p "$DIR"
  local t0 staging=$DIR/.gobin
  t0=$(date +%s)
  log "building crictl $VERSION with $(go version | cut -d' ' -f3)"
  # -mod=mod: resolve the module's own go.mod from the proxy (go install @version ignores vendor/).
  if ! GOTOOLCHAIN=local CGO_ENABLED=0 GOMAXPROCS=${GOMAXPROCS:-2} GOFLAGS="-mod=mod -buildvcs=false" GOBIN=$staging \
    nice -n 10 go install -trimpath -ldflags "-s -w -X sigs.k8s.io/cri-tools/pkg/version.Version=${VERSION#v}" \
    "sigs.k8s.io/cri-tools/cmd/crictl@$VERSION" >"$DIR/build.log" 2>&1; then
    tail -n 30 "$DIR/build.log" >&2
    die "go install failed (log: $DIR/build.log)"
  fi
  mv "$staging/crictl" "$BIN"
  rmdir "$staging" 2>/dev/null || true
  log "crictl $VERSION: built in $(( $(date +%s) - t0 )) s"
  echo "$BIN"
}

cmd_path() {
  [ -x "$BIN" ] || die "no $BIN (run: $0 build)"
  echo "$BIN"
}

case "${1:-}" in
  build) cmd_build ;;
  path) cmd_path ;;
  *) die "usage: $0 build|path" ;;
esac
