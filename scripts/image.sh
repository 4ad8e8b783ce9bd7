#!/usr/bin/env bash
# Builds the kruise-ts container image without a Docker daemon: a Debian root filesystem made from
# Debian's packages by mmdebstrap, the machine's Node.js binary, and the built project, assembled into an
# OCI image layout by umoci. Doc: docs/design/image.md.
#
#   image.sh build     build (or reuse) the image; prints the layout path and the image size
#   image.sh tools     exit 0 when mmdebstrap and umoci are on PATH (build installs them with apt-get)
#   image.sh path      print the OCI layout directory (<cache>/<version>/oci, tag <version>)
#   image.sh status    what is cached
#
# Environment: KRUISE_IMAGE_CACHE (~/.cache/kruise-ts/image), KRUISE_IMAGE_SUITE (bookworm),
# KRUISE_IMAGE_MIRROR (the first deb.debian.org-style URI of /etc/apt, else http://deb.debian.org/debian),
# KRUISE_IMAGE_NODE (the node binary to copy, default: the one on PATH).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
VERSION=$(node -p "require('$ROOT/package.json').version")
NAME=kruise-ts/kruise
CACHE=${KRUISE_IMAGE_CACHE:-$HOME/.cache/kruise-ts/image}
SUITE=${KRUISE_IMAGE_SUITE:-bookworm}
NODE_BIN=$(readlink -f "${KRUISE_IMAGE_NODE:-$(command -v node)}")
# libc, libstdc++ and libgcc are what the node binary links; coreutils gives /usr/bin/env for the
# `#!/usr/bin/env node` line of bin/kruise.js, dash a shell for `kubectl exec` debugging.
PACKAGES=libc6,libstdc++6,libgcc-s1,coreutils,dash
OUT=$CACHE/$VERSION
LAYOUT=$OUT/oci
# Fixed timestamps make the layers depend only on their contents.
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-1700000000}

. "$(dirname "${BASH_SOURCE[0]}")/lib/log.sh" image
have_tools() { command -v mmdebstrap >/dev/null && command -v umoci >/dev/null; }

