#!/usr/bin/env bash
# The remote workspaces' tests (remote/ssh_test.go) reach a project through
# a real ssh: they start Debian's sshd on the loopback with a host key and
# a client key made for the test, its own config, in the foreground, and
# reach it with Debian's ssh client. Installs only what is missing.
set -euo pipefail

# shellcheck source=.ci/lib.sh
. "$(dirname "$0")/../lib.sh"
missing=()
[ -x /usr/sbin/sshd ] || command -v sshd >/dev/null 2>&1 || missing+=(openssh-server)
command -v ssh >/dev/null 2>&1 || missing+=(openssh-client)
command -v ssh-keygen >/dev/null 2>&1 || missing+=(openssh-client)
apt_install "${missing[@]}"
