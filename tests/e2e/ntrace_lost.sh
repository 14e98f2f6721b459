#!/usr/bin/env bash
# Issue #13 item 3: after a decode error the N-Trace decoder emits nothing
# until the next synchronisation message, resumes there exactly, and the
# end of the run says how much was lost.  A sort.elf HTM stream with
# periodic syncs (sync=1:2) gets 40 zero bytes in the middle (a hole in the
# capture): decode exits 1, names the error's offset, prints the summary
# "trace lost at 1 point(s), decoding resumed at the next sync", decodes
# fewer instructions than the hart retired, and its last 10,000 PCs are the
# hart's last 10,000.
set -u
: "${RVT_BIN:?}" "${RVT_SRC:?}" "${RVT_TMP:?}"
T="$RVT_TMP/ntrace_lost"
rm -rf "$T"; mkdir -p "$T"
elf="$RVT_SRC/programs/sort.elf"
[ -f "$elf" ] || { echo "SKIP: no $elf"; exit 77; }
"$RVT_BIN" run "$elf" --ntrace "$T/p.nt" --nt-opt htm,sync=1:2 --pcs-retired "$T/want.pcs" \
    >/dev/null 2>&1 || { echo "FAIL: run"; exit 1; }
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
n=$(stat -c %s "$T/p.nt")
at=$((n / 5))
{ head -c "$at" "$T/p.nt"; head -c 40 /dev/zero; tail -c $((n - at - 40)) "$T/p.nt"; } >"$T/z.nt"
cp "$T/p.nt.attrs" "$T/z.nt.attrs"
"$RVT_BIN" decode --elf "$elf" "$T/z.nt" --pcs "$T/got.pcs" 2>"$T/err"
rc=$?
[ $rc = 1 ] || fail "exit $rc, want 1"
grep -q "z.nt: offset [0-9]*: error:" "$T/err" || fail "no error with an offset: $(head -2 "$T/err")"
grep -q "z.nt: warning: .* instructions decoded; trace lost at 1 point(s), decoding resumed at the next sync" \
    "$T/err" || fail "no loss summary: $(tail -2 "$T/err")"
got=$(wc -l < "$T/got.pcs"); want=$(wc -l < "$T/want.pcs")
[ "$got" -lt "$want" ] || fail "decoded $got instructions, the hart retired $want"
cmp -s <(tail -n 10000 "$T/got.pcs") <(tail -n 10000 "$T/want.pcs") ||
    fail "the PCs after the resync are not the hart's"
[ $fails = 0 ] && echo "ntrace lost: ok ($got of $want instructions)"
exit $((fails > 0))
