#!/bin/sh
# CTR end to end: programs/ctr.elf checks its own records through the CSRs
# (exit 0 = pass); run --ctr prints the final buffer newest first with
# symbols; --ctr-control records a program that never configures CTR.
set -e
mkdir -p "$RVT_TMP"
out=$RVT_TMP/ctr.out
"$RVT_BIN" run "$RVT_SRC/programs/ctr.elf" --ctr >"$out" 2>&1
grep -q "ctr: PASS" "$out"
grep -q "^CTR: 4 valid of 16 entries" "$out"
# entry 0 is rt_expect's return, entry 2 the call into rt_expect
grep -Eq "^ +0 .* return " "$out"
grep -Eq "^ +2 .*<rt_expect> +direct-call" "$out"
# recurse.elf with M recorded from reset at depth 256 (DEPTH 1111)
"$RVT_BIN" run "$RVT_SRC/programs/recurse.elf" --ctr --ctr-control 0xF0001 --quiet >"$out" 2>&1
grep -q "^CTR: 256 valid of 256 entries" "$out"
# the last transfers of any program: the jump to rt_exit from _start
grep -Eq "<_start\+0x[0-9a-f]+> +0x[0-9a-f]+ <rt_exit> +direct-jump" "$out"
# bad value is a usage error
if "$RVT_BIN" run "$RVT_SRC/programs/ctr.elf" --ctr-control zz >/dev/null 2>&1; then exit 1; fi
echo ok
