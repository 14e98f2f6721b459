#!/bin/bash
# verify passes only a trace that takes the program to its end (issue #13
# item 5): an empty .tvt and a trace cut after a few items verified nothing
# or a prefix and must fail, saying so; the whole trace still matches.
set -u
: "${RVT_SRC:?}" "${RVT_BIN:?}" "${RVT_TMP:?}"
t="$RVT_TMP/verify_end"
rm -rf "$t"; mkdir -p "$t"
P=$RVT_SRC/programs/sort.elf
fail=0
"$RVT_BIN" run "$P" --quiet --tv "$t/s.tvt" >/dev/null || { echo "FAIL run --tv"; exit 1; }
"$RVT_BIN" verify --elf "$P" "$t/s.tvt" >"$t/out" 2>&1 || { echo "FAIL whole trace: $(cat "$t/out")"; fail=1; }
: >"$t/empty.tvt"
head -c 35 "$t/s.tvt" >"$t/head35.tvt"
# cut at an item boundary in the middle: the items before it are sound
off=$(( 16#$("$RVT_BIN" dump "$t/s.tvt" | sed -n 5000p | cut -d' ' -f1) ))
head -c "$off" "$t/s.tvt" >"$t/half.tvt"
for f in empty head35 half; do
    "$RVT_BIN" verify --elf "$P" "$t/$f.tvt" >"$t/out" 2>"$t/err"
    rc=$?
    if [ $rc -ne 1 ]; then echo "FAIL $f.tvt: status $rc, want 1: $(cat "$t/out")"; fail=1; continue; fi
    grep -q "matches" "$t/out" && { echo "FAIL $f.tvt: says it matches"; fail=1; }
    grep -q "$f.tvt: the trace ends .* before the program did" "$t/err" ||
        { echo "FAIL $f.tvt: no 'ends before the program did': $(cat "$t/err")"; fail=1; }
    echo "ok   $f.tvt"
done
exit $fail
