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

# trigger.elf programs the Sdtrig CSRs (docs/tv.md "Triggers"): its trace
# reports the tselect/tdata1/tdata2 writes, and the verifier compares
# them: a tdata2 value changed in the trace is a divergence on tdata2.
elf="$RVT_SRC/programs/trigger.elf"
"$RVT_BIN" run "$elf" --quiet --tv "$T/trig.tvt" > /dev/null 2>&1
"$RVT_BIN" dump "$T/trig.tvt" > "$T/trig.dump"
for r in tselect tdata1 tdata2; do
    grep -q "full_reg reg=$r " "$T/trig.dump" || { echo "FAIL trigger: no $r write"; fails=$((fails + 1)); }
done
python3 - "$T/trig.dump" "$T/trig.tvt" "$T/bad.tvt" <<'PY' || { echo "FAIL trigger: tamper"; fails=$((fails + 1)); }
import sys
# The first tdata2 write of a non-zero value: its value's bytes (little
# endian) follow the item's offset; flip the low bit.
for line in open(sys.argv[1]):
    f = line.split()
    if len(f) > 4 and f[2] == "full_reg" and f[3] == "reg=tdata2" and f[5] != "value=0x0":
        off, val = int(f[0], 16), int(f[5].split("=")[1], 16)
        break
b = bytearray(open(sys.argv[2], "rb").read())
i = b.index(val.to_bytes(8, "little"), off)
b[i] ^= 1
open(sys.argv[3], "wb").write(b)
PY
"$RVT_BIN" verify --elf "$elf" "$T/bad.tvt" > "$T/bad.out" 2>&1 &&
    { echo "FAIL trigger: a changed tdata2 verifies"; fails=$((fails + 1)); }
grep -q "tdata2: expected" "$T/bad.out" ||
    { echo "FAIL trigger: no tdata2 divergence: $(head -1 "$T/bad.out")"; fails=$((fails + 1)); }

echo "tandem verification: $n programs, $fails failures"
[ "$fails" -eq 0 ]
