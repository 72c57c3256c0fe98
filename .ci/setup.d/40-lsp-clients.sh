#!/usr/bin/env bash
# The language server's tests drive real clients: Neovim (Debian's
# neovim, headless) in lsp/nvim_test.go. Installed where nvim is missing.
# Idempotent.
set -euo pipefail

if command -v nvim >/dev/null 2>&1; then
	exit 0
fi
sudo=""
if [ "$(id -u)" != 0 ]; then
	sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update
$sudo apt-get install -y --no-install-recommends neovim
