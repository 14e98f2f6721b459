#!/bin/bash
# N-Trace interop with the task group's reference code (refcode NexRv):
# every stream of ../shared/interop/ntrace-refcode decodes, with the
# settings given as flags (no sidecar), to exactly the PCs QEMU executed;
# and `rvtrace dump` prints the same messages as the corpus dumps.
# Expected failures (README "Round trips"): htm-cnt8-rpt2 coswap/deeprec
# (counter-only implicit return cannot follow swaps/longjmp, spec 9.2).
# amo_smc decodes with --smc (the buffer's contents, switched per fence.i),
# given beside --elf: it describes the memory the program ran over, an
# input like the ELF, not an encoder setting a sidecar would record (and
# this test gives the settings as flags on purpose); decode_smc.sh checks
# --smc for both protocols (docs/conformance-ntrace.md).
set -u
I="${RVT_SHARED:-$RVT_SRC/../shared}/interop"
[ -d "$I/ntrace-refcode" ] || { echo "no interop corpus: skipped"; exit 77; }
R="$I/ntrace-refcode"
T="$RVT_TMP/ntrace_interop"
mkdir -p "$T"
fail=0
opts() {
    case "$1" in
    btm) echo btm ;;
    htm|htm-rpt1|htm-rpt2) echo htm ;;
    htm-cs8|htm-cs8-rpt2) echo htm,implicit-return=3 ;;
    htm-cnt8-rpt2) echo htm,implicit-return=1 ;;
    btm-cs8) echo btm,implicit-return=3 ;;
    esac
}
for p in coswap deeprec traps privs amo_smc branchy rv32mix; do
    zcat "$R/inputs/$p.pcs.gz" | sed 's/^0x//' > "$T/$p.want"
done
for c in btm htm htm-rpt1 htm-rpt2 htm-cs8 htm-cs8-rpt2 htm-cnt8-rpt2 btm-cs8; do
    for p in coswap deeprec traps privs amo_smc branchy rv32mix; do
        extra=()
        [ "$p" = amo_smc ] && extra=(--smc "$R/inputs/amo_smc.smc.txt")
        "$RVT_BIN" decode --elf "$I/programs/$p.elf" "$R/$c/$p.nt" --nt-opt "$(opts $c)" \
            "${extra[@]}" --pcs "$T/got.pcs" 2>"$T/err"
        expect_fail=0
        [ "$c" = htm-cnt8-rpt2 ] && { [ "$p" = coswap ] || [ "$p" = deeprec ]; } && expect_fail=1
        if cmp -s "$T/got.pcs" "$T/$p.want"; then
            [ $expect_fail = 1 ] && { echo "UNEXPECTED PASS $c/$p"; fail=1; }
        elif [ $expect_fail = 0 ]; then
            echo "FAIL $c/$p: $(cmp "$T/got.pcs" "$T/$p.want" | head -1)"; head -3 "$T/err"
            fail=1
        fi
        if ! "$RVT_BIN" dump "$R/$c/$p.nt" | cmp -s - <(zcat "$R/$c/$p.msgs.txt.gz"); then
            echo "DUMP DIFFERS $c/$p"; fail=1
        fi
    done
done
[ $fail = 0 ] && echo "ntrace interop: 56 streams checked"
exit $fail
