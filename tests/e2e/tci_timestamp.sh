#!/bin/bash
# Timestamps behind the TCI registers (docs/tci.md "Timestamps"):
# programs/tci/tci_drv_ts.elf sets the encoder's Timestamp unit to count
# the core clock (Internal Core) with trTsEnable; the sink's dump records
# 6 timestamp bytes (trTsWidth 48) in its .attrs, and decoding it shows the
# packets' timestamps as time events: non-decreasing, within the run (the
# clock is the hart's cycle count; retire width 1: one per instruction).
# The exact values are checked by hand in tests/unit/test_tci_timestamp.c.
set -u
: "${RVT_SRC:?}" "${RVT_BIN:?}" "${RVT_TMP:?}"
T="$RVT_TMP/tci_timestamp"
mkdir -p "$T"
fail=0
bad() { echo "FAIL: $*"; fail=1; }
elf="$RVT_SRC/programs/tci/tci_drv_ts.elf"
"$RVT_BIN" run "$elf" --dump-sink "$T/s.bin" >"$T/out" 2>"$T/err" || bad "run: $(cat "$T/out" "$T/err")"
grep -q "tci_drv: PASS" "$T/out" || bad "driver: $(cat "$T/out")"
n=$(sed -n 's/^rvtrace: \([0-9,]*\) instructions retired.*/\1/p' "$T/err" | tr -d ,)
grep -qx "encap_ts_bytes=6" "$T/s.bin.attrs" || bad "no encap_ts_bytes=6 in the .attrs"
"$RVT_BIN" decode "$T/s.bin" --elf "$elf" >"$T/list" 2>"$T/derr" || bad "decode: $(cat "$T/derr")"
grep -q "timestamp 6 bytes" "$T/derr" || bad "decode did not take the timestamps: $(cat "$T/derr")"
sed -n 's/^-- time //p' "$T/list" >"$T/times"
k=$(wc -l <"$T/times")
[ "$k" -ge 100 ] || bad "only $k time events"
sort -n -c "$T/times" 2>/dev/null || bad "time events decrease"
last=$(tail -1 "$T/times")
[ -n "$n" ] && [ "${last:-0}" -gt 0 ] && [ "$last" -le "$n" ] || bad "last time $last not within the run's $n cycles"
[ $fail = 0 ] && echo "ok   $k time events, non-decreasing, last $last of $n cycles"
exit $fail
