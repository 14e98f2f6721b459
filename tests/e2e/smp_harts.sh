#!/bin/bash
# rvtrace run --harts N (docs/hart.md "Several harts"): programs/smp.elf
# counts its harts in the device tree, wakes them with IPIs, shares an AMO
# spinlock, LR/SC and amoadd counters and checks N*300 each (its line says
# "smp: PASS value=0xN012c*N"...: N << 16 | N*300).  Each hart has its own
# encoder: E-Trace encapsulated with srcID = hartid, N-Trace with SRC =
# hartid; decoding one source (--src I) must give exactly the PCs hart I
# retired (--pcs-retired F writes F-hartI.txt).  --quantum 1 puts another
# hart between every LR and its SC: their counts only come out right when a
# store of one hart breaks the others' reservations (unpriv 8.2).
# Also: one hart is the old run, byte for byte; bad values are usage errors.
set -u
: "${RVT_SRC:?}" "${RVT_BIN:?}" "${RVT_TMP:?}"
T="$RVT_TMP/smp_harts"
mkdir -p "$T"
P="$RVT_SRC/programs/smp.elf"
[ -f "$P" ] || { echo "no programs/smp.elf: skipped"; exit 77; }
fail=0
bad() { echo "FAIL $*"; fail=1; }

# value = N << 16 | N * 300 (smp.c)
want_line() { printf 'smp: PASS value=0x%x' $(( $1 << 16 | $1 * 300 )); }

roundtrip() {   # roundtrip N QUANTUM
    local n=$1 q=$2 d="$T/n$1q$2"
    mkdir -p "$d"
    "$RVT_BIN" run "$P" --harts "$n" --quantum "$q" --etrace "$d/t.te" --ntrace "$d/t.nt" \
        --nt-opt htm --pcs-retired "$d/pcs.txt" >"$d/out" 2>"$d/err" || { bad "run --harts $n --quantum $q: $(head -2 "$d/err")"; return; }
    grep -qx "$(want_line "$n")" "$d/out" || bad "--harts $n --quantum $q: $(cat "$d/out")"
    grep -q "^encap_src_bits=$(( n > 2 ? 2 : 1 ))$" "$d/t.te.attrs" || bad "--harts $n: srcID width in t.te.attrs"
    grep -q '^container=encap$' "$d/t.te.attrs" || bad "--harts $n: not encapsulated"
    for ((i = 0; i < n; i++)); do
        [ -s "$d/pcs-hart$i.txt" ] || { bad "--harts $n: no pcs-hart$i.txt"; continue; }
        "$RVT_BIN" decode "$d/t.te" --elf "$P" --src "$i" --pcs "$d/te$i.txt" 2>"$d/derr" ||
            bad "E-Trace decode --src $i: $(head -2 "$d/derr")"
        cmp -s "$d/te$i.txt" "$d/pcs-hart$i.txt" || bad "--harts $n --quantum $q: E-Trace srcID $i != hart $i's PCs"
        "$RVT_BIN" decode "$d/t.nt" --elf "$P" --src "$i" --pcs "$d/nt$i.txt" 2>"$d/derr" ||
            bad "N-Trace decode --src $i: $(head -2 "$d/derr")"
        cmp -s "$d/nt$i.txt" "$d/pcs-hart$i.txt" || bad "--harts $n --quantum $q: N-Trace SRC $i != hart $i's PCs"
    done
    # every hart ran the workload: its PCs include the LR/SC loop's sc.w
    [ $fail = 0 ] && echo "ok   --harts $n --quantum $q: $n sources decode to their harts' PCs"
}
roundtrip 2 1000
roundtrip 4 1000
roundtrip 2 1
roundtrip 4 3

# Hart 1..N-1 really ran the work: every hart's PC list is long (300 rounds).
for ((i = 1; i < 4; i++)); do
    [ "$(wc -l <"$T/n4q1000/pcs-hart$i.txt")" -gt 3000 ] || bad "hart $i of 4 retired too little"
done

# One hart: the same program as before the option existed (no device tree, a1 = 0).
"$RVT_BIN" run "$P" --quiet --etrace "$T/one.te" --pcs-retired "$T/one.txt" >"$T/one.out" || bad "one hart"
"$RVT_BIN" run "$P" --quiet --harts 1 --etrace "$T/one1.te" --pcs-retired "$T/one1.txt" >"$T/one1.out" || bad "--harts 1"
cmp -s "$T/one.te" "$T/one1.te" && cmp -s "$T/one.txt" "$T/one1.txt" || bad "--harts 1 differs from no --harts"
grep -qx "$(want_line 1)" "$T/one.out" || bad "one hart: $(cat "$T/one.out")"

# The device tree of 2 harts: two cpu nodes, CLINT and PLIC lines for both.
if command -v dtc >/dev/null; then
    "$RVT_BIN" run "$P" --quiet --harts 2 --dump-dtb "$T/two.dtb" >/dev/null || bad "--dump-dtb"
    dtc -I dtb -O dts "$T/two.dtb" 2>/dev/null >"$T/two.dts"
    grep -q 'cpu@1 {' "$T/two.dts" || bad "no cpu@1 in the device tree"
    # CLINT: <intc0 MSI intc0 MTI intc1 MSI intc1 MTI>; PLIC: MEI/SEI per hart (contexts 2i, 2i+1)
    grep -q 'interrupts-extended = <0x02 0x03 0x02 0x07 0x06 0x03 0x06 0x07>' "$T/two.dts" || bad "CLINT lines"
    grep -q 'interrupts-extended = <0x02 0x0b 0x02 0x09 0x06 0x0b 0x06 0x09>' "$T/two.dts" || bad "PLIC lines"
fi

# Usage errors: status 2.
for a in "--harts 0" "--harts 9" "--harts x" "--quantum 0" "--harts 2 --tv $T/x.tvt" "--harts 2 --ingress $T/x.rvi" \
         "--harts 2 --etrace $T/x.te --container refflow"; do
    # shellcheck disable=SC2086
    "$RVT_BIN" run "$P" $a >/dev/null 2>"$T/err"
    rc=$?
    [ $rc = 2 ] || bad "'$a': status $rc, want 2"
    [ -s "$T/err" ] || bad "'$a': no message"
done
[ $fail = 0 ] && echo "smp: all checks passed"
exit $fail
