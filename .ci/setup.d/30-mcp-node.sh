#!/usr/bin/env bash
# The MCP face's tests (mcp/node_test.go) run the npm MCP client
# (@modelcontextprotocol/sdk, pinned by mcp/testclient/package-lock.json)
# against tent-tools mcp, over stdio and streamable HTTP. This installs
# Node.js and npm from apt where they are missing, and the client with
# `npm ci` where node_modules/ does not hold what the lock file pins.
set -euo pipefail
cd "$(dirname "$0")/../../mcp/testclient"

if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
	echo "installing nodejs and npm"
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >/dev/null
fi

stamp=node_modules/.installed-lock.sha256
want=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ "$(cat "$stamp" 2>/dev/null || true)" != "$want" ]; then
	echo "npm ci in mcp/testclient"
	npm ci --no-audit --no-fund --loglevel=error
	echo "$want" >"$stamp"
fi
