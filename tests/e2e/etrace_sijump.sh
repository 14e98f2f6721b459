#!/usr/bin/env bash
# Sequentially inferable jumps (E-Trace 3.2.4) in the 2.0 layout, whose
# support packet has no sijump bit: the sidecar must say sijump=1 (table
# 9.1 sijump_p) so that the decoder infers the same jumps and rebuilds
# the hart's PCs.  A decoder told sijump=0 (no mode, no capability) meets
# a jump the stream left out: the reported address is not the target the
# lui/auipc gives, which it must report as an error (exit 1), not follow.
set -u
: "${RVT_BIN:?}" "${RVT_SRC:?}" "${RVT_TMP:?}"
T="$RVT_TMP/etrace_sijump"
rm -rf "$T"; mkdir -p "$T"
fails=0 n=0
for p in farcall farcall_rv32; do
  elf="$RVT_SRC/programs/$p.elf"
  [ -f "$elf" ] || { echo "SKIP: no $elf"; exit 77; }
  for v in 2.0 1.1; do
    n=$((n + 1))
    "$RVT_BIN" run "$elf" --pcs "$T/ref.pcs" --etrace "$T/t.te" --te-attr version=$v \
        --te-opt sijump >/dev/null 2>&1 || { echo "FAIL $p $v: run"; fails=$((fails + 1)); continue; }
    grep -qx 'sijump=1' "$T/t.te.attrs" || { echo "FAIL $p $v: sidecar lacks sijump=1"; fails=$((fails + 1)); }
    "$RVT_BIN" decode --elf "$elf" "$T/t.te" --pcs "$T/d.pcs" >/dev/null 2>&1
    rc=$?
    [ $rc = 0 ] || { echo "FAIL $p $v: decode exit $rc"; fails=$((fails + 1)); }
    cmp -s "$T/ref.pcs" "$T/d.pcs" || { echo "FAIL $p $v: PCs differ"; fails=$((fails + 1)); }
    [ $v = 2.0 ] || continue
    # The decoder's attributes contradict the stream.
    sed -i -e 's/^sijump=.*/sijump=0/' -e 's/^options=.*/options=none/' "$T/t.te.attrs"
    "$RVT_BIN" decode --elf "$elf" "$T/t.te" --pcs "$T/d.pcs" >/dev/null 2>"$T/err"
    rc=$?
    [ $rc = 1 ] || { echo "FAIL $p: decode with sijump=0 exit $rc, want 1"; fails=$((fails + 1)); }
    grep -q 'sijump' "$T/err" || { echo "FAIL $p: no sijump error: $(head -1 "$T/err")"; fails=$((fails + 1)); }
  done
done
[ $fails = 0 ] && echo "etrace_sijump: $n cases ok"
exit $((fails > 0))
