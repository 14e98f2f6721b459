#!/bin/bash
# Hostile register writes from a program (programs/tci_hostile.elf: 20000
# random stores and loads over the whole Trace Control Interface window,
# sinks switched on and off and pointed anywhere in RAM): the host neither
# crashes nor hangs, and says what the program did with exit 0 or 1.
set -u
: "${RVT_SRC:?}" "${RVT_BIN:?}" "${RVT_TMP:?}"
T="$RVT_TMP/tci_hostile"
mkdir -p "$T"
fail=0
bad() { echo "FAIL: $*"; fail=1; }
timeout 120 "$RVT_BIN" run "$RVT_SRC/programs/tci_hostile.elf" --quiet --tci --pib "$T/pib.bin" \
    >"$T/out" 2>"$T/err"
rc=$?
[ $rc = 0 ] || [ $rc = 1 ] || bad "run: exit $rc: $(tail -3 "$T/err")"
grep -qi "sanitizer\|segmentation\|internal error" "$T/err" && bad "run: $(head -3 "$T/err")"
exit $fail
