#!/bin/bash
# run --export-spike-csv (docs/format-import.md "spikecsv"):
# - on the interop workloads it writes what the E-Trace reference flow's
#   corpus holds as its Spike trace, row for row, after the corpus's five
#   Spike reset-vector rows (skipped without ../shared);
# - round trip: run -> export -> import spikecsv -> encode gives the same
#   E-Trace bytes as run -> encode (programs without interrupts or trigger
#   sideband: those the CSV cannot carry, see the doc);
# - an unwritable output is an I/O error naming the file.
set -u
: "${RVT_SRC:?}" "${RVT_BIN:?}" "${RVT_TMP:?}"
T="$RVT_TMP/spikecsv_export"
mkdir -p "$T"
fail=0

REF="$RVT_SRC/../shared/interop"
if [ -d "$REF" ]; then
    # traps is left out: QEMU 7.2 runs its misaligned lw without a trap.
    for p in coswap deeprec privs branchy rv32mix; do
        "$RVT_BIN" run "$REF/programs/$p.elf" --quiet --export-spike-csv "$T/$p.csv" > /dev/null
        zcat "$REF/etrace-refflow/inputs/$p.spike_pc_trace.gz" | sed 2,6d > "$T/$p.ref.csv"
        if ! cmp -s "$T/$p.csv" "$T/$p.ref.csv"; then
            echo "FAIL $p: export differs from the corpus Spike trace:"
            diff "$T/$p.csv" "$T/$p.ref.csv" | head -4; fail=1
        fi
    done
else
    echo "no interop corpus: corpus comparison skipped"
fi

for p in amo coswap crc crc_rv32 csr ebreak ecall ecall_rv32 farcall fptr illegal misalign \
         privs recurse setjmp sort switch tailcall wfi; do
    elf="$RVT_SRC/programs/$p.elf"
    "$RVT_BIN" run "$elf" --quiet --export-spike-csv "$T/rt.csv" --etrace "$T/run.te" > /dev/null ||
        { echo "FAIL $p: run"; fail=1; continue; }
    "$RVT_BIN" import spikecsv "$T/rt.csv" --elf "$elf" -o "$T/rt.rvi" 2> /dev/null &&
        "$RVT_BIN" encode --etrace "$T/rt.rvi" -o "$T/rt.te" 2> /dev/null ||
        { echo "FAIL $p: import/encode"; fail=1; continue; }
    cmp -s "$T/run.te" "$T/rt.te" || { echo "FAIL $p: round trip changes the E-Trace stream"; fail=1; }
done

"$RVT_BIN" run "$RVT_SRC/programs/ecall.elf" --quiet --export-spike-csv "$T/no/such/dir.csv" \
    > /dev/null 2> "$T/err.txt"
rc=$?
[ $rc -eq 1 ] || { echo "FAIL unwritable: exit $rc"; fail=1; }
grep -q "no/such/dir.csv" "$T/err.txt" || { echo "FAIL unwritable: $(cat "$T/err.txt")"; fail=1; }
[ $fail -eq 0 ] && echo "spikecsv export: ok"
exit $fail
