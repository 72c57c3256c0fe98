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

# shellcheck source=.ci/lib.sh
. "$(dirname "$0")/../lib.sh"
apt_install chromium fonts-dejavu-core
