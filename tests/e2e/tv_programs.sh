#!/bin/bash
# Tandem verification of every workload (TV spec 3.1): the hart writes the
# trace with every architectural side effect, and `verify` replays it on a
# second reference hart without a single divergence.  pmu.elf exercises the
# SBI firmware model (its ecalls write a0 and a1), ctr.elf CTR's CSRs.
set -u
T="$RVT_TMP/tv_programs"; mkdir -p "$T"
fails=0 n=0
for elf in "$RVT_SRC"/programs/*.elf; do
    name=$(basename "$elf" .elf)
    case "$name" in long*) continue ;; esac   # 240M instructions: bench territory
    n=$((n + 1))
    "$RVT_BIN" run "$elf" --quiet --tv "$T/t.tvt" > "$T/run.out" 2>&1 ||
        { echo "FAIL $name: run: $(tail -1 "$T/run.out")"; fails=$((fails + 1)); continue; }
    "$RVT_BIN" verify --elf "$elf" "$T/t.tvt" > "$T/v.out" 2>&1 ||
        { echo "FAIL $name: $(head -1 "$T/v.out")"; fails=$((fails + 1)); }
done
echo "tandem verification: $n programs, $fails failures"
[ "$fails" -eq 0 ]
