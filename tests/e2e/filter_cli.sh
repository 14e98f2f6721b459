#!/bin/bash
# The filter/trigger options of `rvtrace run` (docs/filter.md): every bad
# specification is a usage error (exit 2) whose message names the option
# and the problem; good ones run, and the summary says what was traced.
set -u
T="$RVT_TMP/filter_cli"
mkdir -p "$T"
P="$RVT_SRC/programs/sort.elf"
[ -f "$P" ] || { echo "no programs/sort.elf: skipped"; exit 77; }
fail=0
bad() {  # expected message fragment, options...
    local want=$1; shift
    "$RVT_BIN" run "$P" --quiet "$@" >/dev/null 2>"$T/err"
    local rc=$?
    if [ $rc -ne 2 ] || ! grep -qF -- "$want" "$T/err"; then
        echo "FAIL: run $* -> exit $rc, '$(head -1 "$T/err")' (want exit 2 and '$want')"; fail=1
    fi
}
bad "expected LO:HI" --trace-range main
bad "empty range" --trace-range main:check_sorted
bad "no symbol 'nosuch'" --trace-on nosuch
bad "no symbol 'nosuch'" --comparator 0:p=iaddr:ge:nosuch
bad "uses comparator 1, which no --comparator sets" --comparator 0:p=iaddr:eq:main --filter 0:comp=1
bad "pFunction 6 is reserved" --comparator 0:p=iaddr:mask:0xff
bad "needs the iaddr input" --comparator 0:p=context:eq:1,notify=p
bad "comparator N from 0 to 7" --comparator 8:p=iaddr:eq:main
bad "filter N from 0 to 15" --filter 16:priv=m
bad "at most 3 comparators" --comparator 0:p=iaddr:ge:main --filter 0:comp=0,comp=0,comp=0,comp=0
bad "unknown filter field 'colour'" --filter 0:colour=red
bad "not a known name or a number" --filter 0:priv=x
bad "dsize 3 is not a power of two" --filter 0:dsize=3,data
bad "needs a value" --filter

# A good configuration: the summary line counts the traced blocks.
"$RVT_BIN" run "$P" --trace-range check_sorted:main --trace-notify main --pcs-traced "$T/t.pcs" \
    >/dev/null 2>"$T/err" || { echo "FAIL: good run: $(head -1 "$T/err")"; fail=1; }
n=$(wc -l <"$T/t.pcs")
# one block per instruction at retire width 1: "N of M blocks traced", N = the list's length
grep -q "rvtrace: filter: $(echo "$n" | sed ':a;s/\B[0-9]\{3\}\>/,&/;ta') of 251,466 blocks traced; triggers: 0 on, 0 off, 1 notify" "$T/err" ||
    { echo "FAIL: summary: $(grep filter: "$T/err") ($n PCs listed)"; fail=1; }
[ "$n" -gt 0 ] || { echo "FAIL: nothing traced in check_sorted"; fail=1; }
# encode: the same options on a recorded .rvi (symbols through --elf) give
# the streams a filtered run gives.
"$RVT_BIN" run "$P" --quiet --ingress "$T/all.rvi" >/dev/null 2>&1
for k in etrace:te ntrace:nt; do
    "$RVT_BIN" encode --${k%%:*} "$T/all.rvi" -o "$T/e.${k##*:}" --elf "$P" --trace-range check_sorted:main \
        2>"$T/err" || { echo "FAIL: encode --${k%%:*} with a filter: $(head -1 "$T/err")"; fail=1; }
    "$RVT_BIN" decode --elf "$P" "$T/e.${k##*:}" --pcs "$T/e.pcs" 2>/dev/null
    cmp -s "$T/t.pcs" "$T/e.pcs" || { echo "FAIL: encode --${k%%:*} --trace-range: not the run's traced PCs"; fail=1; }
done
"$RVT_BIN" encode --etrace "$T/all.rvi" -o "$T/x.te" --trace-range check_sorted:main 2>"$T/err"
[ $? -eq 2 ] && grep -q -- "--elf PROG.elf" "$T/err" || { echo "FAIL: symbol without --elf: $(head -1 "$T/err")"; fail=1; }
# Several harts (N-Trace): every input gets the same filters, each its own stage.
"$RVT_BIN" encode --ntrace "$T/all.rvi" "$T/all.rvi" -o "$T/two.nt" --elf "$P" --trace-range check_sorted:main \
    2>"$T/err" || { echo "FAIL: encode --ntrace, two inputs, a filter: $(head -1 "$T/err")"; fail=1; }
for src in 0 1; do
    "$RVT_BIN" decode --elf "$P" "$T/two.nt" --src $src --pcs "$T/e.pcs" 2>/dev/null
    cmp -s "$T/t.pcs" "$T/e.pcs" || { echo "FAIL: two filtered harts: src $src is not the run's traced PCs"; fail=1; }
done

# Data symbols name comparator values: sort.elf's arrays a and b (OBJECT
# symbols in .bss) bound the stores to a; the same filter in numbers (the
# addresses readelf gives) traces the same accesses, all inside [a, b).
if command -v readelf >/dev/null 2>&1; then
    lo=$(readelf -sW "$P" | awk '$4 == "OBJECT" && $8 == "a" { print "0x" $2 }')
    hi=$(readelf -sW "$P" | awk '$4 == "OBJECT" && $8 == "b" { print "0x" $2 }')
    for form in "a:b" "$lo:$hi"; do
        "$RVT_BIN" run "$P" --quiet --te-data --etrace "$T/d.te" --data-out "$T/d-${form%%:*}.data" \
            --comparator "0:p=daddr:ge:${form%%:*},s=daddr:lt:${form##*:},mode=and" --filter 0:comp=0,data \
            >/dev/null 2>"$T/err" || { echo "FAIL: data comparator $form: $(head -1 "$T/err")"; fail=1; }
    done
    cmp -s "$T/d-a.data" "$T/d-$lo.data" && [ -s "$T/d-a.data" ] ||
        { echo "FAIL: data symbols a:b do not trace what $lo:$hi traces"; fail=1; }
    out=$(awk -v lo=$((lo)) -v hi=$((hi)) '{ a = 0; h = "0123456789abcdef"
        for (i = 1; i <= length($3); i++) a = a * 16 + index(h, substr($3, i, 1)) - 1
        if (a < lo || a >= hi) n++ } END { print n + 0 }' "$T/d-a.data")
    [ "$out" = 0 ] || { echo "FAIL: $out traced accesses outside [a, b)"; fail=1; }
else
    echo "no readelf: data-symbol comparator check skipped"
fi

[ $fail -eq 0 ] && echo "filter CLI: all cases behave"
exit $fail
