# Sourced by the scripts that build a Go tool from the Go module proxy into a cache of their own
# (scripts/helm.sh, scripts/crictl.sh, scripts/real-control-plane.sh): the Go settings, the
# built-or-cached check under a lock, timing with peak memory, and the version stamp.
# The sourcing script sources lib/log.sh (log, die) first.

# go_env: the machine's Go, static binaries, the 2 cores this machine has, module mode.
go_env() {
  command -v go >/dev/null || die "go is not on PATH"
  export GOTOOLCHAIN=local CGO_ENABLED=0 GOMAXPROCS=${GOMAXPROCS:-2}
  # -mod=mod lets go build add missing go.sum lines and resolve a module's own go.mod (go install @v
  # ignores vendor/); -buildvcs=false because the wrapper modules are not repositories.
  export GOFLAGS="-mod=mod -buildvcs=false"
}

# go_timed <label> <log> cmd...: runs cmd at low priority under GNU time, logs wall time and peak RSS,
# shows the end of <log> and dies when it fails.
go_timed() {
  local label=$1 logf=$2 t0; shift 2
  t0=$(date +%s)
  if ! nice -n 10 /usr/bin/time -v -o "$logf.time" "$@" >"$logf" 2>&1; then
    tail -n 40 "$logf" >&2
    die "$label failed (log: $logf)"
  fi
  local rss; rss=$(awk -F': ' '/Maximum resident set size/ {printf "%d MiB", $2/1024}' "$logf.time")
  log "$label: $(( $(date +%s) - t0 )) s, peak RSS $rss"
}

# go_build_cached <binary> <label> <fn> [args...]: unless <binary> is there, runs `fn args` (with go_env
# set) to make it, holding a lock in its directory so that a second run waits and then finds it built.
go_build_cached() {
  local bin=$1 label=$2 dir t0; shift 2
  if [ -x "$bin" ]; then log "$label: cached ($bin)"; return; fi
  go_env
  dir=$(dirname "$bin") && mkdir -p "$dir"
  exec 9>>"$dir/.lock"
  flock -n 9 || { log "$label: waiting for another build of $dir"; flock 9; }
  if [ -x "$bin" ]; then
    log "$label: built by the other run ($bin)"
  else
    t0=$(date +%s)
    log "$label: building with $(go env GOVERSION)"
    "$@"
    [ -x "$bin" ] || die "$label: the build left no $bin"
    log "$label: built in $(( $(date +%s) - t0 )) s"
  fi
  exec 9>&-
}

# go_stamp <file> name=version...: what a cache entry was built from, and with which Go.
go_stamp() {
  local file=$1; shift
  { printf '%s\n' "$@"; printf 'go=%s\n' "$(go env GOVERSION)"; } >"$file"
}
