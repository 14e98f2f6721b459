#!/bin/bash
# rvtrace report (issue #17 "Profiles"): the same profile from every input
# rvtrace reads: an E-Trace and an N-Trace stream (through decode), the
# ingress records (.rvi) and the hart's own run.  recurse.elf
# (programs/src/recurse.c) calls fib(22) once from main: fib runs
# 2 * F(23) - 1 = 57,313 times (F(23) = 28,657), so 57,312 calls come from
# fib itself; hanoi(12) runs 2^13 - 1 = 8,191 times; deep(4000) 4,001.
# Self counts add up to the instructions the hart retired; the Children
# count of a function is the sum of the folded stacks it appears in.
set -eu
P="$RVT_SRC/programs/recurse.elf"
T="$RVT_TMP/report_profile"; rm -rf "$T"; mkdir -p "$T"
fail=0
bad() { echo "FAIL: $*"; fail=1; }
"$RVT_BIN" run "$P" --quiet --etrace "$T/r.te" --ntrace "$T/r.nt" --ingress "$T/r.rvi" \
    --pcs-retired "$T/r.pcs" > /dev/null
retired=$(wc -l < "$T/r.pcs")
"$RVT_BIN" report --elf "$P" "$T/r.te" > "$T/te.txt"
"$RVT_BIN" report --elf "$P" "$T/r.nt" > "$T/nt.txt"
"$RVT_BIN" report --elf "$P" "$T/r.rvi" > "$T/rvi.txt"
"$RVT_BIN" report --elf="$P" "$T/r.rvi" > "$T/rvi2.txt"    # --elf=P is --elf P
cmp -s "$T/rvi.txt" "$T/rvi2.txt" || bad "--elf=PROG differs from --elf PROG"
"$RVT_BIN" report "$P" --quiet > "$T/run.out"
grep -v '^recurse: PASS' "$T/run.out" > "$T/run.txt"
# The function rows (share, counts, calls, name) without the cycles the
# hart's run and the .rvi file add.
rows() { awk '/^# Children/ {on = 1; next} /^#$/ {on = 0} on { print $1, $2, $3, $4, $5, $NF }' "$1"; }
for k in nt rvi run; do
    cmp -s <(rows "$T/te.txt") <(rows "$T/$k.txt") || { bad "report of the $k input differs from the E-Trace one"
        diff <(rows "$T/te.txt") <(rows "$T/$k.txt") | head -5; }
done
grep -q "^# 1,[0-9][0-9][0-9],[0-9][0-9][0-9] instructions in 14 functions$" "$T/te.txt" ||
    bad "header: $(sed -n 2p "$T/te.txt")"
