#!/bin/bash
# Import the E-Trace reference flow's inputs (interop corpus):
# - every encoder-input CSV gives one block per row, as many as the
#   manifest's instruction count, and exports back to the same bytes;
# - the Spike trace CSV imported by rvtrace gives the same rows as the
#   reference's post-iss, except where the reference departs from the spec
#   (README: mret/sret as itype 14, cause/tval cut to 8 bits);
# - rvtrace dump reads every .rvi back.
set -eu
SHARED="$RVT_SRC/../shared"
[ -d "$SHARED/interop" ] || SHARED="$RVT_SRC/../../shared"   # helper worktrees
IN="$SHARED/interop/etrace-refflow/inputs"
MAN="$SHARED/interop/etrace-refflow/manifest.tsv"
[ -d "$IN" ] || { echo "no interop corpus: skipped"; exit 77; }
T="$RVT_TMP/ingress_refflow"
mkdir -p "$T"
fail=0
for p in branchy coswap deeprec privs rv32mix traps; do
    xlen=64; [ "$p" = rv32mix ] && xlen=32
    want=$(awk -F'\t' -v p="$p" '$1=="itype4_basic" && $2==p {print $27}' "$MAN")
    for v in itype3 itype4 itype4-sijump-time; do
        zcat "$IN/$p.encoder_input.$v.csv.gz" > "$T/in.csv"
        opt=""; [ "$v" = itype3 ] && opt="--itype3"
        csvopt=""; [ "$v" = itype4-sijump-time ] && csvopt="--csv-time-sijump"
        "$RVT_BIN" import refcsv "$T/in.csv" $opt -o "$T/$p.$v.rvi" 2>/dev/null
        n=$("$RVT_BIN" dump "$T/$p.$v.rvi" | grep -c '^blk ')
        if [ "$n" != "$want" ]; then echo "$p $v: $n records, manifest says $want"; fail=1; fi
        "$RVT_BIN" import refcsv "$T/in.csv" $opt $csvopt -o "$T/out.csv" 2>/dev/null
        cmp -s "$T/in.csv" "$T/out.csv" || { echo "$p $v: CSV export differs"; fail=1; }
    done
    zcat "$IN/$p.spike_pc_trace.gz" > "$T/spike.csv"
    "$RVT_BIN" import spikecsv "$T/spike.csv" --xlen $xlen -o "$T/spike.out.csv" 2>/dev/null
    zcat "$IN/$p.encoder_input.itype4.csv.gz" > "$T/ref.csv"
    # normalise both: mret/sret 3 -> 14 (reference), cause and tval to 8 bits
    norm='NR > 1 { if ($1 == 3) $1 = 14; $2 = $2 % 256; t = $3; if (length(t) > 2) t = substr(t, length(t) - 1);
          sub(/^0/, "", t); if (t == "") t = "0"; $3 = t; print }'
    awk -F, -v OFS=, "$norm" "$T/spike.out.csv" > "$T/a.csv"
    awk -F, -v OFS=, "$norm" "$T/ref.csv" > "$T/b.csv"
    if ! cmp -s "$T/a.csv" "$T/b.csv"; then
        echo "$p: spikecsv import differs from the reference encoder input:"
        diff "$T/a.csv" "$T/b.csv" | head -5
        fail=1
    fi
done
# a corrupt .rvi (version 3: unknown): the error names the byte offset
printf 'RVTI\003\000\100\000\020\000\000\000\000\000\000\000' > "$T/bad.rvi"
if "$RVT_BIN" dump "$T/bad.rvi" 2> "$T/err.txt" >/dev/null; then echo "bad.rvi accepted"; fail=1; fi
grep -q 'offset 4' "$T/err.txt" || { echo "no offset in: $(cat "$T/err.txt")"; fail=1; }
exit $fail
