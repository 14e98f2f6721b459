#!/usr/bin/env bash
# `rvtrace dump --summary`: for a clean stream the per-kind rows add up to
# the packet/message count `dump` lists and to the file's size (E-Trace
# bytes include each packet's header; N-Trace idle bytes are listed apart),
# and a kind's count equals the lines of that kind in the plain dump.
set -u
: "${RVT_BIN:?}" "${RVT_SRC:?}" "${RVT_TMP:?}"
T="$RVT_TMP/dump_summary"
rm -rf "$T"; mkdir -p "$T"
elf="$RVT_SRC/programs/ecall.elf"
[ -f "$elf" ] || { echo "SKIP: no $elf"; exit 77; }
"$RVT_BIN" run "$elf" --max-instr 50000 --etrace "$T/t.te" --te-opt implicit-return --te-data \
    --ntrace "$T/t.nt" --nt-opt htm,repeat-history >/dev/null 2>&1
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

for f in t.te t.nt; do
  "$RVT_BIN" dump --summary "$T/$f" >"$T/$f.sum" || fail "$f: dump --summary exit $?"
  total=$(awk '$1 == "total" {gsub(",", "", $2); gsub(",", "", $3); print $2, $3}' "$T/$f.sum")
  lines=$("$RVT_BIN" dump "$T/$f" | wc -l)
  size=$(stat -c %s "$T/$f")
  [ "$total" = "$lines $size" ] || fail "$f: total '$total', want '$lines $size'"
  rows=$(awk 'NR > 1 && $1 != "total" {gsub(",", "", $2); n += $2} END {print n}' "$T/$f.sum")
  [ "$rows" = "$lines" ] || fail "$f: rows add up to $rows, want $lines"
done
# One kind each, against the plain listing.
n=$(awk '$1 == "exception" {gsub(",", "", $2); print $2}' "$T/t.te.sum")
m=$("$RVT_BIN" dump "$T/t.te" | grep -c '(exception)')
[ "$n" = "$m" ] && [ "$n" -gt 0 ] || fail "t.te: exception rows $n, listing $m"
n=$(awk '$1 == "IndirectBranchHist" {gsub(",", "", $2); print $2}' "$T/t.nt.sum")
m=$("$RVT_BIN" dump "$T/t.nt" | grep -c ' IndirectBranchHist(28)')
[ "$n" = "$m" ] && [ "$n" -gt 0 ] || fail "t.nt: IndirectBranchHist rows $n, listing $m"

# The split load interface (--data-split 4; tables 7.4, 7.5, 7.9, 7.10):
# requests and responses are kinds of their own, named as the plain dump
# names their format=, and each count equals that listing's lines.
amo="$RVT_SRC/programs/amo.elf"
"$RVT_BIN" run "$amo" --max-instr 50000 --etrace "$T/s.te" --te-data --data-split 4 \
    >/dev/null 2>&1
"$RVT_BIN" dump --summary "$T/s.te" >"$T/s.sum" || fail "s.te: dump --summary exit $?"
"$RVT_BIN" dump "$T/s.te" >"$T/s.dump"
for k in split_load_aligned split_load_data split_atomic split_atomic_data store_aligned; do
  n=$(awk -v k="$k" '$1 == k {gsub(",", "", $2); print $2}' "$T/s.sum")
  m=$(grep -c "format=$k " "$T/s.dump")
  [ "$n" = "$m" ] && [ "$n" -gt 0 ] || fail "s.te: $k rows '$n', listing $m"
done
for k in load_aligned atomic; do
  grep -q "^$k " "$T/s.sum" && fail "s.te: split requests counted as $k"
done
[ $fails = 0 ] && echo "dump_summary: ok"
exit $((fails > 0))
