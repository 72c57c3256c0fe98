#!/usr/bin/env bash
# The page of tent-tools studio is bundled from studio/web/src with the
# libraries studio/web/package-lock.json pins (preact, @dagrejs/dagre; and
# typescript, for the type check); studio/web/build's tests check that the
# committed bundle (studio/web/dist) is a fresh build of them, and the
# types. This installs Node.js and npm from apt where they are missing, and
# the libraries with `npm ci` where node_modules/ does not hold what the
# lock file pins. Building the binary needs none of this.
set -euo pipefail
cd "$(dirname "$0")/../../studio/web"

if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
	echo "installing nodejs and npm"
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >/dev/null
fi

stamp=node_modules/.installed-lock.sha256
want=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ "$(cat "$stamp" 2>/dev/null || true)" != "$want" ]; then
	echo "npm ci in studio/web"
	npm ci --no-audit --no-fund --loglevel=error
	echo "$want" >"$stamp"
fi
