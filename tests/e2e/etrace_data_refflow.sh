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
# reference's own decoding of them is not checked here (the inputs for it
# are written and checked at the end); the forms it writes
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
# The suites' input as the reference's data encoder reads it
# (run --export-spike-data-csv): one row per data record of the run's .rvi,
# 4.4's unified form: CSRs and atomics (dtype >= 4) carry both values,
# store data in the LSBs, load data or operand in the MSBs, DSIZE one
# more; a failed store-conditional is dtype 15 (table 4.9).
for elf in $progs; do
    p=$(basename "$elf" .elf)
    "$RVT_BIN" run "$elf" --quiet --export-spike-data-csv "$T/in.csv" --data --ingress "$T/r.rvi" \
        > /dev/null || { echo "FAIL $p: export"; fail=1; continue; }
    "$RVT_BIN" dump "$T/r.rvi" | python3 -c '
import sys
print("DRETIRE,DTYPE,DADDR,DSIZE,DATA")
for line in sys.stdin:
    if not line.startswith("data "):
        continue
    f = dict(kv.split("=") for kv in line.split()[1:])
    dtype, size = int(f["dtype"]), int(f["dsize"])
    data = int(f["data"], 16)
    if int(f["flags"], 16) & 1:
        dtype = 15
    elif dtype >= 4:
        data |= int(f["data2"], 16) << (8 << size)
        size += 1
    print("1,%d,%x,%d,%x" % (dtype, int(f["addr"], 16), size, data))
' > "$T/want.csv"
    cmp -s "$T/in.csv" "$T/want.csv" || { echo "FAIL $p: data input CSV"; diff "$T/in.csv" "$T/want.csv" | head -4; fail=1; }
    grep -q '^1,[0-9]*,' "$T/in.csv" || { echo "FAIL $p: no rows"; fail=1; }
done
[ $fail -eq 0 ] && echo "data refflow suites: ok"
exit $fail
