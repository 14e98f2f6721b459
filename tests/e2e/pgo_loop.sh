#!/bin/bash
# The PGO loop (programs/pgo.sh, docs/coverage.md): pgo.c built with
# clang-19, traced on the hart, sampled by script --lbr, profiled by
# llvm-profgen, rebuilt with -fprofile-sample-use: the rebuilt program
# prints the same result in fewer cycles (the hart retires one instruction
# a cycle).  The profile names mix, the hot hash round, with samples on
# each of its lines, and main (hot_loop is inlined into it).  Skipped when
# clang-19, ld.lld or llvm-19's llvm-profgen is missing.
set -u
T="$RVT_TMP/pgo_loop"; rm -rf "$T"; mkdir -p "$T"
"$RVT_SRC/programs/pgo.sh" "$RVT_BIN" "$T" > "$T/out" 2> "$T/err"
rc=$?
[ "$rc" -eq 3 ] && { cat "$T/err"; echo "SKIP: toolchain missing"; exit 77; }
[ "$rc" -eq 0 ] || { cat "$T/out" "$T/err"; echo "pgo.sh failed"; exit 1; }
fail=0
grep -qx 'pgo: PASS value=0x[0-9a-f]*' "$T/out" || { echo "no PASS line"; fail=1; }
read -r base fdo < <(sed -nE 's/^base ([0-9]+) instructions, fdo ([0-9]+) instructions$/\1 \2/p' "$T/out")
[ -n "${base:-}" ] && [ "$fdo" -lt "$base" ] || { echo "fdo build not faster: $(tail -1 "$T/out")"; fail=1; }
grep -Eq '^mix:[1-9][0-9]*:' "$T/pgo.prof" || { echo "profile lacks mix"; fail=1; }
grep -Eq '^main:[1-9][0-9]*:' "$T/pgo.prof" || { echo "profile lacks main"; fail=1; }
[ "$fail" -eq 0 ] && echo "pgo loop: ok ($base -> $fdo cycles)"
exit "$fail"
