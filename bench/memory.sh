#!/usr/bin/env bash
# Memory benchmark: pi-host's resident memory, idle and after 10,000 mixed calls, vs. the MCP filesystem server.
# Prepares what the measurement needs, outside the measurement (the build, the pinned peer, bin/pi-host's
# start-up archives), then runs bench/memory.mjs with the arguments given (bench/README.md or --help).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/prepare.sh" memory.mjs "$@"
install_peer

exec node "$harness" "$@"
