#!/usr/bin/env bash
# shot's tests take real pictures in headless Chromium: install Debian's
# chromium where no Chromium is found (TENT_CHROMIUM, or chromium,
# chromium-browser, google-chrome on PATH). Idempotent.
set -euo pipefail

if [ -n "${TENT_CHROMIUM:-}" ] && [ -x "${TENT_CHROMIUM}" ]; then
	exit 0
fi
for name in chromium chromium-browser google-chrome; do
	if command -v "$name" >/dev/null 2>&1; then
		exit 0
	fi
done

sudo=""
if [ "$(id -u)" != 0 ]; then
	sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update
$sudo apt-get install -y --no-install-recommends chromium fonts-dejavu-core
