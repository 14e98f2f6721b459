#!/bin/bash
# decode --lcov / --coverage-listing (docs/coverage.md) on programs/cov.elf
# (programs/src/cov.c, gcc -O0 -g; only cov.c has debug info).  Worked
# out by hand from the source, main() calls classify(5) and sum_to(4);
# r = 1 + 10 = 11, so `if (r > 100)` is false and never_called never runs:
#   lines with code: never_called 7-9 (3), classify 11-17 (7),
#     sum_to 19-24 (6), main 26-32 (7): 23.  Not run: 7, 8, 9; 13
#     (return -1: x = 5 is not < 0), 15 (return 0: x != 0), 30: 17 hit.
#   functions: 4, all but never_called run: 3 hit.
#   branches: one conditional branch per condition at -O0 (lines 12, 14,
#     21, 29), two outcomes each: 8.  12, 14 and 29 go one way each; the
#     loop test of line 21 runs 5 times, 4 times into the body and once
#     out: both ways.  5 hit.
# genhtml (lcov) must render the tracefile without a warning and report
# those numbers; both trace protocols must give the same file.
set -eu
command -v genhtml >/dev/null 2>&1 || { echo "SKIP: no genhtml (apt-get install lcov)"; exit 77; }
P="$RVT_SRC/programs/cov.elf"
T="$RVT_TMP/coverage_lcov"; rm -rf "$T"; mkdir -p "$T"
"$RVT_BIN" run "$P" --quiet --etrace "$T/c.te" --te-opt all --ntrace "$T/c.nt" \
    --pcs-retired "$T/c.pcs" > /dev/null
"$RVT_BIN" decode --elf "$P" "$T/c.te" --lcov "$T/te.info" --coverage-listing "$T/te.lst" > "$T/out"
[ ! -s "$T/out" ] || { echo "--lcov alone still wrote a listing to stdout"; exit 1; }
"$RVT_BIN" decode --elf "$P" "$T/c.nt" --lcov="$T/nt.info" > /dev/null
cmp "$T/te.info" "$T/nt.info" || { echo "E-Trace and N-Trace tracefiles differ"; exit 1; }

fail=0
want() { grep -qx "$1" "$2" || { echo "missing in $2: $1"; fail=1; }; }
want "SF:$(cd "$RVT_SRC/programs/src" && pwd -P)/cov.c" "$T/te.info"
want "FNDA:0,never_called" "$T/te.info"
want "FNDA:1,classify" "$T/te.info"
want "DA:21,5" "$T/te.info"              # the loop test: i = 1..5
want "DA:22,4" "$T/te.info"              # the body: 4 times
want "BRDA:21,0,0,4" "$T/te.info"        # bge back into the body: taken 4 times
want "BRDA:21,0,1,1" "$T/te.info"        # and out once

(cd "$T" && genhtml --branch-coverage -o html te.info > gen.out 2> gen.err) ||
    { cat "$T/gen.err"; echo "genhtml failed"; exit 1; }
if grep -qi 'warning\|error' "$T/gen.out" "$T/gen.err"; then
    cat "$T/gen.err"; echo "genhtml warned"; fail=1
fi
summary() { sed -nE "s/^ *$1\\.*: [0-9.]+% \\(([0-9]+) of ([0-9]+) .*/\\1 \\2/p" "$T/gen.out"; }
[ "$(summary lines)" = "17 23" ] || { echo "lines: $(summary lines), want 17 of 23"; fail=1; }
[ "$(summary functions)" = "3 4" ] || { echo "functions: $(summary functions), want 3 of 4"; fail=1; }
[ "$(summary branches)" = "5 8" ] || { echo "branches: $(summary branches), want 5 of 8"; fail=1; }

# The instruction listing: classify's `if (x < 0)` is one bgez, taken
# (x = 5), sum_to's loop test both ways, never_called not run at all.
L="$T/te.lst"
grep -A12 '<classify>:' "$L" | grep -q 'bgez.*; branch one-way, taken 1, not taken 0$' ||
    { echo "classify's bgez is not one-way taken once"; fail=1; }
grep -A30 '<sum_to>:' "$L" | grep -q 'bge.*; branch both-ways, taken 4, not taken 1$' ||
    { echo "sum_to's loop branch is not both-ways 4/1"; fail=1; }
nc=$(awk '/<never_called>:/{on=1; next} /^[0-9a-f]+ </{on=0} on' "$L")
[ -n "$nc" ] && ! echo "$nc" | grep -q ': + ' || { echo "never_called: an instruction marked run"; fail=1; }
# Executed = the distinct PCs the hart retired (all inside .text).
ran=$(sort -u "$T/c.pcs" | wc -l)
grep -qx "# instructions: $ran of [0-9]* executed" "$L" ||
    { echo "listing: $(grep '^# instructions' "$L"), hart retired $ran distinct PCs"; fail=1; }
plus=$(grep -c ': + ' "$L")
[ "$plus" -eq "$ran" ] || { echo "$plus lines marked +, $ran distinct PCs"; fail=1; }

# No debug info: an empty tracefile, the listing still complete.
S="$RVT_SRC/programs/sort.elf"
"$RVT_BIN" run "$S" --quiet --etrace "$T/s.te" --te-opt all --pcs-retired "$T/s.pcs" > /dev/null
"$RVT_BIN" decode --elf "$S" "$T/s.te" --lcov "$T/s.info" --coverage-listing "$T/s.lst"
[ ! -s "$T/s.info" ] || { echo "sort.elf has no DWARF, yet the tracefile has records"; fail=1; }
ran=$(sort -u "$T/s.pcs" | wc -l)
grep -qx "# instructions: $ran of [0-9]* executed" "$T/s.lst" ||
    { echo "sort listing: $(grep '^# instructions' "$T/s.lst"), hart retired $ran distinct PCs"; fail=1; }
[ "$fail" -eq 0 ] && echo "coverage: ok (lines 17/23, functions 3/4, branches 5/8)"
exit "$fail"
