#!/bin/bash
# The OpenSBI 1.1 + U-Boot boot (tests/e2e/boot_uboot.sh) against QEMU 7.2
# (docs/conformance-hart.md "Booting firmware"): the executed-PC streams
# of `rvtrace run --bios fw_jump.elf --kernel uboot.elf` and of
# `qemu-system-riscv64 -machine virt -bios ... -kernel ... -dtb` with the
# same device tree, QEMU's hart configured as the hart (no H, Sstc, Zb*,
# Svpbmt...; Sscofpmf with 29 counters), `-icount shift=0`, compared for
# the first RVT_QEMU_UBOOT_INSNS (default 6 M: all of OpenSBI and the
# start of U-Boot; 14 M reaches U-Boot's autoboot countdown, where the
# clocks part: see the doc) instructions.  They must be equal except for
# one documented QEMU deviation: OpenSBI's PMP probe reads pmpaddr16,
# which QEMU 7.2 does not have (it traps; priv 1.12 3.7.1: pmpaddr16-63
# exist, the hart's read 0).  Skips (77) without QEMU, the packages or
# python3.
set -u
: "${RVT_SRC:?}" "${RVT_BIN:?}" "${RVT_TMP:?}"
fw=/usr/lib/riscv64-linux-gnu/opensbi/generic/fw_jump.elf
ub=/usr/lib/u-boot/qemu-riscv64_smode/uboot.elf
for c in qemu-system-riscv64 python3; do
    command -v $c >/dev/null || { echo "skip: no $c"; exit 77; }
done
[ -f "$fw" ] && [ -f "$ub" ] || { echo "skip: opensbi or u-boot-qemu not installed"; exit 77; }
objdump=$(command -v riscv64-unknown-elf-objdump || command -v riscv64-linux-gnu-objdump || echo "")
n=${RVT_QEMU_UBOOT_INSNS:-6000000}
t="$RVT_TMP/qemu_uboot"
rm -rf "$t"; mkdir -p "$t"
. "$RVT_SRC/scripts/qemu-boot.sh"
qemu_boot_cmd "$fw" "$ub"
fail=0

# 1. The hart's device tree, as QEMU puts it in RAM (scripts/qemu-boot.sh)
qemu_boot_dtb "$RVT_BIN" "$t" --bios "$fw" --kernel "$ub" ||
    { echo "FAIL: no device tree from QEMU's RAM"; exit 1; }

# 2. The hart's executed PCs
"$RVT_BIN" run --bios "$fw" --kernel "$ub" --dtb "$t/boot.dtb" --pcs-executed "$t/hart.pcs" \
    --max-instr "$n" --quiet >"$t/hart.out" 2>"$t/hart.err"
[ "$(uniq "$t/hart.pcs" | wc -l)" -eq "$(wc -l <"$t/hart.pcs")" ] ||
    { echo "FAIL: the hart's list repeats a PC (the uniq below would hide it)"; fail=1; }

# 3. QEMU's, streamed (scripts/qemu-boot.sh)
qemu_boot_pcs "$t" "$n"
[ "$(wc -l <"$t/qemu.pcs")" -eq "$n" ] || { echo "FAIL: QEMU logged $(wc -l <"$t/qemu.pcs") PCs"; fail=1; }

# 4. Compare; the one difference allowed is right after OpenSBI's csrr of
#    pmpaddr16 (CSR 0x3c0)
python3 "$RVT_SRC/tests/e2e/pc_resync.py" "$t/qemu.pcs" "$t/hart.pcs" 1 >"$t/cmp"
rc=$?
cat "$t/cmp"
[ $rc -eq 0 ] || fail=1
ndiff=$(grep -c '^diff' "$t/cmp")
if [ "$ndiff" -eq 1 ]; then
    line=$(sed -n 's/^diff at hart line \([0-9]*\) .*/\1/p' "$t/cmp")
    prev=$(sed -n "$((line - 1))p" "$t/hart.pcs")
    if [ -n "$objdump" ]; then
        insn=$($objdump -d "$fw" --start-address=0x$prev --stop-address=$((0x$prev + 4)) |
               grep "^ *$prev:")
        if printf '%s' "$insn" | grep -q 'csrr.*0x3c0'; then
            echo "ok   the one difference follows OpenSBI's read of pmpaddr16 at $prev"
        else
            echo "FAIL: the difference follows '$insn', not the pmpaddr16 probe"; fail=1
        fi
    fi
elif [ "$ndiff" -ne 0 ]; then
    echo "FAIL: $ndiff differences"; fail=1
fi
exit $fail
