#!/bin/bash
# programs/tci_drv.elf drives the Trace Control Interface on the board
# (docs/tci.md): it discovers the encoder, funnel and RAM sink, programs a
# 4 KiB SMEM buffer, traces a workload that wraps it, and disables
# encoder, funnel and sink in the spec's order.  run --dump-sink saves the
# buffer; decode with the ELF starts at the first sync point after the
# oldest byte, says how many bytes were lost, sees the encoder's end
# (flushed when trTeInstTracing went to 0), and its PCs are a contiguous
# run of the hart's retired PCs.
set -u
: "${RVT_SRC:?}" "${RVT_BIN:?}" "${RVT_TMP:?}"
command -v python3 >/dev/null || exit 77
T="$RVT_TMP/tci_driver"
mkdir -p "$T"
fail=0
bad() { echo "FAIL: $*"; fail=1; }
elf="$RVT_SRC/programs/tci_drv.elf"
"$RVT_BIN" run "$elf" --quiet --dump-sink "$T/sink.bin" --pcs-retired "$T/hart.pcs" >"$T/out" ||
    bad "run: $(cat "$T/out")"
grep -q "tci_drv: PASS" "$T/out" || bad "driver: $(cat "$T/out")"
[ "$(stat -c %s "$T/sink.bin")" = 4096 ] || bad "sink.bin is not the 4 KiB buffer"
grep -qx "sink_wrap=1" "$T/sink.bin.attrs" && grep -qx "sink_limit=0x80002ffc" "$T/sink.bin.attrs" &&
    grep -qx "container=encap" "$T/sink.bin.attrs" && grep -qx "resync_mode=packets" "$T/sink.bin.attrs" ||
    bad "sink.bin.attrs: $(cat "$T/sink.bin.attrs")"
"$RVT_BIN" decode "$T/sink.bin" --elf "$elf" --pcs "$T/dec.pcs" 2>"$T/err" || bad "decode: $(cat "$T/err")"
grep -q "sink buffer wrapped (trRamWP 0x80002[0-9a-f]*): [0-9]* bytes before the first synchronisation point lost" \
    "$T/err" || bad "decode did not report the loss: $(cat "$T/err")"
grep -q "incomplete trace" "$T/err" && bad "the encoder's end was not flushed to the sink"
python3 - "$T/hart.pcs" "$T/dec.pcs" "$elf" <<'PY' || fail=1
import sys
hart = open(sys.argv[1]).read().split()
dec = open(sys.argv[2]).read().split()
n = len(dec)
if n < 1000:
    sys.exit("FAIL: only %d decoded PCs" % n)
at = [i for i in range(len(hart) - n + 1) if hart[i] == dec[0] and hart[i:i + n] == dec]
if len(at) != 1:
    sys.exit("FAIL: the decoded PCs are not one contiguous run of the hart's (%d matches)" % len(at))
PY
exit $fail
