#!/usr/bin/env bash
# The CSV writers' files (src/ingress/csv_out.c: run --export-spike-csv,
# --export-spike-data-csv, import ... -o OUT.csv) are written in 64 KiB
# write(2)s: the writer gives the FILE a 64 KiB buffer of its own (glibc
# ignores setvbuf's size without one and writes 4 KiB at a time).  The
# bytes are those of stdout ("-", glibc's own buffer).  Needs strace(1).
set -u
: "${RVT_BIN:?}" "${RVT_SRC:?}" "${RVT_TMP:?}"
command -v strace >/dev/null 2>&1 || { echo "SKIP: no strace"; exit 77; }
T="$RVT_TMP/csv_out_writes"; rm -rf "$T"; mkdir -p "$T"
elf="$RVT_SRC/programs/long.elf"     # committed (programs_present.sh)
fails=0
# 200,000 instructions: about 6 MB of Spike CSV, many buffers' worth.
# (run stops at --max-instr with status 1; the files are written)
strace -f -e trace=write -o "$T/strace" "$RVT_BIN" run "$elf" --max-instr 200000 --quiet \
  --export-spike-csv "$T/s.csv" --export-spike-data-csv "$T/d.csv" >/dev/null 2>"$T/err"
# both files several buffers long
for f in s.csv d.csv; do
  size=$(stat -c %s "$T/$f" 2>/dev/null || echo 0)
  [ "$size" -gt $((4 * 65536)) ] || { echo "FAIL: $f: only $size bytes"; fails=$((fails + 1)); continue; }
done
# the writes to files (descriptors past stderr): a file's size / 65536 of
# them 64 KiB each, and its last one shorter
sizes=$(grep -E '^[0-9]+ +write\(([3-9]|[1-9][0-9]+),' "$T/strace" | sed -E 's/.*= ([0-9]+)$/\1/' | sort -n | uniq -c | sort -rn)
full=$(grep -E '^[0-9]+ +write\(([3-9]|[1-9][0-9]+),' "$T/strace" | grep -c '= 65536$')
total=$(grep -cE '^[0-9]+ +write\(([3-9]|[1-9][0-9]+),' "$T/strace")
want=$(( $(stat -c %s "$T/s.csv") / 65536 + $(stat -c %s "$T/d.csv") / 65536 ))
[ "$want" -gt 0 ] || { echo "FAIL: no files"; cat "$T/err"; exit 1; }
[ "$full" -eq "$want" ] && [ "$total" -le $((want + 2)) ] ||
  { echo "FAIL: want $want writes of 65536 bytes and at most 2 others, got $full of $total:"; echo "$sizes" | head -4; fails=$((fails + 1)); }
# the same bytes to stdout
"$RVT_BIN" run "$elf" --max-instr 200000 --quiet --export-spike-csv - >"$T/s.out" 2>/dev/null
cmp -s "$T/s.out" "$T/s.csv" || { echo "FAIL: --export-spike-csv - differs from the file"; fails=$((fails + 1)); }
echo "csv_out_writes: $fails failures"
[ $fails -eq 0 ]
