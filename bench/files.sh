#!/usr/bin/env bash
# File tools benchmark: pi-host Grep, Glob, Read, Edit vs rg, sha256sum and Node fs (see bench/README.md).
# Prepares what the measurement needs, outside the measurement: builds the launcher when it is
# missing or stale (bin/build-if-stale); bench/files.mjs extracts the JDK sources once
# into bench/.cache/ (git-ignored). Then runs bench/files.mjs with the arguments
# given (see bench/README.md or --help). The results go to stdout, progress to stderr.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/prepare.sh" files.mjs "$@"

command -v rg >/dev/null || { echo "bench: rg is not on PATH (apt-get install ripgrep)" >&2; exit 2; }
command -v unzip >/dev/null || { echo "bench: unzip is not on PATH" >&2; exit 2; }

exec node "$harness" "$@"
