#!/usr/bin/env bash
# shell runs its commands in a bubblewrap sandbox (internal/sandbox), and
# its tests (tools, cmd/tent-tools, mcp, internal/sandbox) fail under CI
# without it: install Debian's bubblewrap where bwrap is missing.
# Idempotent.
set -euo pipefail

if command -v bwrap >/dev/null 2>&1; then
	exit 0
fi
# shellcheck source=.ci/lib.sh
. "$(dirname "$0")/../lib.sh"
apt_install bubblewrap
