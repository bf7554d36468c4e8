#!/usr/bin/env bash
# MCP front benchmark: pi-host mcp Read vs. the MCP filesystem server's read_text_file, one TypeScript SDK
# client driving both (see bench/README.md). Builds the launcher when it is missing or stale and installs the
# pinned npm packages (bench/package-lock.json) and the floor's class (--floor) first, outside the measurement;
# then runs bench/mcp-front.mjs.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/prepare.sh" mcp-front.mjs "$@"
install_peer
# the floor (--floor) runs from bench/target/classes (bench/mcp-floor.mjs)
[[ -f "$bench/target/classes/pi/host/bench/McpFloor.class" && "$bench/target/classes/pi/host/bench/McpFloor.class" -nt "$bench/src/main/java/pi/host/bench/McpFloor.java" ]] || (cd "$root" && mvn -B -q -pl bench -am package -DskipTests) >&2

exec node "$harness" "$@"
