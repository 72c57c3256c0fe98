#!/usr/bin/env bash
# Measures tent-tools' language server beside TypeScript 7's (`tsc --lsp
# --stdio`, the native compiler) over the same generated projects with the
# same requests, interleaved, and tent-tools' MCP server over the calls an
# agent makes; prints medians and ratios (scripts/bench/lspbench says what
# is measured and how).
# Needs Go, Node and npm: TypeScript comes from the lock in
# scripts/bench/ts7 (npm ci), installed once into the cache folder, outside
# the repository; without npm, tent-tools is measured alone.
#
#   scripts/bench/lsp.sh                         # 1,000, 5,000 and 10,000 tables, 5 rounds
#   SIZES=1000 ROUNDS=3 scripts/bench/lsp.sh     # a quick look
#   WRITE=1 scripts/bench/lsp.sh                 # also rewrite docs/pages/performance.md's
#                                                # section and docs/pages/performance-lsp.svg
#
# SIZES (comma-separated tables), ROUNDS (a size's rounds), BUDGET (the
# longest a size's rounds may take, e.g. 10m: fewer rounds past it),
# TIMEOUT (the longest one request may take), CACHE (the cache folder:
# ${XDG_CACHE_HOME:-~/.cache}/tent-tools-bench). The projects, the
# binaries and the last run's outputs (lsp.md, lsp.svg, lsp.json) are in
# CACHE. The machine's load is printed with the table: on a busy machine
# only the ratios mean much.
set -euo pipefail

sizes=${SIZES:-1000,5000,10000}
rounds=${ROUNDS:-5}
budget=${BUDGET:-4m}
timeout=${TIMEOUT:-5m}
root=$(cd "$(dirname "$0")/../.." && pwd)
cache=${CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/tent-tools-bench}
mkdir -p "$cache/bin" "$cache/work"

command -v go >/dev/null || { echo "lsp.sh: go is needed" >&2; exit 2; }
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'); load: $(cut -d' ' -f1-3 /proc/loadavg)"

echo "building tent-tools and lspbench"
(cd "$root" && go build -o "$cache/bin/tent-tools" ./cmd/tent-tools && go build -o "$cache/bin/lspbench" ./scripts/bench/lspbench)

# TypeScript 7 from the committed lock, installed again only when the lock
# changed. The npm package's `tsc` is a Node script that starts the native
# binary; the benchmark runs the binary itself, so that the process it
# measures (memory from /proc) is the language server.
tsc=""
if command -v npm >/dev/null; then
  ts="$cache/ts7"
  mkdir -p "$ts"
  if ! cmp -s "$root/scripts/bench/ts7/package-lock.json" "$ts/package-lock.json" || [ ! -d "$ts/node_modules" ]; then
    echo "installing TypeScript 7 (npm ci) into $ts"
    cp "$root/scripts/bench/ts7/package.json" "$root/scripts/bench/ts7/package-lock.json" "$ts/"
    (cd "$ts" && npm ci --no-audit --no-fund --silent)
  fi
  for exe in "$ts"/node_modules/@typescript/typescript-*/lib/tsc; do
    [ -x "$exe" ] && tsc=$exe
  done
  if [ -z "$tsc" ] || ! "$tsc" --version | grep -q 'Version 7'; then
    echo "lsp.sh: no native TypeScript 7 binary in $ts; measuring tent-tools alone" >&2
    tsc=""
  fi
else
  echo "lsp.sh: npm is missing; measuring tent-tools alone" >&2
fi
[ -n "$tsc" ] && echo "peer: tsc $("$tsc" --version) ($tsc)"

out=(-md "$cache/lsp.md" -svg "$cache/lsp.svg" -json "$cache/lsp.json")
commit=$(cd "$root" && git rev-parse --short HEAD 2>/dev/null || echo unknown)
"$cache/bin/lspbench" -tent "$cache/bin/tent-tools" ${tsc:+-tsc "$tsc"} -types "$root/scripts/tsc-compare" \
  -work "$cache/work" -sizes "$sizes" -rounds "$rounds" -budget "$budget" -timeout "$timeout" -commit "$commit" "${out[@]}"
if [ "${WRITE:-}" = 1 ]; then
  cp "$cache/lsp.svg" "$root/docs/pages/performance-lsp.svg"
  "$cache/bin/lspbench" -from "$cache/lsp.json" -doc "$root/docs/pages/performance.md" >/dev/null
  echo "wrote docs/pages/performance.md (its section) and docs/pages/performance-lsp.svg"
fi
echo "outputs: $cache/lsp.md, $cache/lsp.svg, $cache/lsp.json"
