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

. "$(dirname "${BASH_SOURCE[0]}")/lib/log.sh" crictl
. "$(dirname "${BASH_SOURCE[0]}")/lib/go-build.sh"

build_crictl() {
  local staging=$DIR/.gobin
  GOBIN=$staging go_timed "crictl $VERSION: go install" "$DIR/build.log" go install -trimpath \
    -ldflags "-s -w -X sigs.k8s.io/cri-tools/pkg/version.Version=${VERSION#v}" "sigs.k8s.io/cri-tools/cmd/crictl@$VERSION"
  mv "$staging/crictl" "$BIN"
  rmdir "$staging" 2>/dev/null || true
  go_stamp "$DIR/VERSIONS" "crictl=$VERSION"
}

cmd_build() {
  go_build_cached "$BIN" "crictl $VERSION" build_crictl
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