ensure_tools() {
  have_tools && return 0
  [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null || die "mmdebstrap/umoci missing and cannot apt-get them"
  log "installing mmdebstrap and umoci with apt-get"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q mmdebstrap umoci >"$CACHE/apt.log" 2>&1 ||
    { apt-get update -q >>"$CACHE/apt.log" 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q mmdebstrap umoci >>"$CACHE/apt.log" 2>&1; } ||
    die "apt-get install failed (log: $CACHE/apt.log)"
}

mirror() {
  [ -n "${KRUISE_IMAGE_MIRROR:-}" ] && { echo "$KRUISE_IMAGE_MIRROR"; return; }
  local m; m=$(grep -rhoE '^(URIs:|deb) *https?://[^ ]+/debian/?( |$)' /etc/apt/sources.list /etc/apt/sources.list.d 2>/dev/null | head -n1 | awk '{print $2}')
  echo "${m:-http://deb.debian.org/debian}"
}

# The Debian layer: packages + node + the unprivileged user, cached by its inputs.
build_base() {
  local key; key=$(printf '%s\n' "$SUITE" "$PACKAGES" "$(sha256sum "$NODE_BIN" | cut -c1-16)" 3 | sha256sum | cut -c1-16)
  BASE=$CACHE/base-$key
  if [ -d "$BASE/rootfs/usr" ]; then log "base layer: cached ($BASE)"; return; fi
  rm -rf "$BASE" && mkdir -p "$BASE"
  local t0; t0=$(date +%s)
  # extract: unpack the packages without maintainer scripts (no shell needed at build time).
  mmdebstrap --variant=extract --include="$PACKAGES" --mode=root --format=directory \
    "$SUITE" "$BASE/rootfs.tmp" "$(mirror)" >"$BASE/mmdebstrap.log" 2>&1 ||
    { tail -n 20 "$BASE/mmdebstrap.log" >&2; die "mmdebstrap failed (log: $BASE/mmdebstrap.log)"; }
  local r=$BASE/rootfs.tmp
  # docs and translations are dead weight; /dev is the runtime's to populate.
  rm -rf "$r"/usr/share/{doc,man,info,locale} "$r"/var/lib/apt/lists/* "$r"/var/cache/apt/* "$r"/dev/*
  install -D -m 0755 "$NODE_BIN" "$r/usr/local/bin/node"
  ln -sf dash "$r/bin/sh"
  printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n' >"$r/etc/passwd"
  printf 'root:x:0:\nnogroup:x:65534:\n' >"$r/etc/group"
  mkdir -p "$r/tmp" && chmod 1777 "$r/tmp"
  mv "$r" "$BASE/rootfs"
  log "base layer: built in $(( $(date +%s) - t0 )) s ($(du -sh "$BASE/rootfs" | cut -f1))"
}

# The project layer: dist (without tests), bin, package.json and production node_modules.
stage_app() {
  APP=$OUT/app
  rm -rf "$APP" && mkdir -p "$APP/app"
  [ -f "$ROOT/dist/cmd/cli.js" ] || die "no dist/ (run: npm run build)"
  (cd "$ROOT" && tar -cf - --exclude='*.test.js' --exclude='*.test.d.ts' --exclude='dist/e2e' --exclude='dist/bench' \
    dist bin package.json package-lock.json node_modules src/daemon/cri/grpc/api.proto) | tar -xf - -C "$APP/app"
  (cd "$APP/app" && npm prune --omit=dev --offline --no-audit --no-fund >"$OUT/prune.log" 2>&1) ||
    die "npm prune failed (log: $OUT/prune.log)"
  mkdir -p "$APP/usr/local/bin" && ln -sf /app/bin/kruise.js "$APP/usr/local/bin/kruise"
  APP_KEY=$(tar -C "$APP" --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner -cf - . | sha256sum | cut -c1-16)
}

cmd_build() {
  mkdir -p "$CACHE" "$OUT"
  ensure_tools
  local t0; t0=$(date +%s)
  build_base
  stage_app
  local key="$(basename "$BASE") $APP_KEY"
  if [ -f "$OUT/key" ] && [ "$(cat "$OUT/key")" = "$key" ] && [ -f "$LAYOUT/index.json" ]; then
    log "image $NAME:$VERSION: cached ($LAYOUT)"; rm -rf "$APP"; echo "$LAYOUT"; return
  fi
  rm -rf "$LAYOUT" "$OUT/key"
  umoci init --layout "$LAYOUT"
  umoci new --image "$LAYOUT:$VERSION"
  umoci insert --rootless --image "$LAYOUT:$VERSION" --history.created_by 'mmdebstrap + node' "$BASE/rootfs" /
  umoci insert --rootless --image "$LAYOUT:$VERSION" --history.created_by 'kruise-ts dist + production node_modules' "$APP" /
  umoci config --image "$LAYOUT:$VERSION" --config.user 65534:65534 --config.workingdir /app \
    --config.entrypoint kruise --config.env PATH=/usr/local/bin:/usr/bin:/bin --config.env NODE_ENV=production \
    --config.label "org.opencontainers.image.title=kruise-ts" --config.label "org.opencontainers.image.version=$VERSION" \
    --manifest.annotation "org.opencontainers.image.ref.name=$NAME:$VERSION" --history.created_by 'kruise-ts config'
  umoci gc --layout "$LAYOUT"
  # docker/containerd name an image loaded from an OCI archive after this index annotation.
  node -e 'const f=process.argv[1], i=JSON.parse(require("fs").readFileSync(f));
    i.manifests[0].annotations["io.containerd.image.name"]="docker.io/"+process.argv[2];
    require("fs").writeFileSync(f, JSON.stringify(i))' "$LAYOUT/index.json" "$NAME:$VERSION"
  rm -rf "$APP"
  (cd "$LAYOUT" && tar -cf "$OUT/kruise-ts-kruise-$VERSION.oci.tar" .)
  echo "$key" >"$OUT/key"
  log "image $NAME:$VERSION built in $(( $(date +%s) - t0 )) s: layout $LAYOUT ($(du -sh "$LAYOUT" | cut -f1) compressed), archive $OUT/kruise-ts-kruise-$VERSION.oci.tar"
  echo "$LAYOUT"
}

cmd_status() {
  for b in "$CACHE"/base-*; do [ -d "$b/rootfs" ] && log "base: $b ($(du -sh "$b/rootfs" | cut -f1))"; done
  [ -f "$LAYOUT/index.json" ] && log "image: $LAYOUT:$VERSION ($(du -sh "$LAYOUT" | cut -f1))" || log "image: not built"
  have_tools && log "tools: mmdebstrap and umoci present" || log "tools: missing (build installs them)"
}

case "${1:-}" in
  build) cmd_build ;;
  tools) have_tools ;;
  path) echo "$LAYOUT" ;;
  status) cmd_status ;;
  *) die "usage: $0 build|tools|path|status" ;;
esac
