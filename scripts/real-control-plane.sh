#!/usr/bin/env bash
# Builds, caches, starts and stops a real Kubernetes control plane (etcd, kube-apiserver,
# kube-controller-manager) on 127.0.0.1, for differential tests against the embedded server.
#
#   real-control-plane.sh build          build (or reuse) the binaries under $K8S_REAL_CACHE/<version>/bin
#   real-control-plane.sh start <dir>    PKI + etcd + kube-apiserver + KCM; writes <dir>/kubeconfig, pids, logs
#   real-control-plane.sh stop <dir>     SIGTERM the recorded pids in reverse order, remove the data
#   real-control-plane.sh status [<dir>] what is cached; with <dir>, which processes run and /readyz
#
# Environment: K8S_REAL_VERSION (v1.32.13), K8S_REAL_ETCD_VERSION (v3.5.16), K8S_REAL_CACHE
# (~/.cache/k8s-real), K8S_REAL_BIN_DIR (use these binaries instead of the cache), K8S_REAL_BUILD_P (go build -p,
# 2), K8S_REAL_NO_KCM=1 (start without kube-controller-manager), K8S_REAL_DURABLE=1 (etcd's data under <dir> on
# disk, fsync on: for benchmarks against a store that syncs), K8S_REAL_PARENT_PID (stop when it exits),
# K8S_REAL_START_TIMEOUT (seconds to /readyz, 90). Doc: docs/real-control-plane.md.
set -euo pipefail

KV=${K8S_REAL_VERSION:-v1.32.13}
EV=${K8S_REAL_ETCD_VERSION:-v3.5.16}
CACHE=${K8S_REAL_CACHE:-$HOME/.cache/k8s-real}
BIN_DIR=${K8S_REAL_BIN_DIR:-$CACHE/$KV/bin}
SELF=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/$(basename "${BASH_SOURCE[0]}")

. "$(dirname "${BASH_SOURCE[0]}")/lib/log.sh" real-control-plane
now() { date +%s; }
ms() { echo $(( $(date +%s%N) / 1000000 )); }
secs() { printf '%d.%d' $(( $1 / 1000 )) $(( $1 % 1000 / 100 )); }

# ---------------------------------------------------------------------------------------------- build
. "$(dirname "${BASH_SOURCE[0]}")/lib/go-build.sh"

build_etcd() {
  local w=$CACHE/etcd-$EV
  cd "$w"
  [ -f go.mod ] || go mod init etcdbuild >/dev/null 2>&1
  go_timed "etcd $EV: go get" "$w/get.log" go get "go.etcd.io/etcd/server/v3@$EV"
  go_timed "etcd $EV: go build" "$w/build.log" go build -p "${K8S_REAL_BUILD_P:-2}" -trimpath -ldflags "-s -w" \
    -o bin/etcd.tmp go.etcd.io/etcd/server/v3
  mv bin/etcd.tmp bin/etcd
}

k8s_wrapper() {
  local w=$CACHE/$KV sv=v0.${KV#v1.}
  mkdir -p "$w/bin" && cd "$w"
  if [ ! -f go.mod ]; then
    go mod init k8sbuild >/dev/null 2>&1
    go mod edit -godebug=default=go1.23   # same GODEBUG defaults as upstream 1.32 builds
  fi
  if ! grep -q '=> k8s.io/' go.mod; then
    # Every staging module is required at v0.0.0 upstream; point each at its published twin.
    local mod; mod=$(go mod download -json "k8s.io/kubernetes@$KV" | sed -n 's/.*"GoMod": "\(.*\)".*/\1/p')
    for m in $(awk '$1 ~ /^k8s\.io\// && $2 == "v0.0.0" {print $1}' "$mod"); do
      go mod edit "-replace=$m=$m@$sv"
    done
    local n; n=$(grep -c '=> k8s.io/' go.mod || true)
    [ "$n" -ge 20 ] || die "only $n staging replaces derived from $mod"
    log "kubernetes $KV: $n staging modules replaced by $sv"
  fi
  grep -q "k8s.io/kubernetes $KV" go.mod || go_timed "kubernetes $KV: go get" "$w/get.log" go get "k8s.io/kubernetes@$KV"
}

# Staging modules the Go module proxy reachable here refuses at the release's own version ("403 This module
# version is not available"), with the nearest patch it does serve. Applied only when $sv really fails, so a
# full proxy gets a pure build. Override with K8S_REAL_MODULE_PINS="k8s.io/x@vX ...".
default_pins() {
  case $KV in
    v1.32.13) echo "k8s.io/cri-client@v0.32.10 k8s.io/csi-translation-lib@v0.32.10 k8s.io/kube-scheduler@v0.32.10" \
      "k8s.io/endpointslice@v0.32.2 k8s.io/kube-controller-manager@v0.32.2" ;;
  esac
}

