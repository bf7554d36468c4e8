#!/usr/bin/env bash
# Startup benchmark: pi-host serve --stdio (warm bundle cache) vs. the MCP filesystem server.
# Prepares what the measurement needs, outside the measurement: builds the launcher when it is
# missing or stale (bin/build-if-stale) and installs the pinned peer from
# bench/package-lock.json into bench/node_modules. Then runs bench/startup.mjs with the arguments
# given (see bench/README.md or --help). The results go to stdout, progress to stderr.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/prepare.sh" startup.mjs "$@"
install_peer

exec node "$harness" "$@"
