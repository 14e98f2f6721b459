#!/bin/bash
# The E-Trace reference flow's data-trace suites (referenceFlow/tests/
# test_suites/dtype_*.sh: daddress_width_p = data_width_p = 64) with inputs
# written by the hart: each workload runs with --te-profile refflow (the
# 2.0 te_data layout the reference writes, atomics included) and the
# suite's options, and `decode --data` must give the hart's accesses.
#   dtype_basic       differential address, compressed data
#   dtype_debug       full address, full data      (data_compress=0)
#   dtype_no_address  data only                    (no_address=1)
#   dtype_no_data     address only                 (no_data=1)
# The corpus holds no te_data streams (etrace-refflow/README.md), so the
# reference's own decoding of them is not checked here; the forms it writes
# that the spec does not (a size-wide atomic op_len/data_len, the first
# packets after a sync differential against zero) are in
# tests/unit/test_etrace_refflow.c.
set -u
: "${RVT_SRC:?}" "${RVT_BIN:?}" "${RVT_TMP:?}"
T="$RVT_TMP/etrace_data_refflow"
mkdir -p "$T"
fail=0
progs="$RVT_SRC/programs/amo.elf $RVT_SRC/programs/csr.elf $RVT_SRC/programs/sort.elf"
shared="$RVT_SRC/../shared/interop/programs"
[ -d "$shared" ] && progs="$progs $shared/amo_smc.elf $shared/privs.elf"
for elf in $progs; do
    p=$(basename "$elf" .elf)
    for suite in dtype_basic dtype_debug dtype_no_address dtype_no_data; do
        case $suite in
            dtype_basic) opt=() ;;
            dtype_debug) opt=(--te-attr data_compress=0) ;;
            dtype_no_address) opt=(--te-attr no_address=1) ;;
            dtype_no_data) opt=(--te-attr no_data=1) ;;
        esac
        "$RVT_BIN" run "$elf" --quiet --etrace "$T/t.te" --te-data --te-profile refflow \
            --te-attr data_width=64 "${opt[@]}" --data-out "$T/h.txt" > /dev/null ||
            { echo "FAIL $p $suite: run"; fail=1; continue; }
        grep -q . "$T/h.txt" || { echo "FAIL $p $suite: no data accesses"; fail=1; }
        grep -q '^version=2.0' "$T/t.te.attrs" || { echo "FAIL $p $suite: not the 2.0 layout"; fail=1; }
        "$RVT_BIN" decode "$T/t.te" --data "$T/d.txt" || { echo "FAIL $p $suite: decode"; fail=1; }
        case $suite in
            dtype_no_address) awk '{ $3 = "-"; print }' "$T/h.txt" > "$T/want.txt" ;;
            dtype_no_data) awk '{ $4 = "-"; if (NF == 5) $5 = "-"; print }' "$T/h.txt" > "$T/want.txt" ;;
            *) cp "$T/h.txt" "$T/want.txt" ;;
        esac
        if ! cmp -s "$T/want.txt" "$T/d.txt"; then
            echo "FAIL $p $suite: decoded accesses differ"; diff "$T/want.txt" "$T/d.txt" | head -4; fail=1
        fi
    done
done
[ $fail -eq 0 ] && echo "data refflow suites: ok"
exit $fail
