#!/bin/bash
# rvtrace run --harts 2 --bios/--kernel (docs/hart.md "Several harts"):
# Debian's OpenSBI 1.1 (generic fw_jump.elf) finds 2 harts in the device
# tree, boots hart 0 into Debian's U-Boot S-mode build and parks hart 1 in
# its HSM wait; U-Boot sees both cpu nodes, lists SBI's HSM extension and
# powers off.  Traced with one E-Trace encoder per hart (encapsulated,
# srcID = hartid): hart 1's source decodes to exactly the PCs hart 1
# retired; hart 0's up to U-Boot's relocation (its relocated copy runs at
# an address no --elf describes, with one hart as with two).
# Skips (77) without the opensbi / u-boot-qemu packages.
set -u
: "${RVT_SRC:?}" "${RVT_BIN:?}" "${RVT_TMP:?}"
fw=/usr/lib/riscv64-linux-gnu/opensbi/generic/fw_jump.elf
ub=/usr/lib/u-boot/qemu-riscv64_smode/uboot.elf
if [ ! -f "$fw" ] || [ ! -f "$ub" ]; then
    echo "skip: opensbi or u-boot-qemu not installed"
    exit 77
fi
t="$RVT_TMP/boot_smp"
mkdir -p "$t"
fail=0
has() {      # has FILE DESCRIPTION FIXED-STRING
    if grep -qF -- "$3" "$1"; then echo "ok   $2"; else echo "FAIL $2: no '$3'"; fail=1; fi
}

printf '\ncpu list\nsbi\npoweroff\n' >"$t/in"
"$RVT_BIN" run --harts 2 --bios "$fw" --kernel "$ub" --stdin "$t/in" --max-instr 200M \
    --etrace "$t/boot.te" --pcs-retired "$t/pcs.txt" >"$t/out" 2>"$t/err"
rc=$?
[ $rc = 0 ] && echo "ok   2-hart boot powers off" || { echo "FAIL 2-hart boot: status $rc: $(head -3 "$t/err")"; fail=1; }
c="$t/out"
has "$c" "OpenSBI counts 2 harts" "Platform HART Count       : 2"
has "$c" "both harts in OpenSBI's root domain" "Domain0 HARTs             : 0*,1*"
has "$c" "OpenSBI's IPI device is the ACLINT MSWI" "Platform IPI Device       : aclint-mswi"
has "$c" "U-Boot banner" "U-Boot 2023.01"
has "$c" "U-Boot lists cpu@1" "  1: cpu@1"
has "$c" "SBI HSM extension" "Hart State Management Extension"
has "$c" "poweroff" "poweroff ..."
has "$t/err" "hart 1 ran" "rvtrace: hart 1:"

"$RVT_BIN" decode "$t/boot.te" --elf "$fw" --src 1 --pcs "$t/d1.txt" 2>"$t/derr" ||
    { echo "FAIL decode srcID 1: $(head -3 "$t/derr")"; fail=1; }
cmp -s "$t/d1.txt" "$t/pcs-hart1.txt" && echo "ok   srcID 1 decodes to hart 1's $(wc -l <"$t/d1.txt") PCs" ||
    { echo "FAIL srcID 1 != hart 1's PCs: $(cmp "$t/d1.txt" "$t/pcs-hart1.txt" | head -1)"; fail=1; }
"$RVT_BIN" decode "$t/boot.te" --elf "$fw" --elf "$ub" --src 0 --pcs "$t/d0.txt" >/dev/null 2>&1
n=1000000       # OpenSBI's cold boot and U-Boot's start, before it relocates itself
cmp -s <(head -$n "$t/d0.txt") <(head -$n "$t/pcs-hart0.txt") && echo "ok   srcID 0: hart 0's first $n PCs" ||
    { echo "FAIL srcID 0: first $n PCs differ"; fail=1; }
exit $fail
