#!/usr/bin/env bash
# Bash benchmark (issue 5): builds the launcher when it is missing or stale (not measured), then
# runs bench/bash.mjs with the arguments given. Results on stdout, progress on stderr.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/prepare.sh" bash.mjs "$@"
command -v jstat >/dev/null || { echo "bench: jstat (JDK) is not on PATH" >&2; exit 2; }
exec node "$harness" "$@"
