# Shared by the bench scripts (sourced, not run): what every measurement needs, done outside it.
# Usage: source prepare.sh HARNESS.mjs "$@"  — answers --help from the harness, checks node, and
# builds pi-host when it is missing or stale (bin/build-if-stale).

bench="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$bench/.." && pwd)"
harness="$bench/$1"
shift

for arg in "$@"; do
  if [[ "$arg" == "-h" || "$arg" == "--help" ]]; then
    exec node "$harness" --help
  fi
done

command -v node >/dev/null || { echo "bench: node is not on PATH (node 20 or later)" >&2; exit 2; }
"$root/bin/build-if-stale"

# Installs the pinned MCP filesystem server into bench/node_modules when missing or older than the
# lockfile. npm writes node_modules/.package-lock.json at install time (the packages' own files
# carry npm's fixed 1985 timestamps, useless for this check).
install_peer() {
  local peer="$bench/node_modules/@modelcontextprotocol/server-filesystem/package.json"
  local installed="$bench/node_modules/.package-lock.json"
  if [[ ! -f "$peer" || ! -f "$installed" || "$bench/package-lock.json" -nt "$installed" ]]; then
    echo "bench: installing the pinned MCP filesystem server into bench/node_modules ..." >&2
    npm ci --prefix "$bench" --no-audit --no-fund >&2
  fi
}
