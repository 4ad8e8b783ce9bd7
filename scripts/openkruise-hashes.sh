#!/usr/bin/env bash
# Builds (cached) and runs hack/openkruise-hashes: the revision hashes OpenKruise computes for a pod
# template given as JSON on stdin, to check takeover fixtures against Go (docs/design/takeover.md §2).
#
#   openkruise-hashes.sh < template.json
#
# Environment: KRUISE_OK_HASHES_CACHE (~/.cache/kruise-ts/openkruise-hashes).
set -euo pipefail
SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/../hack/openkruise-hashes" && pwd)
CACHE=${KRUISE_OK_HASHES_CACHE:-$HOME/.cache/kruise-ts/openkruise-hashes}
KEY=$(cat "$SRC"/main.go "$SRC"/go.mod | sha256sum | cut -c1-16)
BIN=$CACHE/okhash-$KEY
if [ ! -x "$BIN" ]; then
  command -v go >/dev/null || { echo "[openkruise-hashes] no Go toolchain" >&2; exit 2; }
  mkdir -p "$CACHE"
  echo "[openkruise-hashes] building (k8s.io/api, go-spew from the Go module proxy)" >&2
  (cd "$SRC" && GOTOOLCHAIN=local CGO_ENABLED=0 GOFLAGS="-mod=mod -buildvcs=false" go build -o "$BIN.tmp" .) && mv "$BIN.tmp" "$BIN"
fi
exec "$BIN"
