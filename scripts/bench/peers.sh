#!/usr/bin/env bash
# Runs tent-tools' commands beside the peers they are measured against, on
# a generated project (1,000 tables unless TABLES says otherwise), each as
# a whole process, in interleaved pairs (a, b, a, b, ...: a load that
# comes and goes hits both), and prints a table of medians and ratios,
# each row with its target (docs/pages/performance.md) and whether the
# run met it. A target is for 1,000 tables; with fewer, read only the
# ratios.
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

echo "building tent-tools, tent-gen and parsefloor"
(cd "$root" && go build -o "$work/bin/tent-tools" ./cmd/tent-tools && go build -o "$work/bin/tent-gen" ./cmd/tent-gen &&
  go build -o "$work/bin/parsefloor" ./scripts/bench/parsefloor)
tt="$work/bin/tent-tools"
# parsefloor reads and parses every TypeScript file with tree-sitter and
# does nothing else: the floor of a check with no .tent/.
floor="$work/bin/parsefloor"

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
# run's peer is node running the same bundle on the test database; node
# 20 has no SQLite of its own, so it reads it through sql.js.
sqljs=""
if command -v node >/dev/null && command -v npm >/dev/null; then
  mkdir -p "$work/nodepeer"
  if (cd "$work/nodepeer" && npm install --no-audit --no-fund --silent sql.js@1 >/dev/null 2>&1); then
    sqljs="$work/nodepeer/node_modules/sql.js"
  fi
fi
if command -v rg >/dev/null; then
  rg=$(command -v rg)
