#!/usr/bin/env bash
# actionlint runs shellcheck on the scripts of the workflows it lints
# (cmd/tent-tools/action_test.go), and .ci/run runs it on its own
# scripts: install Debian's shellcheck where it is missing. Idempotent.
set -euo pipefail

if command -v shellcheck >/dev/null 2>&1; then
	exit 0
fi
sudo=""
if [ "$(id -u)" != 0 ]; then
	sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends shellcheck >/dev/null
