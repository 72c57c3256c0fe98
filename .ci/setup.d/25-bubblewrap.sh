#!/usr/bin/env bash
# shell runs its commands in a bubblewrap sandbox (internal/sandbox), and
# its tests (tools, cmd/tent-tools, mcp, internal/sandbox) fail under CI
# without it: install Debian's bubblewrap where bwrap is missing.
# Idempotent.
set -euo pipefail

if command -v bwrap >/dev/null 2>&1; then
	exit 0
fi
sudo=""
if [ "$(id -u)" != 0 ]; then
	sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends bubblewrap >/dev/null
