#!/bin/bash
# The F/D workloads (programs/fpu.elf, fpu_rv32.elf) through both trace
# protocols once: FP instructions are plain instructions for E-Trace
# (itype 0) and N-Trace, so the decoded PC streams must equal the hart's.
# E-Trace with every option and data trace (flw/fld/fsw/fsd records);
# N-Trace with branch history.  (The full option matrices of
# etrace_roundtrip.sh / ntrace_roundtrip.sh leave these 1-2M-instruction
# programs out for time.)
set -u
: "${RVT_SRC:?}" "${RVT_BIN:?}" "${RVT_TMP:?}"
T="$RVT_TMP/fpu_trace"
mkdir -p "$T"
fail=0
for p in fpu fpu_rv32; do
    elf="$RVT_SRC/programs/$p.elf"
    [ -f "$elf" ] || { echo "skip: no $elf"; exit 77; }
    if ! "$RVT_BIN" run "$elf" --quiet --pcs-traced "$T/$p.pcs" \
            --etrace "$T/$p.te" --te-opt all --te-attr return_stack_size=4 --te-data \
            --ntrace "$T/$p.nt" --nt-opt htm >"$T/$p.out" 2>"$T/$p.err"; then
        echo "FAIL $p: run: $(head -2 "$T/$p.err")"; fail=1; continue
    fi
    grep -q "^fpu: PASS" "$T/$p.out" || { echo "FAIL $p: $(tail -1 "$T/$p.out")"; fail=1; }
    for fmt in te nt; do
        "$RVT_BIN" decode --elf "$elf" "$T/$p.$fmt" --pcs "$T/$p.$fmt.pcs" 2>"$T/$p.$fmt.err"
        if cmp -s "$T/$p.pcs" "$T/$p.$fmt.pcs"; then
            echo "ok   $p $fmt: $(wc -l <"$T/$p.pcs") PCs"
        else
            echo "FAIL $p $fmt: $(cmp "$T/$p.pcs" "$T/$p.$fmt.pcs" 2>&1 | head -1); $(head -1 "$T/$p.$fmt.err")"
            fail=1
        fi
    done
done
exit $fail
