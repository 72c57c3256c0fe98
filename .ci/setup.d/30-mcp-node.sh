#!/usr/bin/env bash
# The MCP face's tests (mcp/node_test.go) run the npm MCP client
# (@modelcontextprotocol/sdk, pinned by mcp/testclient/package-lock.json)
# against tent-tools mcp, over stdio and streamable HTTP. This installs
# Node.js and npm from apt where they are missing, and the client with
# `npm ci` where node_modules/ does not hold what the lock file pins.
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=.ci/lib.sh
. .ci/lib.sh

need_node
npm_ci mcp/testclient
