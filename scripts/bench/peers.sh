#!/usr/bin/env bash
# Runs tent-tools' commands beside the peers they are measured against, on
# a generated project (1,000 tables unless TABLES says otherwise), each as
# a whole process, in interleaved pairs (a, b, a, b, ...: a load that
# comes and goes hits both), and prints a table of medians and ratios.
# Needs Go; installs what it can of the peers and leaves out a row whose
# peer is missing: typescript@5 and typescript@7 (the native compiler)
# from npm into a scratch folder, ripgrep from apt where it may.
#
#   scripts/bench/peers.sh              # 1,000 tables, 5 pairs a row
#   TABLES=200 RUNS=3 scripts/bench/peers.sh
#
# The index is cached (.tent/index) unless a row says otherwise. Times are
# wall seconds; the machine's load is printed first and last: on a busy
# machine only the ratios mean much.
set -euo pipefail

tables=${TABLES:-1000}
runs=${RUNS:-5}
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

for tool in go /usr/bin/time; do
  command -v "$tool" >/dev/null || { echo "peers: $tool is needed" >&2; exit 2; }
done
echo "machine: $(nproc) cores, $(uname -sm); load: $(cut -d' ' -f1-3 /proc/loadavg)"

echo "building tent-tools and tent-gen"
(cd "$root" && go build -o "$work/bin/tent-tools" ./cmd/tent-tools && go build -o "$work/bin/tent-gen" ./cmd/tent-gen)
tt="$work/bin/tent-tools"

echo "generating a project of $tables tables"
"$work/bin/tent-gen" -tables "$tables" -seed 1 -o "$work/project" >/dev/null
mkdir -p "$work/project/node_modules/tent"
cp "$root/scripts/tsc-compare/tent/"* "$work/project/node_modules/tent/"
cp "$root/scripts/tsc-compare/tsconfig.json" "$work/project/"

# The peers, where they can be had.
tsc5="" tsc7="" rg=""
if command -v npm >/dev/null; then
  mkdir -p "$work/ts5" "$work/ts7"
  if (cd "$work/ts5" && npm install --no-audit --no-fund --silent typescript@5 >/dev/null 2>&1); then
    tsc5="$work/ts5/node_modules/.bin/tsc"
  fi
  # TypeScript 7 is the native compiler; before its release it is
  # published as @typescript/native-preview (the command tsgo).
  if (cd "$work/ts7" && npm install --no-audit --no-fund --silent typescript@7 >/dev/null 2>&1) &&
    "$work/ts7/node_modules/.bin/tsc" --version 2>/dev/null | grep -q 'Version 7'; then
    tsc7="$work/ts7/node_modules/.bin/tsc"
  elif (cd "$work/ts7" && npm install --no-audit --no-fund --silent @typescript/native-preview >/dev/null 2>&1); then
    tsc7="$work/ts7/node_modules/.bin/tsgo"
  fi
fi
if command -v rg >/dev/null; then
  rg=$(command -v rg)
elif [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  (apt-get install -y -qq ripgrep >/dev/null 2>&1 || { apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq ripgrep >/dev/null 2>&1; }) || true
  rg=$(command -v rg || true)
fi
# version prints a peer's version, or "missing".
version() { if [ -n "$1" ]; then "$1" --version | head -1; else echo missing; fi; }
echo "peers: tsc@5 $(version "$tsc5"); tsc@7 $(version "$tsc7"); $(version "$rg")"

# clock runs a command in the project and prints its wall time in
# seconds; its output and exit status are ignored (a check or tsc exits 1
# where it finds an error).
clock() {
  (cd "$work/project" && /usr/bin/time -f '%e' -o "$work/time" "$@" >/dev/null 2>&1) || true
  cat "$work/time"
}

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# The states a row needs before each run.
warm() { "$tt" -C "$work/project" check >/dev/null 2>&1 || true; }
no_tent() { rm -rf "$work/project/.tent"; }
ten_changed() {
  warm
  for f in $(cd "$work/project" && ls tables/*.ts | grep -v index.ts | head -10); do
    echo "// $RANDOM" >>"$work/project/$f"
  done
}
fresh_copy() {
  rm -rf "$work/copy" && cp -a "$work/project" "$work/copy"
}

# row NAME PREP A-COMMAND [-- PEER-NAME PREP B-COMMAND]: RUNS interleaved
# pairs, then a line of the table.
row() {
  local name=$1 prep=$2 a=$3 peer=${4:-} bprep=${5:-} b=${6:-}
  : >"$work/a" && : >"$work/b"
  for _ in $(seq "$runs"); do
    $prep
    eval "clock $a" >>"$work/a"
    if [ -n "$b" ]; then
      $bprep
      eval "clock $b" >>"$work/b"
    fi
  done
  local ma mb
  ma=$(median <"$work/a")
  if [ -n "$b" ]; then
    mb=$(median <"$work/b")
    printf '| %s | %.3f | %s | %.3f | %.1f× |\n' "$name" "$ma" "$peer" "$mb" "$(echo "$mb / $ma" | bc -l)"
  else
    printf '| %s | %.3f | | | |\n' "$name" "$ma"
  fi
}

nothing() { :; }
warm
echo
echo "| tent-tools | median s | peer | median s | peer ÷ tent-tools |"
echo "|---|---|---|---|---|"
[ -n "$tsc5" ] && row "check, nothing changed" warm "$tt check" "tsc --noEmit (5)" nothing "$tsc5 --noEmit -p ."
[ -n "$tsc7" ] && row "check, nothing changed" warm "$tt check" "tsc --noEmit (7)" nothing "$tsc7 --noEmit -p ."
[ -z "$tsc5$tsc7" ] && row "check, nothing changed" warm "$tt check"
row "check, 10 files changed" ten_changed "$tt check"
row "check, no .tent/" no_tent "$tt check"
row "map" warm "$tt map"
if [ -n "$rg" ]; then
  row "search a word" warm "$tt search buyer" "rg -F" nothing "$rg -F buyer ."
else
  row "search a word" warm "$tt search buyer"
fi
row "rename an ordinary table (a fresh copy)" fresh_copy "$tt -C ../copy --yes rename accounts12 ledgers12"
echo
echo "load: $(cut -d' ' -f1-3 /proc/loadavg); $runs pairs a row; $(date -u +%Y-%m-%d)"
