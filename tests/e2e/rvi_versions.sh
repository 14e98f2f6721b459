#!/bin/bash
# .rvi versions 1 and 2 (docs/format-rvi.md): for every programs/*.elf,
# hart -> .rvi -> `rvtrace encode` equals the hart encoding directly, byte
# for byte, E-Trace (default and --te-opt all) and N-Trace, whichever
# version the hart wrote; and the same records dump identically from both.
# Version 2 is the smaller.  The 240M-instruction long.elf runs its first
# 3M instructions (--max-instr: status 1, the files are complete).
set -u
T="$RVT_TMP/rvi_versions"
mkdir -p "$T"
shopt -s nullglob
progs=("$RVT_SRC"/programs/*.elf)
[ ${#progs[@]} -gt 0 ] || { echo "no programs/*.elf: skipped"; exit 77; }
fail=0
bad() { echo "FAIL $*"; fail=1; }
for elf in "${progs[@]}"; do
    p=$(basename "$elf" .elf)
    lim=()
    case "$p" in long*) lim=(--max-instr 3M) ;; esac
    for v in 1 2; do
        timeout 120 "$RVT_BIN" run "$elf" "${lim[@]}" --quiet --ingress "$T/$p.$v.rvi" --ingress-version $v \
            --etrace "$T/$p.$v.te" --ntrace "$T/$p.$v.nt" >/dev/null 2>"$T/$p.err"
        rc=$?
        [ $rc -eq 0 ] || { [ ${#lim[@]} -gt 0 ] && [ $rc -eq 1 ]; } || { bad "$p: run status $rc"; continue 2; }
        timeout 120 "$RVT_BIN" run "$elf" "${lim[@]}" --quiet --etrace "$T/$p.all.te" --te-opt all \
            >/dev/null 2>>"$T/$p.err"
        for k in etrace:te ntrace:nt; do
            "$RVT_BIN" encode --${k%%:*} "$T/$p.$v.rvi" -o "$T/$p.$v.enc" 2>>"$T/$p.err" || bad "$p v$v: encode --${k%%:*}"
            cmp -s "$T/$p.$v.${k##*:}" "$T/$p.$v.enc" || bad "$p v$v: encode --${k%%:*} from .rvi differs from the run's"
        done
        "$RVT_BIN" encode --etrace "$T/$p.$v.rvi" --te-opt all -o "$T/$p.$v.enc" 2>>"$T/$p.err"
        cmp -s "$T/$p.all.te" "$T/$p.$v.enc" || bad "$p v$v: encode --te-opt all from .rvi differs from the run's"
        "$RVT_BIN" dump "$T/$p.$v.rvi" | tail -n +2 >"$T/$p.$v.dump" || bad "$p v$v: dump"
    done
    cmp -s "$T/$p.1.dump" "$T/$p.2.dump" || bad "$p: the two versions dump differently"
    s1=$(stat -c %s "$T/$p.1.rvi"); s2=$(stat -c %s "$T/$p.2.rvi")
    [ "$s2" -lt "$s1" ] || bad "$p: version 2 ($s2 bytes) not smaller than version 1 ($s1)"
    rm -f "$T/$p".*
done
exit $fail
