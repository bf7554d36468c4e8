#!/usr/bin/env bash
# File tools benchmark: pi-host Grep, Glob, Read, Edit vs rg, sha256sum and Node fs (see bench/README.md).
# Prepares what the measurement needs, outside the measurement: builds the launcher when it is
# missing or stale (the same check bin/pi-host does); bench/files.mjs extracts the JDK sources once
# into bench/.cache/ (git-ignored). Then runs bench/files.mjs with the arguments
# given (see bench/README.md or --help). The results go to stdout, progress to stderr.
set -euo pipefail

bench="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$bench/.." && pwd)"
jar="$root/bundles/target/pi.host.launcher.jar"

for arg in "$@"; do
  if [[ "$arg" == "-h" || "$arg" == "--help" ]]; then
    exec node "$bench/files.mjs" --help
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

command -v rg >/dev/null || { echo "bench: rg is not on PATH (apt-get install ripgrep)" >&2; exit 2; }
command -v unzip >/dev/null || { echo "bench: unzip is not on PATH" >&2; exit 2; }

exec node "$bench/files.mjs" "$@"
