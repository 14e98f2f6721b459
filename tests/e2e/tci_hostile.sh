#!/bin/bash
# Hostile register writes from a program (programs/tci/tci_hostile.elf: 20000
# random stores and loads over the whole Trace Control Interface window,
# encoders, funnel and sinks switched on and off): the host neither crashes
# nor hangs, and the program gets through all 20000 (0x4e20) writes.
set -u
: "${RVT_SRC:?}" "${RVT_BIN:?}" "${RVT_TMP:?}"
T="$RVT_TMP/tci_hostile"
mkdir -p "$T"
fail=0
bad() { echo "FAIL: $*"; fail=1; }
timeout 120 "$RVT_BIN" run "$RVT_SRC/programs/tci/tci_hostile.elf" --quiet --tci --pib "$T/pib.bin" \
    >"$T/out" 2>"$T/err"
rc=$?
[ $rc = 0 ] || bad "run: exit $rc: $(tail -3 "$T/err")"
grep -q "tci_hostile: PASS value=0x4e20" "$T/out" || bad "program: $(cat "$T/out")"
grep -qi "sanitizer\|segmentation\|internal error" "$T/err" && bad "run: $(head -3 "$T/err")"
exit $fail
