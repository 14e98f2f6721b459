#!/usr/bin/env bash
# Issue #13 item 4: streams whose encoder never reports I-CNT overflow (the
# N-Trace reference code: no ResourceFull RCODE 0, no SYNC 4; corpus README
# item 2) carry I-CNTs wider than the configured counter (8.4.4).  decode
# accepts them with one note on stderr, exit 0, and the same PCs as with the
# right width.  Here: a stream encoded with icnt-bits=32 decoded as 8 bits,
# refcode BTM streams decoded as 4 bits (longest span > 16 half-words),
# and refcode HTM streams decoded as 12 bits (their largest I-CNT is
# 193,690 > 2^12).
set -u
: "${RVT_BIN:?}" "${RVT_SRC:?}" "${RVT_TMP:?}"
T="$RVT_TMP/ntrace_wide_icnt"
rm -rf "$T"; mkdir -p "$T"
elf="$RVT_SRC/programs/fptr.elf"
[ -f "$elf" ] || { echo "SKIP: no $elf"; exit 77; }
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
"$RVT_BIN" run "$elf" --ntrace "$T/w.nt" --nt-opt htm,icnt-bits=32 \
    --pcs-retired "$T/want.pcs" >/dev/null 2>&1 || { echo "FAIL: run"; exit 1; }
# check FILE ELF WANT-PCS OPTS
check() {
  "$RVT_BIN" decode --elf "$2" "$1" --pcs "$T/got.pcs" --nt-opt "$4" 2>"$T/err"
  local rc=$?
  [ $rc = 0 ] || fail "$1 ($4): exit $rc: $(head -1 "$T/err")"
  cmp -s "$T/got.pcs" "$3" || fail "$1 ($4): PCs differ"
  [ "$(grep -c 'note: I-CNT wider than rvtIcntBits' "$T/err")" = 1 ] ||
      fail "$1 ($4): want one note, stderr: $(head -2 "$T/err")"
  [ "$(wc -l < "$T/err")" = 1 ] || fail "$1 ($4): more on stderr: $(head -3 "$T/err")"
}
check "$T/w.nt" "$elf" "$T/want.pcs" htm,icnt-bits=8
I="${RVT_SHARED:-$RVT_SRC/../shared}/interop"
if [ -d "$I/ntrace-refcode" ]; then
  for p in branchy deeprec; do
    zcat "$I/ntrace-refcode/inputs/$p.pcs.gz" | sed 's/^0x//' > "$T/$p.want"
    check "$I/ntrace-refcode/htm/$p.nt" "$I/programs/$p.elf" "$T/$p.want" htm,icnt-bits=12
    check "$I/ntrace-refcode/btm/$p.nt" "$I/programs/$p.elf" "$T/$p.want" btm,icnt-bits=4
  done
fi
[ $fails = 0 ] && echo "ntrace wide I-CNT: ok"
exit $((fails > 0))
