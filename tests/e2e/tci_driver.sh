#!/bin/bash
# programs/tci/tci_drv.elf drives the Trace Control Interface on the board
# (docs/tci.md): it discovers the encoder, funnel and RAM sink, programs a
# 4 KiB SMEM buffer, traces a workload that wraps it, and disables
# encoder, funnel and sink in the spec's order.  run --dump-sink saves the
# buffer; decode with the ELF starts at the first sync point after the
# oldest byte, says how many bytes were lost, sees the encoder's end
# (flushed when trTeInstTracing went to 0), and its PCs are a contiguous
# run of the hart's retired PCs.
# tci_drv_sram.elf: the sink in SRAM mode with stop-on-wrap and the PIB sink
# beside it; its trRamData read-out equals the dump; the dump decodes whole
# from the start of the traced window; the PIB stream (--pib) is the whole
# window, of which the dump's PCs are the first part.
# tci_drv_nt.elf: the SMEM driver selecting N-Trace (trTeFormat 1): the
# dump's .attrs are N-Trace settings with container=mseo, the buffer holds
# MSEO messages (no encapsulation), and decoding it (from the first message
# after the oldest byte; the first ProgTraceSync after it) gives a
# contiguous run of the hart's PCs, ended by the encoder's end message.
# tci_drv_data.elf: the SMEM driver with data trace (trTeDataControl):
# te_data beside te_inst, encapsulation type field 1 bit; decoding the dump
# gives a contiguous run of the hart's PCs and of its loads/stores
# (run --data-out), the data packets before the first reference skipped.
# sbi/tci_drv.elf: the same driver as an S-mode payload of Debian's
# OpenSBI 1.1 (run --bios fw_jump.elf --kernel): it finds the components
# through the device tree OpenSBI passes on (a1), reaches their registers
# from S-mode (OpenSBI's PMP leaves S the whole address space) and its
# dump decodes like the M-mode one (skipped without the opensbi package).
set -u
: "${RVT_SRC:?}" "${RVT_BIN:?}" "${RVT_TMP:?}"
command -v python3 >/dev/null || exit 77
T="$RVT_TMP/tci_driver"
mkdir -p "$T"
fail=0
bad() { echo "FAIL: $*"; fail=1; }
elf="$RVT_SRC/programs/tci/tci_drv.elf"
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

# a contiguous run of lines of hart.pcs (or of the hart's data accesses):
# "first_index count" of it, or exit 1
run_in() {
    python3 - "$1" "$2" <<'PY'
import sys
hart = open(sys.argv[1]).read().splitlines()
dec = open(sys.argv[2]).read().splitlines()
n = len(dec)
at = [i for i in range(len(hart) - n + 1) if n and hart[i] == dec[0] and hart[i:i + n] == dec]
if len(at) != 1:
    sys.exit("FAIL: %s: not one contiguous run of the hart's PCs (%d matches)" % (sys.argv[2], len(at)))
print(at[0], n)
PY
}
elf="$RVT_SRC/programs/tci/tci_drv_sram.elf"
"$RVT_BIN" run "$elf" --quiet --dump-sink "$T/sram.bin" --pib "$T/pib.bin" --pcs-retired "$T/hart2.pcs" \
    >"$T/out" || bad "run sram: $(cat "$T/out")"
sum=$(python3 -c 'import struct,sys; d=open(sys.argv[1],"rb").read(); print("0x%x" % (sum(struct.unpack("<%dI" % (len(d)//4), d)) & 0xffffffff))' "$T/sram.bin")
grep -q "tci_drv_sram: PASS value=$sum" "$T/out" || bad "trRamData read-out != dump ($sum): $(cat "$T/out")"
grep -qx "sink_stop_on_wrap=1" "$T/sram.bin.attrs" && grep -qx "sink_wrap=1" "$T/sram.bin.attrs" &&
    grep -qx "sink_start=0x0" "$T/sram.bin.attrs" || bad "sram.bin.attrs: $(cat "$T/sram.bin.attrs")"
"$RVT_BIN" decode "$T/sram.bin" --elf "$elf" --pcs "$T/sram.pcs" 2>"$T/err" || bad "decode sram: $(cat "$T/err")"
grep -q "stopped on wrap: read whole" "$T/err" || bad "sram: $(cat "$T/err")"
"$RVT_BIN" decode "$T/pib.bin" --container encap --elf "$elf" --pcs "$T/pib.pcs" 2>"$T/err" ||
    bad "decode pib: $(cat "$T/err")"
