#!/bin/bash
# The interop programs (shared/interop/programs/README.md) on the hart:
# each prints "NAME: PASS ...", exits 0, and executes the README's
# instruction count minus QEMU's 6 reset-ROM instructions.  traps.elf is the
# exception: its misaligned lw traps here (QEMU 7.2 does not trap), so it
# prints misaligned=2 and runs the handler's emulation path.
set -u
: "${RVT_SRC:?}" "${RVT_BIN:?}" "${RVT_TMP:?}"
dir="$RVT_SRC/../shared/interop/programs"
[ -d "$dir" ] || { echo "skip: no $dir"; exit 77; }
mkdir -p "$RVT_TMP/hart_interop"
fail=0
while read -r name count; do
    p="$dir/$name.elf"
    [ -f "$p" ] || { echo "skip $name"; continue; }
    o="$RVT_TMP/hart_interop/$name"
    "$RVT_BIN" run "$p" --stats >"$o.out" 2>"$o.err"
    rc=$?
    exe=$(sed -n 's/^rvtrace: \([0-9,]*\) executed.*/\1/p' "$o.err" | tr -d ,)
    if [ $rc -ne 0 ] || ! grep -q "^$name: PASS" "$o.out"; then
        echo "FAIL $name: exit $rc, output: $(cat "$o.out")"; fail=1; continue
    fi
    if [ "$name" = traps ]; then
        grep -q "misaligned=2" "$o.out" || { echo "FAIL traps: want misaligned=2"; fail=1; }
    elif [ "$exe" != "$((count - 6))" ]; then
        echo "FAIL $name: executed $exe, README says $count - 6"; fail=1; continue
    fi
    echo "ok   $name ($exe executed)"
done <<'LIST'
coswap 27398
deeprec 31394
traps 1763
privs 6831
amo_smc 5690
rv32mix 208220
branchy 97702
LIST
exit $fail
