#!/bin/bash
# N-Trace encoder byte comparison with the task group's reference code
# (../shared/interop/ntrace-refcode): the corpus PC lists are imported with
# the ELF (`rvtrace import pcs`), encoded with settings matching each refcode
# configuration, and the message lists compared with refcode's dumps.
# Masked (corpus README, "refcode's deviations"; docs/conformance-ntrace.md):
#  - SYNC of the first ProgTraceSync: refcode 1, rvtrace 3 (table 26: trace start)
#  - B-TYPE of traps: refcode 0 (it cannot represent traps), rvtrace 2
#  - how history is cut into ResourceFull RCODE 1/2 messages: 9.3 allows any
#    split with the same concatenated bits, so runs of ResourceFull and the
#    HIST of the message that ends them are compared as their concatenated
#    history bits.
# Known differences (asserted to differ, so a fix shows up): co-routine swaps
# with implicit return (refcode pushes only; table 4 pops then pushes) and
# refcode's off-by-one stack wrap on deeprec with a depth-8 stack (mode 3).  amo_smc is left
# out: a PC list and one ELF cannot describe its self-modifying buffer.
set -u
I="${RVT_SHARED:-$RVT_SRC/../shared}/interop"
[ -d "$I/ntrace-refcode" ] || { echo "no interop corpus: skipped"; exit 77; }
R="$I/ntrace-refcode"
T="$RVT_TMP/ntrace_refenc"
mkdir -p "$T"
fail=0; same=0
opts() {
    case "$1" in
    btm) echo btm ;;
    htm) echo htm ;;
    htm-rpt1) echo htm,repeat-history,repeat-kinds=1 ;;
    htm-rpt2) echo htm,repeat-history,repeat-kinds=2 ;;
    htm-cs8) echo htm,implicit-return=3,return-depth=8 ;;
    htm-cs8-rpt2) echo htm,implicit-return=3,return-depth=8,repeat-history,repeat-kinds=2 ;;
    htm-cnt8-rpt2) echo htm,implicit-return=1,return-depth=8,repeat-history,repeat-kinds=2 ;;
    btm-cs8) echo btm,implicit-return=3,return-depth=8 ;;
    esac
}
# Normalise a dump: drop offsets, mask SYNC/B-TYPE, fold ResourceFull runs
# (RCODE 1/2) into one "HISTBITS=" line of their concatenated history bits.
norm() {
    sed 's/^@[0-9]* //; 1s/SYNC=0x[0-9A-F]*/SYNC=x/; s/BTYPE=0x2/BTYPE=0x0/' | awk '
    function bin(h,   s, i, c, v, b) {
        s = ""
        for (i = 3; i <= length(h); i++) {
            c = index("0123456789ABCDEF", substr(h, i, 1)) - 1
            for (b = 8; b >= 1; b = b / 2) { s = s (c >= b ? "1" : "0"); if (c >= b) c -= b }
        }
        sub(/^0*1/, "", s)      # leading zeroes and the stop bit
        return s
    }
    function flush() { if (acc != "") print "HISTBITS=" acc; acc = "" }
    /^ResourceFull\(27\) RCODE=0x[12] / {
        split($3, r, "="); n = 1
        if ($4 ~ /^HREPEAT=/) { split($4, k, "="); n = 0
            h = k[2]; for (i = 3; i <= length(h); i++) n = n * 16 + index("0123456789ABCDEF", substr(h, i, 1)) - 1 }
        b = bin(r[2]); for (i = 0; i < n; i++) acc = acc b
        next
    }
    / HIST=/ {      # the rest of the history ends in this message
        for (i = 1; i <= NF; i++) if ($i ~ /^HIST=/) { split($i, r, "="); acc = acc bin(r[2]); $i = "HIST" }
    }
    { flush(); print }
    END { flush() }'
}
for p in coswap deeprec traps privs branchy rv32mix; do
    zcat "$R/inputs/$p.pcs.gz" | "$RVT_BIN" import pcs - -o "$T/$p.rvi" --elf "$I/programs/$p.elf" 2>/dev/null ||
        { echo "FAIL import $p"; fail=1; }
done
for c in btm htm htm-rpt1 htm-rpt2 htm-cs8 htm-cs8-rpt2 htm-cnt8-rpt2 btm-cs8; do
    for p in coswap deeprec traps privs branchy rv32mix; do
        expect=same
        case "$c/$p" in
        htm-cs8*/coswap|htm-cnt8*/coswap|btm-cs8/coswap) expect=differ ;;   # swaps (item 7)
        htm-cs8*/deeprec|btm-cs8/deeprec) expect=differ ;;   # stack wrap (item 8)
        esac
        if ! "$RVT_BIN" encode --ntrace "$T/$p.rvi" -o "$T/x.nt" --nt-opt "$(opts $c)" 2>"$T/err"; then
            echo "FAIL encode $c/$p: $(head -1 "$T/err")"; fail=1; continue
        fi
        "$RVT_BIN" dump "$T/x.nt" | norm > "$T/ours.txt"
        zcat "$R/$c/$p.msgs.txt.gz" | norm > "$T/ref.txt"
        if cmp -s "$T/ours.txt" "$T/ref.txt"; then
            same=$((same + 1))
            [ $expect = differ ] && { echo "NOW EQUAL (update the known differences): $c/$p"; fail=1; }
        elif [ $expect = same ]; then
            echo "FAIL $c/$p"; diff "$T/ours.txt" "$T/ref.txt" | head -6; fail=1
        fi
    done
done
echo "ntrace refenc: $same of 48 message lists equal to refcode's (7 known differences)"
exit $fail