apply_pins() {
  local sv=v0.${KV#v1.} pin m v
  for pin in ${K8S_REAL_MODULE_PINS:-$(default_pins)}; do
    m=${pin%@*} v=${pin#*@}
    grep -q "^replace $m => $m $v\$" go.mod && continue
    go mod download "$m@$sv" >/dev/null 2>&1 && continue
    go mod edit "-replace=$m=$m@$v"
    log "pinned $m to $v (the proxy does not serve $m@$sv)"
  done
}

# build_k8s_binary <component>: one command of k8s.io/kubernetes, built in the wrapper module.
build_k8s_binary() {
  local c=$1 w=$CACHE/$KV minor=${KV#v1.}; minor=${minor%%.*}
  k8s_wrapper
  apply_pins
  local ld="-s -w -X k8s.io/component-base/version.gitVersion=$KV -X k8s.io/component-base/version.gitMajor=1"
  ld="$ld -X k8s.io/component-base/version.gitMinor=$minor -X k8s.io/component-base/version.gitTreeState=clean"
  ld="$ld -X k8s.io/client-go/pkg/version.gitVersion=$KV -X k8s.io/client-go/pkg/version.gitMajor=1"
  ld="$ld -X k8s.io/client-go/pkg/version.gitMinor=$minor"
  # No commit hash reaches us through the proxy; the release tag's time stands in for the build date.
  local date; date=$(go list -m -json k8s.io/kubernetes | sed -n 's/.*"Time": "\(.*\)".*/\1/p')
  [ -z "$date" ] || ld="$ld -X k8s.io/component-base/version.buildDate=$date -X k8s.io/client-go/pkg/version.buildDate=$date"
  go_timed "$c $KV: go build" "$w/build-$c.log" go build -p "${K8S_REAL_BUILD_P:-2}" -trimpath -ldflags "$ld" \
    -o "bin/$c.tmp" "k8s.io/kubernetes/cmd/$c"
  mv "bin/$c.tmp" "bin/$c"
}

cmd_build() {
  go_env
  local t0 c pins; t0=$(now)
  log "building (or reusing) kubernetes $KV + etcd $EV into $CACHE/$KV/bin with $(go env GOVERSION)"
  go_build_cached "$CACHE/etcd-$EV/bin/etcd" "etcd $EV" build_etcd
  mkdir -p "$CACHE/$KV/bin"
  cmp -s "$CACHE/etcd-$EV/bin/etcd" "$CACHE/$KV/bin/etcd" || cp -f "$CACHE/etcd-$EV/bin/etcd" "$CACHE/$KV/bin/etcd"
  for c in kube-apiserver kube-controller-manager; do
    go_build_cached "$CACHE/$KV/bin/$c" "$c $KV" build_k8s_binary "$c"
  done
  # The staging modules pinned away from the release's own version (apply_pins), one line each.
  mapfile -t pins < <(sed -n "s/^replace \(k8s.io\/[^ ]*\) => [^ ]* \(.*\)/pin \1=\2/p" "$CACHE/$KV/go.mod" 2>/dev/null |
    grep -v "=v0.${KV#v1.}\$" || true)
  go_stamp "$CACHE/$KV/bin/VERSIONS" "kubernetes=$KV" "etcd=$EV" "${pins[@]}"
  log "done in $(( $(now) - t0 )) s; binaries: $(du -sh "$CACHE/$KV/bin" | cut -f1) in $CACHE/$KV/bin"
}

# ---------------------------------------------------------------------------------------------- start
etcd_binary() {
  if [ -x "$BIN_DIR/etcd" ]; then echo "$BIN_DIR/etcd"; else command -v etcd || die "no etcd in $BIN_DIR or on PATH"; fi
}

# free_ports N: N distinct free loopback ports (held open together so they differ).
free_ports() {
  node -e '
    const net = require("net"); const n = +process.argv[1]; const servers = [];
    const next = () => { if (servers.length === n) { console.log(servers.map((s) => s.address().port).join(" ")); servers.forEach((s) => s.close()); return; }
      const s = net.createServer(); s.listen(0, "127.0.0.1", () => { servers.push(s); next(); }); };
    next();' "$1"
}

# Throw-away PKI: CA, serving cert for 127.0.0.1, admin client cert (system:masters), SA key pair, token.
gen_pki() {
  local p=$1 ec=(-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes)
  mkdir -p "$p" && cd "$p"
  { openssl req -x509 "${ec[@]}" -days 30 -subj /CN=k8s-real-ca -keyout ca.key -out ca.crt \
      -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign,cRLSign,digitalSignature
    openssl req "${ec[@]}" -subj /CN=kube-apiserver -keyout apiserver.key -out apiserver.csr
    printf 'subjectAltName=IP:127.0.0.1,DNS:localhost,DNS:kubernetes,DNS:kubernetes.default.svc\nextendedKeyUsage=serverAuth\n' >server.ext
    openssl x509 -req -in apiserver.csr -CA ca.crt -CAkey ca.key -CAcreateserial -days 30 -extfile server.ext -out apiserver.crt
    openssl req "${ec[@]}" -subj "/O=system:masters/CN=admin" -keyout admin.key -out admin.csr
    printf 'extendedKeyUsage=clientAuth\n' >client.ext
    openssl x509 -req -in admin.csr -CA ca.crt -CAkey ca.key -CAcreateserial -days 30 -extfile client.ext -out admin.crt
    openssl ecparam -name prime256v1 -genkey -noout -out sa.key
    openssl ec -in sa.key -pubout -out sa.pub
  } >openssl.log 2>&1 || { cat openssl.log >&2; die "openssl failed"; }
  openssl rand -hex 24 >token
  printf '%s,admin,admin-uid,"system:masters"\n' "$(cat token)" >tokens.csv
}

b64() { base64 -w0 <"$1"; }

# write_kubeconfig <file> <url> <pki>: token user first (the current context), admin cert user second.
write_kubeconfig() {
  local p=$3
  cat >"$1" <<YAML
apiVersion: v1
kind: Config
clusters:
- name: real
  cluster:
    server: $2
    certificate-authority-data: $(b64 "$p/ca.crt")
users:
- name: admin
  user:
    token: $(cat "$p/token")
- name: admin-cert
  user:
    client-certificate-data: $(b64 "$p/admin.crt")
    client-key-data: $(b64 "$p/admin.key")
contexts:
- name: real
  context: {cluster: real, user: admin}
- name: real-cert
  context: {cluster: real, user: admin-cert}
current-context: real
YAML
  chmod 600 "$1"
}

# launch <dir> <name> cmd...: background process with its own log, recorded in <dir>/pids.
launch() {
  local dir=$1 name=$2; shift 2
  nohup "$@" >"$dir/logs/$name.log" 2>&1 </dev/null &
  echo "$name $!" >>"$dir/pids"
}

pid_of() { awk -v n="$2" '$1 == n {print $2}' "$1/pids"; }

# wait_for <dir> <name> <timeout-s> cmd...: polls cmd until it succeeds; fails early if <name> exited.
wait_for() {
  local dir=$1 name=$2 deadline=$(( $(now) + $3 )); shift 3
  until "$@" >/dev/null 2>&1; do
    kill -0 "$(pid_of "$dir" "$name")" 2>/dev/null || { tail -n 30 "$dir/logs/$name.log" >&2; die "$name exited"; }
    [ "$(now)" -lt "$deadline" ] || { tail -n 30 "$dir/logs/$name.log" >&2; die "$name not ready in time"; }
    sleep 0.2
  done
}

api_ok() { # api_ok <dir> <path>: 200 from the apiserver as admin
  [ "$(curl -sS -o /dev/null -w '%{http_code}' --cacert "$1/pki/ca.crt" -H "Authorization: Bearer $(cat "$1/pki/token")" \
    "$(cat "$1/url")$2")" = 200 ]
}

start_etcd() {
  local dir=$1 data=$2 cp=$3 pp=$4 etcd; etcd=$(etcd_binary)
  local extra=()
  [ "${K8S_REAL_DURABLE:-}" = 1 ] || { "$etcd" --help 2>&1 | grep -q -- --unsafe-no-fsync && extra+=(--unsafe-no-fsync=true); }
  launch "$dir" etcd "$etcd" --name=n0 --data-dir="$data/etcd" --log-level=warn \
    --listen-client-urls="http://127.0.0.1:$cp" --advertise-client-urls="http://127.0.0.1:$cp" \
    --listen-peer-urls="http://127.0.0.1:$pp" --initial-advertise-peer-urls="http://127.0.0.1:$pp" \
    --initial-cluster="n0=http://127.0.0.1:$pp" --experimental-watch-progress-notify-interval=5s "${extra[@]}"
  wait_for "$dir" etcd 30 sh -c "curl -sf http://127.0.0.1:$cp/health | grep -q true"
}

start_apiserver() {
  local dir=$1 port=$2 ep=$3 p=$1/pki extra=()
  [ "${K8S_REAL_NO_KCM:-}" = 1 ] && extra+=(--disable-admission-plugins=ServiceAccount)
  # shellcheck disable=SC2206 # extra flags are whitespace-separated on purpose
  extra+=(${K8S_REAL_APISERVER_ARGS:-})
  launch "$dir" kube-apiserver "$BIN_DIR/kube-apiserver" --etcd-servers="http://127.0.0.1:$ep" \
    --bind-address=127.0.0.1 --advertise-address=127.0.0.1 --secure-port="$port" \
    --tls-cert-file="$p/apiserver.crt" --tls-private-key-file="$p/apiserver.key" --client-ca-file="$p/ca.crt" \
    --token-auth-file="$p/tokens.csv" --service-account-issuer=https://kubernetes.default.svc.cluster.local \
    --service-account-key-file="$p/sa.pub" --service-account-signing-key-file="$p/sa.key" \
    --service-cluster-ip-range=10.0.0.0/24 --allow-privileged=true --authorization-mode="${K8S_REAL_AUTHZ_MODE:-RBAC}" \
    --endpoint-reconciler-type=none --enable-priority-and-fairness=false --cert-dir="$dir/certs" \
    --profiling=false --v=1 "${extra[@]}"
  wait_for "$dir" kube-apiserver "${K8S_REAL_START_TIMEOUT:-90}" api_ok "$dir" /readyz
}

start_kcm() {
  local dir=$1 port=$2 p=$1/pki
  write_kubeconfig "$dir/kcm.kubeconfig" "$(cat "$dir/url")" "$p"
  sed -i 's/^current-context: real$/current-context: real-cert/' "$dir/kcm.kubeconfig"
  # shellcheck disable=SC2206
  local extra=(${K8S_REAL_KCM_ARGS:-})
  launch "$dir" kube-controller-manager "$BIN_DIR/kube-controller-manager" --kubeconfig="$dir/kcm.kubeconfig" \
    --bind-address=127.0.0.1 --secure-port="$port" --cert-dir="$dir/certs/kcm" --leader-elect=false \
    --service-account-private-key-file="$p/sa.key" --root-ca-file="$p/ca.crt" \
    --use-service-account-credentials=false --profiling=false --v=1 "${extra[@]}"
  # The default ServiceAccount appears once the controllers run (namespace deletion needs them too).
  wait_for "$dir" kube-controller-manager 60 api_ok "$dir" /api/v1/namespaces/default/serviceaccounts/default
}

cmd_start() {
  local dir=${1:?usage: start <dir>}
  mkdir -p "$dir" && dir=$(cd "$dir" && pwd)
  [ -s "$dir/pids" ] && die "$dir already has a running control plane (stop it first)"
  local need=(kube-apiserver); [ "${K8S_REAL_NO_KCM:-}" = 1 ] || need+=(kube-controller-manager)
  for b in "${need[@]}"; do [ -x "$BIN_DIR/$b" ] || die "no $BIN_DIR/$b (run: $0 build)"; done
  local t0; t0=$(ms)
  mkdir -p "$dir/logs" && : >"$dir/pids"
  START_DIR=$dir
  trap 'on_start_exit $?' EXIT
  local data; if [ -w /dev/shm ] && [ "${K8S_REAL_DURABLE:-}" != 1 ]; then data=$(mktemp -d /dev/shm/k8s-real.XXXXXX); else data=$dir/data; mkdir -p "$data"; fi
  echo "$data" >"$dir/data-dir"
  gen_pki "$dir/pki"
  local ports; read -r -a ports <<<"$(free_ports 4)"
  echo "https://127.0.0.1:${ports[2]}" >"$dir/url"
  start_etcd "$dir" "$data" "${ports[0]}" "${ports[1]}"
  start_apiserver "$dir" "${ports[2]}" "${ports[0]}"
  local ready=$(( $(ms) - t0 ))
  write_kubeconfig "$dir/kubeconfig" "$(cat "$dir/url")" "$dir/pki"
  [ "${K8S_REAL_NO_KCM:-}" = 1 ] || start_kcm "$dir" "${ports[3]}"
  START_DIR=
  if [ -n "${K8S_REAL_PARENT_PID:-}" ]; then
    nohup "$SELF" _watchdog "$dir" "$K8S_REAL_PARENT_PID" >"$dir/logs/watchdog.log" 2>&1 </dev/null &
    echo $! >"$dir/watchdog.pid"
  fi
  printf 'readyz_ms=%d\nall_ms=%d\n' "$ready" "$(( $(ms) - t0 ))" >"$dir/startup-ms"
  log "up: $(cat "$dir/url") (readyz after $(secs "$ready") s, all after $(secs "$(( $(ms) - t0 ))") s); kubeconfig $dir/kubeconfig"
}

# A failed start leaves nothing running.
on_start_exit() {
  [ "$1" != 0 ] && [ -n "${START_DIR:-}" ] || return 0
  log "start failed; stopping what was started (logs in $START_DIR/logs)"
  cmd_stop "$START_DIR" || true
}

# ---------------------------------------------------------------------------------------------- stop
# Signals only pids recorded in <dir>/pids whose command line still names the binary we started.
ours() { kill -0 "$2" 2>/dev/null && tr '\0' ' ' <"/proc/$2/cmdline" 2>/dev/null | grep -q -- "$1"; }

# stop_all name pid [name pid ...]: SIGTERM each in the order given, then wait for all (SIGKILL after 15 s).
stop_all() {
  local args=("$@") i t
  for (( i = 0; i < ${#args[@]}; i += 2 )); do ours "${args[i]}" "${args[i+1]}" && kill -TERM "${args[i+1]}" 2>/dev/null; done
  for (( i = 0; i < ${#args[@]}; i += 2 )); do
    for t in $(seq 1 75); do kill -0 "${args[i+1]}" 2>/dev/null || continue 2; sleep 0.2; done
    ours "${args[i]}" "${args[i+1]}" || continue
    log "${args[i]} (${args[i+1]}) ignored SIGTERM for 15 s; SIGKILL"
    kill -KILL "${args[i+1]}" 2>/dev/null || true
  done
}

cmd_stop() {
  local dir=${1:?usage: stop <dir>} name pid
  [ -d "$dir" ] || die "no such dir: $dir"
  if [ -s "$dir/watchdog.pid" ] && [ "$(cat "$dir/watchdog.pid")" != "${WATCHDOG_SELF:-}" ]; then
    stop_all _watchdog "$(cat "$dir/watchdog.pid")"
  fi
  if [ -f "$dir/pids" ]; then
    # KCM and kube-apiserver shut down side by side (reverse start order); etcd, which they use, goes last.
    local -a upper=() first=()
    while read -r name pid; do
      if [ ${#first[@]} -eq 0 ]; then first=("$name" "$pid"); else upper=("$name" "$pid" "${upper[@]}"); fi
    done <"$dir/pids"
    [ ${#upper[@]} -eq 0 ] || stop_all "${upper[@]}"
    [ ${#first[@]} -eq 0 ] || stop_all "${first[@]}"
  fi
  if [ -s "$dir/data-dir" ]; then rm -rf "$(cat "$dir/data-dir")"; fi
  rm -f "$dir/pids" "$dir/data-dir" "$dir/watchdog.pid"
  log "stopped ($dir)"
}

# _watchdog <dir> <pid>: stops the control plane when the process that asked for it is gone.
cmd_watchdog() {
  local dir=$1 parent=$2
  while kill -0 "$parent" 2>/dev/null && [ -f "$dir/pids" ]; do sleep 2; done
  [ -f "$dir/pids" ] && WATCHDOG_SELF=$$ cmd_stop "$dir"
}

# ---------------------------------------------------------------------------------------------- status
cmd_status() {
  local dir=${1:-} b
  echo "bin dir: $BIN_DIR"
  for b in kube-apiserver kube-controller-manager etcd; do
    if [ -x "$BIN_DIR/$b" ]; then printf '  %-24s %s\n' "$b" "$(du -h "$BIN_DIR/$b" | cut -f1)"; else printf '  %-24s missing\n' "$b"; fi
  done
  [ -f "$BIN_DIR/VERSIONS" ] && sed 's/^/  /' "$BIN_DIR/VERSIONS"
  [ -n "$dir" ] || return 0
  echo "control plane in $dir:"
  [ -f "$dir/pids" ] || { echo "  not running"; return 0; }
  local name pid
  while read -r name pid; do
    if kill -0 "$pid" 2>/dev/null; then echo "  $name $pid running"; else echo "  $name $pid exited"; fi
  done <"$dir/pids"
  if api_ok "$dir" /readyz; then echo "  $(cat "$dir/url")/readyz: ok"; else echo "  $(cat "$dir/url")/readyz: not ready"; fi
}

case "${1:-}" in
  build) cmd_build ;;
  start) cmd_start "${2:-}" ;;
  stop) cmd_stop "${2:-}" ;;
  status) cmd_status "${2:-}" ;;
  _watchdog) cmd_watchdog "$2" "$3" ;;
  *) die "usage: $0 build|start <dir>|stop <dir>|status [<dir>]" ;;
esac
