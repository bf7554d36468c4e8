#!/usr/bin/env bash
# MCP bridge benchmark: mcp_everything_echo through pi-host vs the MCP TypeScript SDK's client calling the
# same server directly, and startup with three configured servers vs none. Builds the launcher when missing
# or stale and installs the pinned npm packages (bench/package-lock.json), outside the measurement, then runs
# bench/mcp.mjs with the arguments given (see bench/README.md or --help).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/prepare.sh" mcp.mjs "$@"
install_peer
# the Java SDK side runs from bench/target/classes
[[ -f "$bench/target/classes/pi/host/bench/McpDirectCall.class" && "$bench/target/classes/pi/host/bench/McpDirectCall.class" -nt "$bench/src/main/java/pi/host/bench/McpDirectCall.java" ]] || (cd "$root" && mvn -B -q -pl bench -am package -DskipTests) >&2

exec node "$harness" "$@"
