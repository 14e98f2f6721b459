#!/bin/bash
# The Trace Control Interface with several harts (issue #16; docs/tci.md
# "Several harts"): run --harts N --tci puts one Trace Encoder register
# block per hart at RVT_TCI_TE(h) = 0x18000000 + 0x1000 h, each in the
# device tree with `cpus` = its hart's phandle, and one funnel with N inputs
# in front of the sinks.  --etrace OUT has rvtrace program the registers
# as a driver would, each encoder's trTeInstFeatures with srcID = hartid
# (trTeSrcBits = the bits N ids need): the PIB sink's encapsulated stream
# carries both harts' packets, and decoding srcID I gives exactly the PCs
# hart I retired.  The driver tci_smp.elf does the programming itself.
set -u
: "${RVT_SRC:?}" "${RVT_BIN:?}" "${RVT_TMP:?}"
T="$RVT_TMP/tci_harts"
mkdir -p "$T"
P="$RVT_SRC/programs/smp.elf"
[ -f "$P" ] || { echo "no programs/smp.elf: skipped"; exit 77; }
fail=0
bad() { echo "FAIL $*"; fail=1; }

for n in 2 4; do
    "$RVT_BIN" run "$P" --harts "$n" --tci --etrace "$T/t$n.te" --pcs-retired "$T/p$n.txt" --quiet \
        >"$T/out" 2>"$T/err" || { bad "run --harts $n --tci: $(head -2 "$T/err")"; continue; }
    bits=$(( n > 2 ? 2 : 1 ))
    grep -q "^encap_src_bits=$bits$" "$T/t$n.te.attrs" || bad "--harts $n: encap_src_bits is not $bits"
    for ((i = 0; i < n; i++)); do
        "$RVT_BIN" decode "$T/t$n.te" --elf "$P" --src "$i" --pcs "$T/d$i.txt" 2>"$T/derr" ||
            bad "decode --src $i: $(head -2 "$T/derr")"
        cmp -s "$T/d$i.txt" "$T/p$n-hart$i.txt" || bad "--harts $n: srcID $i != hart $i's PCs"
    done
    [ $fail = 0 ] && echo "ok   --harts $n --tci: the funnel's stream splits into the $n harts' PCs"
done

# The driver programs/tci/tci_smp.elf programs both encoders itself
# (srcID = hartid), the funnel and an SMEM sink; hart 1 is traced from its
# wake-up (its encoder was enabled while it slept in wfi), hart 0 from the
# end of its set-up: each srcID of the dump is one contiguous run of its
# hart's retired PCs, ending at the disable sequence.
command -v python3 >/dev/null && [ -f "$RVT_SRC/programs/tci/tci_smp.elf" ] && {
    E="$RVT_SRC/programs/tci/tci_smp.elf"
    "$RVT_BIN" run "$E" --harts 2 --tci --dump-sink "$T/sink.bin" --pcs-retired "$T/sp.txt" --quiet \
        >"$T/out" 2>"$T/err" || bad "tci_smp: $(cat "$T/out" "$T/err" | head -3)"
    grep -q "tci_smp: PASS" "$T/out" || bad "tci_smp: $(cat "$T/out")"
    grep -qx "sink_wrap=0" "$T/sink.bin.attrs" && grep -qx "encap_src_bits=1" "$T/sink.bin.attrs" ||
        bad "sink.bin.attrs: $(cat "$T/sink.bin.attrs")"
    for i in 0 1; do
        "$RVT_BIN" decode "$T/sink.bin" --elf "$E" --src "$i" --pcs "$T/sd$i.txt" 2>"$T/derr" ||
            bad "decode the sink --src $i: $(head -2 "$T/derr")"
        python3 - "$T/sp-hart$i.txt" "$T/sd$i.txt" "$i" <<'PY' || fail=1
import sys
hart = open(sys.argv[1]).read().split()
dec = open(sys.argv[2]).read().split()
n = len(dec)
at = [i for i in range(len(hart) - n + 1) if n and hart[i] == dec[0] and hart[i:i + n] == dec]
if n < 10000 or len(at) != 1:
    sys.exit("FAIL: srcID %s: %d PCs, %d places in the hart's" % (sys.argv[3], n, len(at)))
if sys.argv[3] == "1" and not 0 < at[0] < 100:
    sys.exit("FAIL: hart 1's trace starts at its PC %d, not at its wake-up" % at[0])
print("ok   tci_smp: srcID %s = hart %s's PCs %d..%d" % (sys.argv[3], sys.argv[3], at[0], at[0] + n - 1))
PY
    done
}

# The device tree: an encoder per hart naming its cpu (phandles 1 and 5).
if command -v dtc >/dev/null; then
    "$RVT_BIN" run "$P" --harts 2 --tci --dump-dtb "$T/two.dtb" --quiet >/dev/null || bad "--dump-dtb"
    dtc -I dtb -O dts "$T/two.dtb" 2>/dev/null >"$T/two.dts"
    for e in "trace-encoder@18000000 1" "trace-encoder@18001000 5"; do
        set -- $e
        awk -v node="$1 {" -v want="cpus = <0x0$2>;" '$0 ~ node {in_node=1} in_node && index($0, want) {ok=1} in_node && /};/ {in_node=0} END {exit !ok}' \
            "$T/two.dts" && echo "ok   $1 names cpu phandle $2" || bad "$1 without cpus = <$2>"
    done
fi
exit $fail
