#!/usr/bin/env bash
# The language server's tests drive real clients: Neovim (Debian's
# neovim, headless) in lsp/nvim_test.go, and a Node client on
# vscode-languageserver-protocol (lsp/testclient, pinned by its
# package-lock.json) in lsp/node_test.go, and a page in headless Chromium
# over WebSocket (lsp/websocket_test.go). Installs only what is missing.
set -euo pipefail
cd "$(dirname "$0")/../.."

# shellcheck source=.ci/lib.sh
. .ci/lib.sh
missing=()
command -v nvim >/dev/null 2>&1 || missing+=(neovim)
command -v node >/dev/null 2>&1 || missing+=(nodejs)
command -v npm >/dev/null 2>&1 || missing+=(npm)
# The WebSocket face is tested from a page in headless Chromium.
command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || [ -x "${TENT_CHROMIUM:-}" ] || missing+=(chromium)
apt_install "${missing[@]}"

npm_ci lsp/testclient