grep -q "cycles from the first timestamp to the last" "$T/run.txt" || bad "the run's report has no cycles"
num() { tr -d , <<<"$1"; }
self_sum=$(rows "$T/te.txt" | awk '{gsub(",", "", $4); s += $4} END {print s}')
[ "$self_sum" -eq "$retired" ] || bad "self counts add up to $self_sum, the hart retired $retired"
calls() { rows "$T/te.txt" | awk -v f="$1" '$6 == f {gsub(",", "", $5); print $5}'; }
[ "$(calls fib)" = 57313 ] || bad "fib called $(calls fib) times, expected 57313"
[ "$(calls hanoi)" = 8191 ] || bad "hanoi called $(calls hanoi) times, expected 8191"
[ "$(calls deep)" = 4001 ] || bad "deep called $(calls deep) times, expected 4001"
[ "$(calls main)" = 1 ] || bad "main called $(calls main) times, expected 1"
# Children of hanoi: every folded stack hanoi is in (no stack is deeper
# than 1024 frames there).
"$RVT_BIN" decode --elf "$P" "$T/r.te" --folded > "$T/te.folded"
want=$(awk '$1 ~ /(^|;)hanoi(;|$)/ {s += $NF} END {print s}' "$T/te.folded")
got=$(rows "$T/te.txt" | awk '$6 == "hanoi" {gsub(",", "", $3); print $3}')
[ "$got" = "$want" ] || bad "hanoi with callees: $got, the folded stacks say $want"
# Sorted by Children (default), then --sort self / name.
rows "$T/te.txt" | awk '{gsub(",", "", $3); print $3}' | sort -c -n -r || bad "not sorted by Children"
"$RVT_BIN" report --elf "$P" "$T/r.te" --sort self > "$T/self.txt"
rows "$T/self.txt" | awk '{gsub(",", "", $4); print $4}' | sort -c -n -r || bad "--sort self: not sorted"
"$RVT_BIN" report --elf "$P" "$T/r.te" --sort name > "$T/name.txt"
rows "$T/name.txt" | awk '{print $6}' | LC_ALL=C sort -c || bad "--sort name: not sorted"
# --percent-limit 5: fib 75.7 %, hanoi 11.2 %, ack 7.9 %, main, _start; not deep (4.5 %).
"$RVT_BIN" report --elf "$P" "$T/r.te" --percent-limit 5 > "$T/pl.txt"
[ "$(rows "$T/pl.txt" | awk '{print $6}' | sort | tr '\n' ' ')" = "_start ack fib hanoi main " ] ||
    bad "--percent-limit 5 keeps: $(rows "$T/pl.txt" | awk '{print $6}' | tr '\n' ' ')"
# JSON: the same numbers.
"$RVT_BIN" report --elf "$P" "$T/r.te" --json > "$T/te.json"
python3 - "$T/te.json" "$retired" <<'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1]))
n = int(sys.argv[2])
assert d["instructions"] == n, d["instructions"]
assert sum(f["self"] for f in d["functions"]) == n
fib = [f for f in d["functions"] if f["name"] == "fib"][0]
assert fib["calls"] == 57313 and fib["children"] == fib["self"], fib
assert d["modes"] == [{"mode": "M", "instructions": n}], d["modes"]
PY
# Callers of hanoi: only main (once); callees of main: fib the most.
"$RVT_BIN" report --elf "$P" "$T/r.te" --callers hanoi > "$T/callers.txt"
[ "$(grep -vc '^#' "$T/callers.txt")" = 1 ] && grep -q "100.00% .* 1  main$" "$T/callers.txt" ||
    { bad "--callers hanoi:"; cat "$T/callers.txt"; }
"$RVT_BIN" report --elf "$P" "$T/r.te" --callees main > "$T/callees.txt"
[ "$(grep -v '^#' "$T/callees.txt" | head -1 | awk '{print $NF}')" = fib ] || bad "--callees main: $(cat "$T/callees.txt")"
# Errors: a usage error is 2, a function that never ran 1.
set +e
"$RVT_BIN" report --elf "$P" "$T/r.te" --sort speed > /dev/null 2>&1; [ $? = 2 ] || bad "--sort speed: not 2"
"$RVT_BIN" report --elf "$P" "$T/r.te" --percent-limit 101 > /dev/null 2>&1; [ $? = 2 ] || bad "--percent-limit 101: not 2"
"$RVT_BIN" report --elf "$P" "$T/r.te" --callers nosuch > /dev/null 2>"$T/err"; [ $? = 1 ] || bad "--callers nosuch: not 1"
grep -q "never ran" "$T/err" || bad "--callers nosuch: $(cat "$T/err")"
"$RVT_BIN" report "$T/r.rvi" > /dev/null 2>&1; [ $? = 2 ] || bad ".rvi without --elf: not 2"
"$RVT_BIN" report > /dev/null 2>&1; [ $? = 2 ] || bad "no input: not 2"
"$RVT_BIN" report --elf "$P" "$T/r.te" --write nosuch=x > /dev/null 2>&1; [ $? = 2 ] || bad "--write nosuch: not 2"
set -e
[ $fail = 0 ] && echo "report: ok ($retired instructions, the same profile from .te, .nt, .rvi and the run)"
exit $fail
