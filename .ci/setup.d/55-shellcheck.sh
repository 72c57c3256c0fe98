#!/usr/bin/env bash
# actionlint runs shellcheck on the scripts of the workflows it lints
# (cmd/tent-tools/action_test.go), and .ci/run runs it on its own
# scripts: install Debian's shellcheck where it is missing. Idempotent.
set -euo pipefail

if command -v shellcheck >/dev/null 2>&1; then
	exit 0
fi
# shellcheck source=.ci/lib.sh
. "$(dirname "$0")/../lib.sh"
apt_install shellcheck
