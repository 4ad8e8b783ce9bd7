#!/usr/bin/env bash
# Builds and caches Helm v3 from its Go module (helm.sh/helm/v3) through the Go module proxy, for the
# chart tests (src/e2e/install/helm-*.test.ts): helm lint/template/install against charts/kruise.
#
#   helm.sh build   build helm unless cached, then print its path
#   helm.sh path    print the cached binary's path; fail when it is not built
#
# Environment: HELM_VERSION (v3.17.3), HELM_CACHE (~/.cache/kruise-ts/helm); the binary is
# $HELM_CACHE/<version>/helm.
set -euo pipefail

VERSION=${HELM_VERSION:-v3.17.3}
CACHE=${HELM_CACHE:-$HOME/.cache/kruise-ts/helm}
DIR=$CACHE/$VERSION
BIN=$DIR/helm

. "$(dirname "${BASH_SOURCE[0]}")/lib/log.sh" helm
. "$(dirname "${BASH_SOURCE[0]}")/lib/go-build.sh"

# A wrapper module (as scripts/real-control-plane.sh does for etcd): go install @version refuses
# modules with replace directives, a wrapper resolves the same versions without them.
build_helm() {
  local work=$DIR/.build
  mkdir -p "$work" && cd "$work"
  [ -f go.mod ] || go mod init helmbuild >/dev/null 2>&1
  go_timed "helm $VERSION: go get" "$DIR/get.log" go get "helm.sh/helm/v3@$VERSION"
  go_timed "helm $VERSION: go build" "$DIR/build.log" go build -p 2 -trimpath \
    -ldflags "-s -w -X helm.sh/helm/v3/internal/version.version=$VERSION -X helm.sh/helm/v3/internal/version.gitTreeState=clean" \
    -o helm.tmp helm.sh/helm/v3/cmd/helm
  mv helm.tmp "$BIN"
  go_stamp "$DIR/VERSIONS" "helm=$VERSION"
}

cmd_build() {
  go_build_cached "$BIN" "helm $VERSION" build_helm
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
