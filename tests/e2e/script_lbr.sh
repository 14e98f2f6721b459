#!/bin/bash
# rvtrace script --lbr (docs/coverage.md): perf-script branch-stack samples
# from a full trace of programs/cov.elf (860 instructions on the hart).
#   - the first line is the PERF_RECORD_MMAP2 line of cov.elf's one
#     executable PT_LOAD as readelf shows it (vaddr and file offset aligned
#     down to p_align), in the shape llvm-profgen's reader matches;
#   - --period 50: a sample after instructions 50, 100, ..., 850: 17
#     lines, each headed by the PC of the next instruction (51, 101, ...:
#     where execution went on, as perf's overflow interrupt sees it; the
#     hart's --pcs-retired);
#   - every entry FROM/TO is two consecutive retired PCs (a transfer);
#     with --depth 1 it is the last pair up to that instruction whose
#     distance is not 2 or 4 (the length of the instruction at FROM);
#   - run --ctr-sample 50 --lbr, samples the hart's CTR (32 entries) takes,
#     is the same file byte for byte as script --lbr --period 50 --depth 32
#     (two independent models of one LBR), here and for recurse.elf;
#   - llvm-profgen (llvm-19) turns them into an AutoFDO profile naming
#     main, classify and sum_to but not never_called, with classify's
#     `return -1` and `return 0` (lines 13 and 15 = function line 11 + 2
#     and + 4) never run: x = 5 (programs/src/cov.c).
set -eu
P="$RVT_SRC/programs/cov.elf"
T="$RVT_TMP/script_lbr"; rm -rf "$T"; mkdir -p "$T"
"$RVT_BIN" run "$P" --quiet --etrace "$T/c.te" --te-opt all --pcs-retired "$T/c.pcs" > /dev/null
"$RVT_BIN" script --lbr --period 50 --depth 16 --elf "$P" "$T/c.te" -o "$T/c.lbr"
"$RVT_BIN" script --lbr --period 50 --depth 1 --elf "$P" "$T/c.te" > "$T/d1.lbr"
fail=0

read -r vaddr off align < <(readelf -lW "$P" | awk '$1 == "LOAD" && $7 ~ /E/ { print $3, $2, $8; exit }')
a=$(( vaddr & ~(align - 1) )); o=$(( off & ~(align - 1) ))
real=$(cd "$(dirname "$P")" && pwd -P)/cov.elf
head -1 "$T/c.lbr" | grep -Eq "^PERF_RECORD_MMAP2 [0-9]+/[0-9]+: \[$(printf '%#x' $a)\(0x[0-9a-f]+\) @ $(printf '%#x' $o) .*\]: r-xp $real\$" ||
    { echo "header: $(head -1 "$T/c.lbr")"; fail=1; }

n=$(tail -n +2 "$T/c.lbr" | wc -l)
[ "$n" -eq 17 ] || { echo "$n samples, want 17"; fail=1; }
awk 'NR == FNR { pc[NR] = $1; next }
     FNR > 1 { k = FNR - 1; want = pc[50 * k + 1]
               if ($1 != want) { print "sample " k ": ip " $1 ", want " want; bad = 1 }
               if (NF - 1 > 16) { print "sample " k ": " NF - 1 " entries"; bad = 1 } }
     END { exit bad }' "$T/c.pcs" "$T/c.lbr" || fail=1
# every entry is a pair of consecutive retired PCs
awk 'NR == FNR { if (NR > 1) pair["0x" p "/0x" $1] = 1; p = $1; next }
     FNR > 1 { for (i = 2; i <= NF; i++) { split($i, f, "/")
               if (!((f[1] "/" f[2]) in pair)) { print "not a transfer: " $i; bad = 1 } } }
     END { exit bad }' "$T/c.pcs" "$T/c.lbr" || fail=1
# depth 1: the newest transfer before each sample
awk 'function hex(s,  v, i) { v = 0; for (i = 1; i <= length(s); i++)
                               v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1; return v }
     NR == FNR { pc[NR] = $1; next }
     FNR > 1 { k = FNR - 1; j = 50 * k + 1
               while (j > 1) { d = hex(pc[j]) - hex(pc[j - 1])
                               if (d != 2 && d != 4) break; j-- }
               want = "0x" pc[j - 1] "/0x" pc[j] "/P/-/-/0"
               if (NF != 2 || $2 != want) { print "depth 1, sample " k ": " $2 ", want " want; bad = 1 } }
     END { exit bad }' "$T/c.pcs" "$T/d1.lbr" || fail=1

for p in cov recurse; do
    E="$RVT_SRC/programs/$p.elf"
    "$RVT_BIN" run "$E" --quiet --etrace "$T/$p.te" --te-opt all --ctr-sample 50 --lbr "$T/$p.ctr.lbr" > /dev/null
    "$RVT_BIN" script --lbr --period 50 --depth 32 --elf "$E" "$T/$p.te" > "$T/$p.full.lbr"
    cmp "$T/$p.ctr.lbr" "$T/$p.full.lbr" || { echo "$p: CTR samples differ from the full trace's"; fail=1; }
done
[ "$(wc -l < "$T/recurse.ctr.lbr")" -gt 20000 ] || { echo "recurse: too few CTR samples"; fail=1; }

# Usage errors exit 2 and leave no output behind.
usage() {
    "$RVT_BIN" "$@" > /dev/null 2> "$T/usage.err"
    local rc=$?
    [ "$rc" -eq 2 ] || { echo "$* -> exit $rc, want 2"; fail=1; }
}
set +e
usage run "$P" --ctr-sample 10
usage run "$P" --lbr "$T/u1.lbr"
usage run "$P" --ctr-sample 0 --lbr "$T/u2.lbr"
usage script --elf "$P" "$T/c.te"
usage script --lbr --depth 0 --elf "$P" "$T/c.te" -o "$T/u3.lbr"
usage script --lbr --depth 257 --elf "$P" "$T/c.te" -o "$T/u4.lbr"
usage decode --elf "$P" "$T/c.te" --lcov
set -e
for u in u1 u2 u3 u4; do [ ! -e "$T/$u.lbr" ] || { echo "$u.lbr left behind"; fail=1; }; done

PG=/usr/lib/llvm-19/bin/llvm-profgen
if [ ! -x "$PG" ]; then
    [ "$fail" -eq 0 ] && { echo "SKIP: no $PG (apt-get install llvm-19); the samples are right"; exit 77; }
    exit 1
fi
(cd "$T" && "$PG" --perfscript c.lbr --binary "$P" --format=text --output c.prof 2> pg.err) ||
    { cat "$T/pg.err"; echo "llvm-profgen failed"; exit 1; }
for f in main classify sum_to; do
    grep -q "^$f:[0-9]*:[0-9]*\$" "$T/c.prof" || { echo "profile lacks $f"; fail=1; }
done
! grep -q '^never_called:' "$T/c.prof" || { echo "profile has never_called"; fail=1; }
body() { awk -v f="$1" '/^[^ ]/ { on = ($0 ~ "^" f ":") } on && /^ / { print }' "$T/c.prof"; }
body classify | grep -qx ' 2: 0' || { echo "classify line +2 (return -1) ran: $(body classify | tr '\n' ' ')"; fail=1; }
body classify | grep -qx ' 4: 0' || { echo "classify line +4 (return 0) ran"; fail=1; }
body classify | grep -Eqx ' 5: [1-9][0-9]*' || { echo "classify line +5 (return 1) did not run"; fail=1; }
[ "$fail" -eq 0 ] && echo "script --lbr: ok (17 samples; llvm-profgen profile of main, classify, sum_to)"
exit "$fail"
