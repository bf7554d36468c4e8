#!/usr/bin/env bash
# First Grep of a session on the JDK sources (fresh pi-host per call, every JVM bin/pi-host could pick) vs.
# rg -n (content mode) and rg -l (files mode). Prepares what the measurement needs outside it (the build,
# bin/pi-host's start-up archives, the extracted tree), then runs bench/grep-first.mjs (--help).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/prepare.sh" grep-first.mjs "$@"

exec node "$harness" "$@"
