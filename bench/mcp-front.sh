#!/usr/bin/env bash
# MCP front benchmark: pi-host mcp Read vs. the MCP filesystem server's read_text_file, one TypeScript SDK
# client driving both (see bench/README.md). Builds the launcher when it is missing or stale and installs the
# pinned npm packages (bench/package-lock.json) first, outside the measurement; then runs bench/mcp-front.mjs.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/prepare.sh" mcp-front.mjs "$@"
install_peer

exec node "$harness" "$@"
