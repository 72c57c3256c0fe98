#!/usr/bin/env bash
# The CI face's tests (cmd/tent-tools/ci_test.go, action_test.go) run
# reviewdog on `check --format rdjson` and actionlint on action.yml and on
# the workflows of the docs; .ci/run runs the tests through gotestsum,
# which prints each package as it passes. reviewdog, actionlint and
# gotestsum are Go programs, pinned in .ci/tools/go.mod (a module of its
# own, so their dependencies stay out of tent-tools'), and installed into
# GOBIN (or GOPATH/bin), where the tests look for them. A program already
# there at the pinned version is left as it is. .ci/run runs this script
# after go vet, which has compiled the standard library they share.
set -euo pipefail
cd "$(dirname "$0")/../tools"

bin=$(go env GOBIN)
[ -n "$bin" ] || bin=$(go env GOPATH)/bin

missing=()
for pkg in github.com/reviewdog/reviewdog/cmd/reviewdog github.com/rhysd/actionlint/cmd/actionlint gotest.tools/gotestsum; do
	name=${pkg##*/}
	mod=${pkg%/cmd/*} # gotestsum's module is its package
	want=$(go list -m -f '{{.Version}}' "$mod")
	have=$(go version -m "$bin/$name" 2>/dev/null | awk '$1 == "mod" {print $3}' || true)
	if [ "$have" != "$want" ]; then
		missing+=("$pkg")
	fi
done
if [ ${#missing[@]} -gt 0 ]; then
	echo "installing ${missing[*]} into $bin"
	GOBIN=$bin go install "${missing[@]}"
fi
