#!/usr/bin/env bash
# Times `tent-tools check` against `tsc --noEmit` on the same generated
# project (1,000 tables unless TABLES says otherwise), each as a whole
# process, and prints both and the ratio. Needs Go, Node and npm (it installs
# TypeScript into a temporary folder; TS_VERSION picks the version, default
# the newest).
#
#   scripts/tsc-compare.sh            # 1,000 tables
#   TABLES=200 TS_VERSION=5 scripts/tsc-compare.sh
#
# "cold" is each tool's first run in a fresh process on files it has never
# read (after dropping the page cache where the machine lets us); "warm" is
# the best of RUNS more runs.
set -euo pipefail

tables=${TABLES:-1000}
runs=${RUNS:-3}
ts_version=${TS_VERSION:-latest}
root=$(cd "$(dirname "$0")/.." && pwd)
here="$root/scripts/tsc-compare"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

for tool in go node npm /usr/bin/time; do
  command -v "$tool" >/dev/null || { echo "tsc-compare: $tool is needed" >&2; exit 2; }
done

echo "building tent-tools and tent-gen"
(cd "$root" && go build -o "$work/bin/tent-tools" ./cmd/tent-tools && go build -o "$work/bin/tent-gen" ./cmd/tent-gen)

echo "generating a project of $tables tables"
"$work/bin/tent-gen" -tables "$tables" -seed 1 -o "$work/project"
mkdir -p "$work/project/node_modules/tent"
cp "$here/tent/"* "$work/project/node_modules/tent/"
cp "$here/tsconfig.json" "$work/project/"

echo "installing typescript@$ts_version"
mkdir -p "$work/ts"
(cd "$work/ts" && npm install --no-audit --no-fund --silent "typescript@$ts_version" >/dev/null)
tsc="$work/ts/node_modules/.bin/tsc"
echo "tsc $("$tsc" --version)"

# measure runs a command in the project and prints how long it took, in
# seconds: the wall time, then the CPU time (user + system, which a busy
# machine inflates less). Its output goes to $work/out and its exit status
# is ignored (the check exits 1 where it finds an error, tsc where it finds one).
measure() {
  (cd "$work/project" && /usr/bin/time -f '%e %U %S' -o "$work/time" "$@" >"$work/out" 2>&1) || true
  awk '{ printf "%.3f %.3f\n", $1, $2 + $3 }' "$work/time"
}

drop_caches() {
  sync
  if ! (echo 3 >/proc/sys/vm/drop_caches) 2>/dev/null; then
    cache_note=" (page cache not dropped: not allowed here)"
  fi
}

# best prints the smallest wall and CPU times of $runs runs.
best() {
  for _ in $(seq "$runs"); do measure "$@"; done |
    awk 'NR == 1 || $1 < w { w = $1 } NR == 1 || $2 < c { c = $2 } END { printf "%.3f %.3f\n", w, c }'
}

cache_note=""
drop_caches
read -r check_cold check_cold_cpu < <(measure "$work/bin/tent-tools" check)
check_summary=$(tail -n 1 "$work/out")
drop_caches
read -r tsc_cold tsc_cold_cpu < <(measure "$tsc" --noEmit -p .)
tsc_errors=$(grep -c 'error TS' "$work/out" || true)
read -r check_warm check_cpu < <(best "$work/bin/tent-tools" check)
read -r tsc_warm tsc_cpu < <(best "$tsc" --noEmit -p .)

files=$(find "$work/project" -path "$work/project/node_modules" -prune -o -type f -print | wc -l)
lines=$(find "$work/project" -path "$work/project/node_modules" -prune -o -type f -print0 | xargs -0 cat | wc -l)
echo
echo "project: $tables tables, $files files, $lines lines"
echo "tent-tools check: $check_summary"
echo "tsc --noEmit:     $tsc_errors errors"
echo
printf '%-18s %10s %10s %10s\n' "" "cold (s)" "warm (s)" "CPU (s)"
printf '%-18s %10s %10s %10s\n' "tent-tools check" "$check_cold" "$check_warm" "$check_cpu"
printf '%-18s %10s %10s %10s\n' "tsc --noEmit" "$tsc_cold" "$tsc_warm" "$tsc_cpu"
awk -v c="$check_cold" -v t="$tsc_cold" -v cw="$check_warm" -v tw="$tsc_warm" -v cc="$check_cpu" -v tc="$tsc_cpu" \
  'BEGIN { printf "ratio tsc/check:   %9.1fx %9.1fx %9.1fx\n", t / c, tw / cw, tc / cc }'
echo "cold = first run in a fresh process$cache_note; warm = best of $runs; CPU = user + system, best of $runs"
echo "load average now: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