grep -q "incomplete trace" "$T/err" && bad "pib: the encoder's end is missing"
s=$(run_in "$T/hart2.pcs" "$T/sram.pcs") || bad "$s"
p=$(run_in "$T/hart2.pcs" "$T/pib.pcs") || bad "$p"
set -- $s $p
[ $# = 4 ] && [ "$1" = "$3" ] && [ "$2" -lt "$4" ] || bad "sram run ($s) is not the start of the pib run ($p)"

elf="$RVT_SRC/programs/tci/tci_drv_nt.elf"
"$RVT_BIN" run "$elf" --quiet --dump-sink "$T/nt.bin" --pcs-retired "$T/hart4.pcs" >"$T/out" ||
    bad "run N-Trace: $(cat "$T/out")"
grep -q "tci_drv: PASS" "$T/out" || bad "N-Trace driver: $(cat "$T/out")"
grep -qx "trTeFormat=1" "$T/nt.bin.attrs" && grep -qx "container=mseo" "$T/nt.bin.attrs" &&
    grep -qx "sink_wrap=1" "$T/nt.bin.attrs" || bad "nt.bin.attrs: $(cat "$T/nt.bin.attrs")"
grep -q "^container=encap" "$T/nt.bin.attrs" && bad "N-Trace dump says encap"
"$RVT_BIN" decode "$T/nt.bin" --elf "$elf" --pcs "$T/nt.pcs" 2>"$T/err" || bad "decode N-Trace: $(cat "$T/err")"
grep -q "sink buffer wrapped (trRamWP 0x80002[0-9a-f]*): [0-9]* bytes before the first synchronisation point lost" \
    "$T/err" || bad "N-Trace: the wrap was not reported: $(cat "$T/err")"
grep -q "incomplete trace" "$T/err" && bad "N-Trace: the encoder's end message is missing"
s=$(run_in "$T/hart4.pcs" "$T/nt.pcs") || bad "$s"
set -- $s
[ $# = 2 ] && [ "$2" -ge 1000 ] || bad "N-Trace: only '$s' decoded PCs"

elf="$RVT_SRC/programs/tci/tci_drv_data.elf"
"$RVT_BIN" run "$elf" --quiet --dump-sink "$T/dt.bin" --pcs-retired "$T/hart5.pcs" --data-out "$T/hart5.data" \
    >"$T/out" || bad "run data: $(cat "$T/out")"
grep -q "tci_drv: PASS" "$T/out" || bad "data driver: $(cat "$T/out")"
grep -qx "data_trace=1" "$T/dt.bin.attrs" && grep -qx "encap_type_bits=1" "$T/dt.bin.attrs" &&
    grep -qx "data_compress=2" "$T/dt.bin.attrs" || bad "dt.bin.attrs: $(cat "$T/dt.bin.attrs")"
"$RVT_BIN" decode "$T/dt.bin" --elf "$elf" --pcs "$T/dt.pcs" --data-out "$T/dt.data" 2>"$T/err" ||
    bad "decode data: $(cat "$T/err")"
s=$(run_in "$T/hart5.pcs" "$T/dt.pcs") || bad "$s"
d=$(run_in "$T/hart5.data" "$T/dt.data") || bad "$d"
set -- $s $d
[ $# = 4 ] && [ "$2" -ge 1000 ] && [ "$4" -ge 100 ] || bad "data: only '$s' PCs, '$d' accesses"

fw=/usr/lib/riscv64-linux-gnu/opensbi/generic/fw_jump.elf
[ -f "$fw" ] || { echo "skip the S-mode driver: opensbi not installed"; exit $fail; }
elf="$RVT_SRC/programs/sbi/tci_drv.elf"
"$RVT_BIN" run --bios "$fw" --kernel "$elf" --quiet --dump-sink "$T/smode.bin" --pcs-retired "$T/hart3.pcs" \
    >"$T/out" || bad "run S-mode: $(tail -3 "$T/out")"
grep -q "tci_drv: components from the device tree, encoder at 0x18000000" "$T/out" ||
    bad "S-mode driver did not find the encoder in the device tree"
grep -q "tci_drv: PASS" "$T/out" || bad "S-mode driver: $(tail -3 "$T/out")"
grep -qx "sink_wrap=1" "$T/smode.bin.attrs" && grep -qx "sink_limit=0x80202ffc" "$T/smode.bin.attrs" ||
    bad "smode.bin.attrs: $(cat "$T/smode.bin.attrs")"
"$RVT_BIN" decode "$T/smode.bin" --elf "$elf" --pcs "$T/smode.pcs" 2>"$T/err" || bad "decode S-mode: $(cat "$T/err")"
grep -q "incomplete trace" "$T/err" && bad "S-mode: the encoder's end was not flushed to the sink"
s=$(run_in "$T/hart3.pcs" "$T/smode.pcs") || bad "$s"
set -- $s
[ $# = 2 ] && [ "$2" -ge 1000 ] || bad "S-mode: only '$s' decoded PCs"
exit $fail
