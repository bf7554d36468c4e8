#!/usr/bin/env bash
# MCP bridge benchmark: mcp_everything_echo through pi-host vs the MCP TypeScript SDK's client calling the
# same server directly, and startup with three configured servers vs none. Builds the launcher when missing
# or stale and installs the pinned npm packages (bench/package-lock.json), outside the measurement, then runs
# bench/mcp.mjs with the arguments given (see bench/README.md or --help).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/prepare.sh" mcp.mjs "$@"
install_peer

exec node "$harness" "$@"
