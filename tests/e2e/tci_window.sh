#!/bin/bash
# Per-instruction enable (docs/tci.md "Per-instruction enable"): a write
# to the TCI registers takes effect at the store, not per batch of ingress
# records.  programs/tci/tci_window.elf sets trTeInstTracing with one
# store at tci_window_on, runs 10 uncompressed addi and clears it with the
# next store; the sink's buffer must decode to exactly the enabling store
# and the 10 addi: tci_window_on + 4*i for i = 0..10 (the disabling store,
# at + 44, retires after its write: not traced).
set -u
: "${RVT_SRC:?}" "${RVT_BIN:?}" "${RVT_TMP:?}"
T="$RVT_TMP/tci_window"
mkdir -p "$T"
fail=0
elf="$RVT_SRC/programs/tci/tci_window.elf"
"$RVT_BIN" run "$elf" --quiet --dump-sink "$T/s.bin" >"$T/out" || { echo "FAIL: run: $(cat "$T/out")"; exit 1; }
grep -q "tci_drv: PASS" "$T/out" || { echo "FAIL: driver: $(cat "$T/out")"; fail=1; }
on=$(sed -n 's/^tci_window_on 0x\([0-9a-f]*\)$/\1/p' "$T/out")
[ -n "$on" ] || { echo "FAIL: no tci_window_on address"; exit 1; }
for i in $(seq 0 10); do printf '%x\n' $((0x$on + 4 * i)); done >"$T/want"
"$RVT_BIN" decode "$T/s.bin" --elf "$elf" --pcs "$T/got" 2>"$T/err" || { echo "FAIL: decode: $(cat "$T/err")"; fail=1; }
if cmp -s "$T/want" "$T/got"; then echo "ok   the trace is the 11 instructions from 0x$on"
else echo "FAIL: decoded PCs differ from the window:"; diff "$T/want" "$T/got" | head; fail=1; fi
exit $fail
