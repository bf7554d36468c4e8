#!/usr/bin/env bash
# Bash benchmark (issue 5): builds the launcher when it is missing (not measured), then runs
# bench/bash.mjs with the arguments given. Results on stdout, progress on stderr.
set -euo pipefail
bench="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$bench/.." && pwd)"
command -v node >/dev/null || { echo "bench: node is not on PATH" >&2; exit 2; }
command -v jstat >/dev/null || { echo "bench: jstat (JDK) is not on PATH" >&2; exit 2; }
if [[ ! -f "$root/bundles/target/pi.host.launcher.jar" ]]; then
  echo "bench: building pi-host (not measured) ..." >&2
  (cd "$root" && mvn -B -q -DskipTests package) >&2
fi
exec node "$bench/bash.mjs" "$@"