elif [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  (apt-get install -y -qq ripgrep >/dev/null 2>&1 || { apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq ripgrep >/dev/null 2>&1; }) || true
  rg=$(command -v rg || true)
fi
# version prints a peer's version, or "missing".
version() { if [ -n "$1" ]; then "$1" --version 2>/dev/null | head -1; else echo missing; fi; }
echo "peers: tsc@5 $(version "$tsc5"); tsc@7 $(version "$tsc7"); $(version "$rg"); node $([ -n "$sqljs" ] && node --version || echo missing)"

# clock runs a command in the project and prints its wall time in
# seconds, or with measure=mem its peak memory (resident set) in MB; its
# output and exit status are ignored (a check or tsc exits 1 where it
# finds an error).
# With must_pass=yes a command that fails (exits other than 0) is noted
# in $work/failed: its time would measure the failure.
measure=time must_pass=no
clock() {
  local f='%e %x'
  [ "$measure" = mem ] && f='%M %x'
  (cd "$work/project" && /usr/bin/time -f "$f" -o "$work/time" "$@" >/dev/null 2>&1) || true
  local value status
  read -r value status < <(tail -1 "$work/time")
  [ "$must_pass" = yes ] && [ "$status" != 0 ] && echo "$*: exit $status" >>"$work/failed"
  if [ "$measure" = mem ]; then
    awk -v kb="$value" 'BEGIN { printf "%.1f\n", kb / 1024 }'
  else
    echo "$value"
  fi
}

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# The states a row needs before each run.
warm() { "$tt" -C "$work/project" check >/dev/null 2>&1 || true; }
no_tent() { rm -rf "$work/project/.tent"; }
ten_changed() {
  warm
  local files=("$work"/project/tables/[a-z]*[0-9].ts)
  for f in "${files[@]:0:10}"; do
    echo "// $RANDOM" >>"$f"
  done
}
# fresh_copy is a copy of the project (its index cached) that no tool has
# changed yet: its first change records the starting state.
fresh_copy() {
  rm -rf "$work/copy" && cp -a "$work/project" "$work/copy"
}
# The warm copy has had changes made by the tools before (made once); each
# run's prep puts back what the run before it changed, unmeasured, so
# every run makes the same change on a copy that knows it.
warm_copy() {
  if [ ! -d "$work/warm" ]; then
    cp -a "$work/project" "$work/warm"
    "$tt" -C "$work/warm" --yes rename badges medals >/dev/null 2>&1 || true
  fi
}
wtt() { "$tt" -C "$work/warm" --yes "$@" >/dev/null 2>&1 || true; }
# warm_reset puts back whatever a warm row changed (each row leaves its
# last change in place), so that each run starts from the same copy.
warm_reset() {
  warm_copy
  local t="$work/warm/tables"
  if grep -q 'const ledgers2 ' "$t/accounts2.ts"; then wtt rename ledgers2 accounts2; fi
  if grep -q 'total: money(' "$t/accounts2.ts"; then wtt rename accounts2.total amount; fi
  if grep -q 'const clients ' "$t/accounts.ts"; then wtt rename clients accounts; fi
  if grep -q 'title: text(), // edited' "$t/accounts2.ts"; then
    wtt edit tables/accounts2.ts --find 'title: text(), // edited' --with 'title: text(),'
  fi
}
nothing() { :; }
# run_ready has the test database built and the run's app kept (.tent/cache).
run_ready() { warm; "$tt" -C "$work/project" run listAccounts2 --input '{"limit":10}' >/dev/null 2>&1 || true; }

# row NAME TARGET MET PREP A-COMMAND [PEER-NAME PREP B-COMMAND]: RUNS
# interleaved pairs, then a line of the table. MET is an awk condition on
# a (tent-tools' median) and b (the peer's), e.g. "a <= 0.25 && b / a >= 45".
row() {
  local name=$1 target=$2 met=$3 prep=$4 a=$5 peer=${6:-} bprep=${7:-} b=${8:-}
  : >"$work/a" && : >"$work/b" && : >"$work/failed"
  for _ in $(seq "$runs"); do
    $prep
    eval "clock $a" >>"$work/a"
    if [ -n "$b" ]; then
      $bprep
      eval "clock $b" >>"$work/b"
    fi
  done
  local ma mb=0 ok
  ma=$(median <"$work/a")
  [ -n "$b" ] && mb=$(median <"$work/b")
  ok=$(awk -v a="$ma" -v b="$mb" "BEGIN { print ($met) ? \"yes\" : \"no\" }")
  if [ -s "$work/failed" ]; then
    ok="failed: $(head -1 "$work/failed")"
  fi
  if [ -n "$b" ]; then
    printf '| %s | %.3f | %s | %.3f | %.1f× | %s | %s |\n' "$name" "$ma" "$peer" "$mb" "$(echo "$mb / $ma" | bc -l)" "$target" "$ok"
  else
    printf '| %s | %.3f | | | | %s | %s |\n' "$name" "$ma" "$target" "$ok"
  fi
}

warm
echo
echo "| tent-tools | median | peer | median | peer ÷ tent-tools | target | met |"
echo "|---|---|---|---|---|---|---|"
[ -n "$tsc5" ] && row "check, nothing changed (s)" "≤ 0.25 s, ≥ 45× tsc 5" "a <= 0.25 && b / a >= 45" warm "$tt check" "tsc --noEmit (5)" nothing "$tsc5 --noEmit -p ."
[ -n "$tsc7" ] && row "check, nothing changed (s)" "≤ 0.25 s, ≥ 6× tsc 7" "a <= 0.25 && b / a >= 6" warm "$tt check" "tsc --noEmit (7)" nothing "$tsc7 --noEmit -p ."
[ -z "$tsc5$tsc7" ] && row "check, nothing changed (s)" "≤ 0.25 s" "a <= 0.25" warm "$tt check"
row "check, 10 files changed (s)" "≤ 0.35 s" "a <= 0.35" ten_changed "$tt check"
row "check, no .tent/ (s)" "≤ 1.3× the parse floor" "a <= 1.3 * b" no_tent "$tt check" "tree-sitter parse floor" nothing "$floor ."
# From here on a command that fails spoils its row (check and tsc exit 1
# where they find an error).
must_pass=yes
row "rename an ordinary table, warm (s)" "≤ 0.3 s" "a <= 0.3" warm_reset "$tt -C ../warm --yes rename accounts2 ledgers2"
row "rename a column, warm (s)" "≤ 0.3 s" "a <= 0.3" warm_reset "$tt -C ../warm --yes rename accounts2.amount total"
row "rename an ordinary table, first call on a fresh copy (s)" "≤ 0.3 s" "a <= 0.3" fresh_copy "$tt -C ../copy --yes rename accounts2 ledgers2"
row "rename the hub table, warm (s)" "≤ 0.8 s" "a <= 0.8" warm_reset "$tt -C ../warm --yes rename accounts clients"
row "map (s)" "≤ 0.2 s" "a <= 0.2" warm "$tt map"
if [ -n "$rg" ]; then
  row "search a word (s)" "≤ 0.06 s, ≤ 2× rg" "a <= 0.06 && a <= 2 * b" warm "$tt search JSON.stringify" "rg -F" nothing "$rg -F JSON.stringify ."
else
  row "search a word (s)" "≤ 0.06 s" "a <= 0.06" warm "$tt search JSON.stringify"
fi
if [ -n "$sqljs" ]; then
  row "run a function reading the db (s)" "≤ 0.1 s, faster than node" "a <= 0.1 && a < b" run_ready "$tt run listAccounts2 --input '{\"limit\":10}'" \
    "node, the same bundle" nothing "node $root/scripts/bench/noderun.mjs . functions/accounts2.ts listAccounts2 '{\"limit\":10}' $sqljs"
else
  row "run a function reading the db (s)" "≤ 0.1 s" "a <= 0.1" run_ready "$tt run listAccounts2 --input '{\"limit\":10}'"
fi
row "edit one line, first call on a fresh copy (s)" "≤ 0.3 s" "a <= 0.3" fresh_copy "$tt -C ../copy edit tables/accounts2.ts --find 'title: text(),' --with 'title: text(), // edited'"
row "edit one line, later calls (s)" "≤ 0.05 s" "a <= 0.05" warm_reset "$tt -C ../warm edit tables/accounts2.ts --find 'title: text(),' --with 'title: text(), // edited'"
measure=mem
row "peak memory of rename, ordinary table (MB)" "≤ 200 MB" "a <= 200" warm_reset "$tt -C ../warm --yes rename accounts2 ledgers2"
row "peak memory of rename, hub table (MB)" "≤ 200 MB" "a <= 200" warm_reset "$tt -C ../warm --yes rename accounts clients"
measure=time
echo
echo "load: $(cut -d' ' -f1-3 /proc/loadavg); $runs pairs a row; $(date -u +%Y-%m-%d)"
