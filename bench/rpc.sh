#!/usr/bin/env bash
# RPC round-trip benchmark: pi-host tools.execute Read vs. the MCP filesystem server's read_text_file.
# Prepares what the measurement needs, outside the measurement: builds the launcher when it is
# missing or stale (the same check bin/pi-host does) and installs the pinned peer from
# bench/package-lock.json into bench/node_modules. Then runs bench/rpc.mjs with the arguments
# given (see bench/README.md or --help). The results go to stdout, progress to stderr.
set -euo pipefail

bench="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$bench/.." && pwd)"
jar="$root/bundles/target/pi.host.launcher.jar"

for arg in "$@"; do
  if [[ "$arg" == "-h" || "$arg" == "--help" ]]; then
    exec node "$bench/rpc.mjs" --help
  fi
done

command -v node >/dev/null || { echo "bench: node is not on PATH (node 20 or later)" >&2; exit 2; }

stale() {
  [[ ! -f "$jar" || ! -f "$root/bundles/target/pi-host/bundles.list" ]] && return 0
  [[ -n "$(find "$root" -path "$root/*/target" -prune -o -path "$root/.git" -prune -o \
        -path '*/node_modules' -prune -o \
        \( -name '*.java' -o -name 'pom.xml' -o -name '*.bnd' -o -name 'bundles.list' \) \
        -newer "$jar" -print -quit)" ]]
}
if stale; then
  echo "bench: building pi-host (not measured) ..." >&2
  (cd "$root" && mvn -B -q -DskipTests package) >&2
fi

# npm writes node_modules/.package-lock.json at install time (the packages' own files carry
# npm's fixed 1985 timestamps, useless for this check)
peer="$bench/node_modules/@modelcontextprotocol/server-filesystem/package.json"
installed="$bench/node_modules/.package-lock.json"
if [[ ! -f "$peer" || ! -f "$installed" || "$bench/package-lock.json" -nt "$installed" ]]; then
  echo "bench: installing the pinned MCP filesystem server into bench/node_modules ..." >&2
  npm ci --prefix "$bench" --no-audit --no-fund >&2
fi

exec node "$bench/rpc.mjs" "$@"
