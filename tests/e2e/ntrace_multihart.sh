#!/bin/bash
# N-Trace with several harts: `rvtrace encode --ntrace A.rvi B.rvi ...` runs
# one encoder per input (hart) with its own SRC id, merges their messages by
# record time into one stream; `rvtrace decode --src N` keeps one source.
# Each decoded source must equal its hart's retired PCs.
set -u
T="$RVT_TMP/ntrace_multihart"
mkdir -p "$T"
P="$RVT_SRC/programs"
for p in amo fptr setjmp; do
    [ -f "$P/$p.elf" ] || { echo "no programs/$p.elf: skipped"; exit 77; }
    "$RVT_BIN" run "$P/$p.elf" --pcs-retired "$T/$p.pcs" --ingress "$T/$p.rvi" >/dev/null 2>&1 ||
        { echo "FAIL run $p"; exit 1; }
done
fail=0
check() {   # check STREAM SRC PROGRAM
    "$RVT_BIN" decode --elf "$P/$3.elf" "$1" --src "$2" --pcs "$T/got.pcs" 2>"$T/err"
    cmp -s "$T/got.pcs" "$T/$3.pcs" || { echo "FAIL $1 src $2 ($3): $(cmp "$T/got.pcs" "$T/$3.pcs" | head -1)"; head -2 "$T/err"; fail=1; }
}
# Two harts, automatic ids (1-bit SRC, ids 0 and 1).
"$RVT_BIN" encode --ntrace "$T/amo.rvi" "$T/fptr.rvi" -o "$T/two.nt" --nt-opt htm,implicit-return=3,repeat-history ||
    { echo "FAIL encode two"; exit 1; }
grep -q '^trTeSrcBits=1$' "$T/two.nt.attrs" || { echo "FAIL: two harts should get a 1-bit SRC"; fail=1; }
check "$T/two.nt" 0 amo
check "$T/two.nt" 1 fptr
# The messages interleave: the first SRC=1 message comes before the last SRC=0 one.
"$RVT_BIN" dump "$T/two.nt" | awk '/ SRC=0x1 /{if (!one) one=NR} / SRC=0x0 /{zero=NR} END{exit !(one && zero && one < zero)}' ||
    { echo "FAIL: the two sources do not interleave"; fail=1; }
# Three harts with --nt-src BITS:BASE (ids 5, 6, 7 of 4 bits), BTM.
"$RVT_BIN" encode --ntrace "$T/amo.rvi" "$T/fptr.rvi" "$T/setjmp.rvi" -o "$T/three.nt" --nt-opt btm --nt-src 4:5 ||
    { echo "FAIL encode three"; exit 1; }
check "$T/three.nt" 5 amo
check "$T/three.nt" 6 fptr
check "$T/three.nt" 7 setjmp
# Ids that do not fit are refused.
if "$RVT_BIN" encode --ntrace "$T/amo.rvi" "$T/fptr.rvi" -o "$T/bad.nt" --nt-src 1:1 2>/dev/null; then
    echo "FAIL: 2 harts from id 1 in a 1-bit SRC were accepted"; fail=1
fi
[ $fail = 0 ] && echo "ntrace multi-hart: merged and split back"
exit $fail
