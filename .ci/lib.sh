#!/usr/bin/env bash
# Sourced by the scripts of .ci/setup.d/.

# apt_install installs the Debian packages named (each once; nothing when
# none is named), as root or by sudo.
apt_install() {
	[ $# -gt 0 ] || return 0
	local sudo=""
	if [ "$(id -u)" != 0 ]; then
		sudo="sudo"
	fi
	local pkgs
	mapfile -t pkgs < <(printf "%s\n" "$@" | sort -u)
	echo "installing ${pkgs[*]}"
	DEBIAN_FRONTEND=noninteractive $sudo apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${pkgs[@]}" >/dev/null
}

# need_node installs Node.js and npm where either is missing.
need_node() {
	local missing=()
	command -v node >/dev/null 2>&1 || missing+=(nodejs)
	command -v npm >/dev/null 2>&1 || missing+=(npm)
	apt_install "${missing[@]}"
}

# npm_ci runs `npm ci` in the folder named where its node_modules/ does not
# hold what its package-lock.json pins (a stamp of the lock's hash).
npm_ci() {
	local dir=$1 want
	want=$(sha256sum "$dir/package-lock.json" | cut -d' ' -f1)
	if [ "$(cat "$dir/node_modules/.installed-lock.sha256" 2>/dev/null || true)" != "$want" ]; then
		echo "npm ci in $dir"
		(cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
		echo "$want" >"$dir/node_modules/.installed-lock.sha256"
	fi
}
