#!/usr/bin/env bash
# The page of tent-tools studio is bundled from studio/web/src with the
# libraries studio/web/package-lock.json pins (preact, @dagrejs/dagre; and
# typescript, for the type check); studio/web/build's tests check that the
# committed bundle (studio/web/dist) is a fresh build of them, and the
# types. This installs Node.js and npm from apt where they are missing, and
# the libraries with `npm ci` where node_modules/ does not hold what the
# lock file pins. Building the binary needs none of this.
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=.ci/lib.sh
. .ci/lib.sh

need_node
npm_ci studio/web
