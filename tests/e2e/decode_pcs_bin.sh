#!/bin/bash
# decode --pcs-bin (docs/formats.md "Binary PC lists"): the same PCs as
# --pcs, as the hart retired them, in 4 bytes each for an RV32 program and
# 8 for RV64; rvtrace dump turns the list back into --pcs's text; a list
# cut inside a PC is refused with the offset where that PC starts.
set -eu
T="$RVT_TMP/pcs_bin"; mkdir -p "$T"
for prog in crc crc_rv32; do
    P="$RVT_SRC/programs/$prog.elf"
    "$RVT_BIN" run "$P" --quiet --etrace "$T/$prog.te" --ntrace "$T/$prog.nt" \
        --pcs-retired "$T/$prog.hart.pcs" > /dev/null
    for k in te nt; do
        "$RVT_BIN" decode --elf "$P" "$T/$prog.$k" --pcs "$T/$prog.$k.pcs" --pcs-bin "$T/$prog.$k.pcb"
        cmp "$T/$prog.$k.pcs" "$T/$prog.hart.pcs" || { echo "$prog $k: --pcs differs from the hart's"; exit 1; }
        "$RVT_BIN" dump "$T/$prog.$k.pcb" > "$T/$prog.$k.back"
        cmp "$T/$prog.$k.back" "$T/$prog.hart.pcs" || { echo "$prog $k: dump of --pcs-bin differs"; exit 1; }
    done
    n=$(wc -l < "$T/$prog.hart.pcs")
    w=8; [ "$prog" = crc_rv32 ] && w=4
    size=$(stat -c %s "$T/$prog.nt.pcb")
    [ "$size" -eq $((8 + n * w)) ] || { echo "$prog: $size bytes for $n PCs of $w bytes"; exit 1; }
    head -c 8 "$T/$prog.nt.pcb" | od -An -tx1 | tr -d ' \n' > "$T/hdr"
    want="525654504353$(printf '01%02x' $((w * 8)))"   # "RVTPCS", version 1, xlen
    [ "$(cat "$T/hdr")" = "$want" ] || { echo "$prog: header $(cat "$T/hdr"), want $want"; exit 1; }
done
# A list cut 3 bytes into its second PC: the error names the file and the
# offset of that PC (8 + 8), and the status is 1.
head -c 19 "$T/crc.nt.pcb" > "$T/cut.pcb"
set +e
"$RVT_BIN" dump "$T/cut.pcb" > /dev/null 2> "$T/err"; rc=$?
set -e
[ "$rc" -eq 1 ] || { echo "cut list: exit status $rc"; exit 1; }
grep -q "cut.pcb.*offset 16" "$T/err" || { echo "cut list: $(cat "$T/err")"; exit 1; }
echo "decode --pcs-bin: ok"
