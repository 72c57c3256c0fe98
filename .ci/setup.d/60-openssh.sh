#!/usr/bin/env bash
# The remote workspaces' tests (remote/ssh_test.go) reach a project through
# a real ssh: they start Debian's sshd on the loopback with a host key and
# a client key made for the test, its own config, in the foreground, and
# reach it with Debian's ssh client. Installs only what is missing.
set -euo pipefail

sudo=""
if [ "$(id -u)" != 0 ]; then
	sudo="sudo"
fi
missing=()
[ -x /usr/sbin/sshd ] || command -v sshd >/dev/null 2>&1 || missing+=(openssh-server)
command -v ssh >/dev/null 2>&1 || missing+=(openssh-client)
command -v ssh-keygen >/dev/null 2>&1 || missing+=(openssh-client)
if [ ${#missing[@]} -gt 0 ]; then
	export DEBIAN_FRONTEND=noninteractive
	$sudo apt-get update
	mapfile -t missing < <(printf "%s\n" "${missing[@]}" | sort -u)
	$sudo apt-get install -y --no-install-recommends "${missing[@]}"
fi
