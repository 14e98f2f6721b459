#!/usr/bin/env bash
# `rvtrace dump --addresses` (N-Trace): the PC appended to a message with
# F-ADDR/U-ADDR is the address 8.1 gives, so for HTM every one is a PC the
# hart retired (a sync's start, an indirect jump's or trap's target), and
# the sequence of targets is the same with trTeInstNoAddrDiff (U-ADDR not
# XORed) as without.  Without the flag the dump is unchanged.
set -u
: "${RVT_BIN:?}" "${RVT_SRC:?}" "${RVT_TMP:?}"
T="$RVT_TMP/dump_addresses"
rm -rf "$T"; mkdir -p "$T"
elf="$RVT_SRC/programs/switch.elf"
[ -f "$elf" ] || { echo "SKIP: no $elf"; exit 77; }
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
"$RVT_BIN" run "$elf" --max-instr 40000 --pcs-retired "$T/hart.pcs" \
    --ntrace "$T/x.nt" --nt-opt htm >/dev/null 2>&1
"$RVT_BIN" run "$elf" --max-instr 40000 --ntrace "$T/n.nt" --nt-opt htm,no-addr-diff >/dev/null 2>&1
for f in x n; do
  "$RVT_BIN" dump --addresses "$T/$f.nt" | sed -n 's/.* -> 0x\([0-9a-f]*\)$/\1/p' >"$T/$f.targets"
done
[ "$(wc -l <"$T/x.targets")" -gt 100 ] || fail "too few addressed messages: $(wc -l <"$T/x.targets")"
cmp -s "$T/x.targets" "$T/n.targets" || fail "targets differ with no-addr-diff"
sed 's/^0x//; s/^0*//' "$T/hart.pcs" | sort -u >"$T/pcs.set"
sed 's/^0*//' "$T/x.targets" | sort -u >"$T/t.set"
missing=$(comm -23 "$T/t.set" "$T/pcs.set" | head -3)
[ -z "$missing" ] || fail "targets the hart never retired: $missing"
"$RVT_BIN" dump "$T/x.nt" | grep -q -- ' -> ' && fail "plain dump changed"
[ $fails = 0 ] && echo "dump_addresses: ok"
exit $((fails > 0))
