#!/bin/sh
# PMU end to end: programs/pmu.elf uses the SBI PMU from S-mode and checks
# its own results (its symbol rvtrace_sbi_firmware turns the firmware model
# on, as --sbi does); `rvtrace stat` prints perf-stat style counts.
set -e
mkdir -p "$RVT_TMP"
out=$RVT_TMP/pmu.out
"$RVT_BIN" run "$RVT_SRC/programs/pmu.elf" --sbi >"$out" 2>&1
grep -q "pmu: PASS" "$out"
"$RVT_BIN" run "$RVT_SRC/programs/pmu.elf" --quiet | grep -q "pmu: PASS"
# stat: instructions equal the run summary's retired count, with
# thousands separators (programs/README.md: sort.elf is 251,472 under QEMU,
# 6 of them QEMU's reset ROM)
"$RVT_BIN" stat "$RVT_SRC/programs/sort.elf" >"$out" 2>&1
grep -q "Performance counter stats for" "$out"
grep -Eq "^ +251,466 +instructions +# +1\.00 +insn per cycle" "$out"
grep -q "251,466 instructions retired" "$out"
grep -Eq "^ +[0-9,]+ +branches-taken +# +[0-9.]+% of all branches" "$out"
# ebreak.elf: 500 breakpoints, all in M
"$RVT_BIN" stat "$RVT_SRC/programs/ebreak.elf" -e exceptions,exceptions:u >"$out" 2>&1
grep -Eq "^ +500 +exceptions +# " "$out"
grep -Eq "^ +0 +exceptions:u" "$out"
"$RVT_BIN" stat --list | grep -Eq "^branches-taken +0x101 "
if "$RVT_BIN" stat "$RVT_SRC/programs/sort.elf" -e nosuch >/dev/null 2>&1; then exit 1; fi
echo ok
