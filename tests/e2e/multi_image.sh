#!/bin/bash
# decode --elf FILE[@KEY], repeatable (include/rvtrace/mem.h, docs/cli.md):
# several images, each in every address space or in the one its key names.
# crc.elf and fptr.elf both load at 0x80000000; the hart runs crc in M mode
# (E-Trace privilege 3, context 0; N-Trace source 0).  Keyed for M mode or
# source 0, crc is the code decoded even with fptr given for every space
# (the more specific key wins); keyed for U mode it is never used.  A bad
# key is a usage error.  The checks that need the keyed image alone pass
# --no-image-map: run writes t.te.images naming crc.elf for every space.
set -u
: "${RVT_SRC:?}" "${RVT_BIN:?}" "${RVT_TMP:?}"
T="$RVT_TMP/multi_image"; rm -rf "$T"; mkdir -p "$T"
P="$RVT_SRC/programs"
[ -f "$P/crc.elf" ] && [ -f "$P/fptr.elf" ] || { echo "no programs: skipped"; exit 77; }
fail=0
"$RVT_BIN" run "$P/crc.elf" --quiet --pcs-retired "$T/want.pcs" --etrace "$T/t.te" \
    --ntrace "$T/t.nt" >/dev/null 2>"$T/run.err" || { echo "FAIL run: $(head -2 "$T/run.err")"; exit 1; }

check() {   # name, expected exit, trace, decode arguments...
    local name=$1 want=$2 trace=$3; shift 3
    "$RVT_BIN" decode "$@" "$trace" --pcs "$T/got.pcs" >/dev/null 2>"$T/err"
    local rc=$?
    if [ $rc -ne "$want" ]; then
        echo "FAIL $name: exit $rc, want $want: $(head -2 "$T/err")"; fail=1; return
    fi
    if [ "$want" = 0 ] && ! cmp -s "$T/got.pcs" "$T/want.pcs"; then
        echo "FAIL $name: PCs differ: $(cmp "$T/got.pcs" "$T/want.pcs" | head -1)"; fail=1
    fi
}

for tr in t.te t.nt; do
    check "$tr one image" 0 "$T/$tr" --elf "$P/crc.elf"
    check "$tr keyed M over a wildcard" 0 "$T/$tr" --elf "$P/fptr.elf" --elf "$P/crc.elf@priv=M"
    check "$tr keyed ctx 0, source 0" 0 "$T/$tr" --elf "$P/fptr.elf" --elf "$P/crc.elf@ctx=0,src=0,priv=3"
    check "$tr keyed U only" 1 "$T/$tr" --no-image-map --elf "$P/crc.elf@priv=U"
done
check "keyed for another source" 1 "$T/t.nt" --no-image-map --elf "$P/crc.elf@src=1"
for bad in "priv=X" "ctx=1,ctx=2" "src=4096" "foo=1" "ctx=" "priv=M,"; do
    check "bad key $bad" 2 "$T/t.te" --elf "$P/crc.elf@$bad"
    grep -q "want FILE@KEY" "$T/err" || { echo "FAIL bad key $bad: no usage message"; fail=1; }
done
# the listing reads the keyed image too: crc's code, named, never "<no code>"
"$RVT_BIN" decode --no-image-map --elf "$P/fptr.elf" --elf "$P/crc.elf@priv=M" "$T/t.te" --listing \
    >"$T/listing" 2>/dev/null || { echo "FAIL keyed listing: status $?"; fail=1; }
grep -q '<no code>' "$T/listing" && { echo "FAIL keyed listing: <no code> lines"; fail=1; }
grep -qE '^[0-9a-f]{16} <main> \[crc.elf\]:$' "$T/listing" ||
    { echo "FAIL keyed listing: no '<main> [crc.elf]' header"; fail=1; }
check "missing keyed file" 1 "$T/t.te" --elf "$T/none.elf@priv=M"
[ $fail = 0 ] && echo "multi_image: keyed and repeated --elf checked"
exit $fail
