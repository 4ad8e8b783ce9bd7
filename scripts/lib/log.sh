# Sourced first by the scripts in scripts/ as `. lib/log.sh <tag>`: log prints "[<tag>] message" on
# stderr (stdout stays for what a script answers, such as a binary's path); die logs an error and exits 1.
LOG_TAG=${1:?usage: . lib/log.sh <tag>}
log() { printf '[%s] %s\n' "$LOG_TAG" "$*" >&2; }
die() { log "error: $*"; exit 1; }
