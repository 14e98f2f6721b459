#!/bin/bash
# E-Trace data trace round trip (ch. 7): for each workload x option
# (address+data, address only, data only, each DataCompress setting),
# `rvtrace run --te-data --data-out` then `rvtrace decode --data` must give
# the hart's data accesses (with the omitted column blanked), and the
# instruction trace in the same stream must still decode to the hart's PCs.
# Then a truncated and a corrupted stream must fail with a byte offset.
set -u
mkdir -p "$RVT_TMP"
T="$RVT_TMP/te_data"
mkdir -p "$T"
fail=0
progs="amo csr sort crc csr_rv32 misalign"
for p in $progs; do
    elf="$RVT_SRC/programs/$p.elf"
    [ -f "$elf" ] || { echo "missing $elf"; exit 1; }
    opts=("" "no_address=1" "no_data=1" "data_compress=0" "data_compress=1" "data_compress=2")
    case "$p" in *rv32) opts+=("data_width=32") ;; esac
    for opt in "${opts[@]}"; do
        args=(--etrace "$T/t.te" --te-data --data-out "$T/h.txt" --pcs-retired "$T/pcs.txt" --quiet)
        [ -n "$opt" ] && args+=(--te-attr "$opt")
        "$RVT_BIN" run "$elf" "${args[@]}" > /dev/null
        rc=$?
        [ $rc -le 1 ] || { echo "FAIL $p [$opt]: run rc=$rc"; fail=1; continue; }
        "$RVT_BIN" decode "$T/t.te" --data "$T/d.txt" || { echo "FAIL $p [$opt]: decode"; fail=1; }
        case "$opt" in
            no_address=1) awk '{ $3 = "-"; print }' "$T/h.txt" > "$T/want.txt" ;;
            no_data=1) awk '{ $4 = "-"; if (NF == 5) $5 = "-"; print }' "$T/h.txt" > "$T/want.txt" ;;
            *) cp "$T/h.txt" "$T/want.txt" ;;
        esac
        n=$(wc -l < "$T/h.txt")
        [ "$n" -gt 0 ] || { echo "FAIL $p: no data accesses"; fail=1; }
        if ! cmp -s "$T/want.txt" "$T/d.txt"; then
            echo "FAIL $p [$opt]: decoded accesses differ"; diff "$T/want.txt" "$T/d.txt" | head -5; fail=1
        fi
        "$RVT_BIN" decode --elf "$elf" "$T/t.te" --pcs "$T/dpcs.txt" 2> /dev/null
        cmp -s "$T/pcs.txt" "$T/dpcs.txt" || { echo "FAIL $p [$opt]: instruction trace differs"; fail=1; }
        echo "ok $p [$opt] $n accesses, $(stat -c %s "$T/t.te") bytes"
    done
done

# An 8-byte access does not fit data_width_p = 32: the run must say so.
"$RVT_BIN" run "$RVT_SRC/programs/crc.elf" --etrace "$T/w.te" --te-data --te-attr data_width=32 \
    --quiet > /dev/null 2> "$T/w.err" && { echo "FAIL data_width=32 accepted 8-byte data"; fail=1; }
grep -q "out of range" "$T/w.err" || { echo "FAIL data_width=32: no message"; fail=1; }

# Truncated and corrupted streams: an error with the byte offset, no crash.
"$RVT_BIN" run "$RVT_SRC/programs/crc.elf" --etrace "$T/c.te" --te-data --quiet > /dev/null
cp "$T/c.te.attrs" "$T/cut.te.attrs"
size=$(stat -c %s "$T/c.te")
head -c $((size / 2 + 3)) "$T/c.te" > "$T/cut.te"
"$RVT_BIN" decode "$T/cut.te" --data "$T/cut.txt" 2> "$T/cut.err"
rc=$?
[ $rc -eq 1 ] && grep -q "offset [0-9]" "$T/cut.err" || { echo "FAIL truncated: rc=$rc"; cat "$T/cut.err"; fail=1; }
cp "$T/c.te.attrs" "$T/bad.te.attrs"
off=$(python3 - "$T/c.te" "$T/bad.te" <<'PY'
import sys
b = bytearray(open(sys.argv[1], 'rb').read())
# Walk the raw container; make the 10th te_data packet a split-load data
# packet (format 100, table 7.5), which a unified encoder never sends.
i = n = 0
while i < len(b):
    h = b[i]; ln = h & 31
    if (h >> 5) & 3 == 3:
        n += 1
        if n == 10:
            b[i + 1] = (b[i + 1] & ~7) | 4
            print(i)
            break
    i += 1 + ln
open(sys.argv[2], 'wb').write(bytes(b))
PY
)
"$RVT_BIN" decode "$T/bad.te" --data "$T/bad.txt" 2> "$T/bad.err"
rc=$?
[ $rc -eq 1 ] && grep -q "offset $off: error: te_data: bad packet" "$T/bad.err" ||
    { echo "FAIL corrupt: rc=$rc, want an error at $off"; cat "$T/bad.err"; fail=1; }
# Only the damaged access is lost: the decoder restarts at the next full packet.
lost=$(( $(wc -l < "$T/cut.txt") ))
[ "$(wc -l < "$T/bad.txt")" -gt "$lost" ] || { echo "FAIL corrupt: decoding did not go on"; fail=1; }
"$RVT_BIN" dump "$T/bad.te" > /dev/null 2>&1
[ $? -le 1 ] || { echo "FAIL corrupt dump"; fail=1; }
"$RVT_BIN" dump "$T/cut.te" > "$T/cut.dump" 2> "$T/cutd.err"
grep -q "msg=te_data format=" "$T/cut.dump" || { echo "FAIL dump shows no te_data"; fail=1; }
grep -q "offset [0-9]" "$T/cutd.err" || { echo "FAIL dump of truncated stream: no offset"; fail=1; }
exit $fail
