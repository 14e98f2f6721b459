#!/bin/bash
# rvtrace run --bios/--kernel (docs/hart.md "Booting"): Debian's OpenSBI 1.1
# (generic fw_jump.elf) boots Debian's U-Boot S-mode build to its prompt,
# which runs version, bdinfo and md from --stdin and powers off through
# SBI SRST -> OpenSBI -> the syscon.  The expected console lines come from
# the packages (version strings), the memory map (bdinfo) and the U-Boot
# ELF's own bytes (md).  Also the boot options' usage errors.
# Skips (77) without the opensbi / u-boot-qemu packages.
set -u
: "${RVT_SRC:?}" "${RVT_BIN:?}" "${RVT_TMP:?}"
fw=/usr/lib/riscv64-linux-gnu/opensbi/generic/fw_jump.elf
ub=/usr/lib/u-boot/qemu-riscv64_smode/uboot.elf
t="$RVT_TMP/boot_uboot"
mkdir -p "$t"
. "$RVT_SRC/tests/e2e/lib/expect.sh"
has() {      # has FILE DESCRIPTION FIXED-STRING
    if grep -qF -- "$3" "$1"; then echo "ok   $2"; else echo "FAIL $2: no '$3'"; fail=1; fi
}

expect 2 "--kernel without --bios" -- "$RVT_BIN" run --kernel x.elf
expect 2 "--append without --bios" -- "$RVT_BIN" run x.elf --append "a b"
expect 2 "--bios and a program" -- "$RVT_BIN" run x.elf --bios y.elf
expect 2 "--initrd without --kernel" -- "$RVT_BIN" run --bios y.elf --initrd z
expect 1 "missing firmware" -- "$RVT_BIN" run --bios "$t/none.elf"
grep -q "none.elf" "$t/err" || { echo "FAIL missing firmware: no file name"; fail=1; }

if [ ! -f "$fw" ] || [ ! -f "$ub" ]; then
    echo "skip: opensbi or u-boot-qemu not installed"
    [ $fail -eq 0 ] && exit 77 || exit 1
fi

# The first key stops autoboot; the rest is typed at the prompt.
printf '\nversion\nbdinfo\nmd 0x80200000 4\npoweroff\n' >"$t/in"
expect 0 "OpenSBI + U-Boot boot, commands, poweroff" -- \
    "$RVT_BIN" run --bios "$fw" --kernel "$ub" --stdin "$t/in" --max-instr 100M
cp "$t/out" "$t/console"
c="$t/console"
has "$c" "OpenSBI banner" "OpenSBI v1.1"
has "$c" "OpenSBI found the syscon" "Platform Shutdown Device  : sifive_test"
has "$c" "OpenSBI found the ACLINT" "Platform Timer Device     : aclint-mtimer @ 10000000Hz"
has "$c" "OpenSBI's next stage" "Domain0 Next Address      : 0x0000000080200000"
has "$c" "U-Boot banner" "U-Boot 2023.01"
has "$c" "U-Boot saw 128 MiB" "DRAM:  128 MiB"
has "$c" "the prompt took 'version'" "=> version"
[ "$(grep -c '^U-Boot 2023.01' "$c")" -ge 2 ] && echo "ok   version printed" ||
    { echo "FAIL version output"; fail=1; }
has "$c" "bdinfo: RAM start" "-> start    = 0x0000000080000000"
has "$c" "bdinfo: RAM size" "-> size     = 0x0000000008000000"
# md: the first 16 bytes of U-Boot's text, from its ELF (the segment at
# file offset 0x1000 is loaded at 0x80200000)
words=$(od -An -tx4 -j 4096 -N 16 "$ub" | tr -s ' ' | sed 's/^ //')
has "$c" "md shows U-Boot's first words" "80200000: $words"
has "$c" "poweroff" "poweroff ..."

# --ram-size reaches the DTB's memory node and U-Boot
printf '\nbdinfo\npoweroff\n' >"$t/in2"
expect 0 "boot with --ram-size 256M" -- \
    "$RVT_BIN" run --bios "$fw" --kernel "$ub" --stdin "$t/in2" --ram-size 256M --max-instr 100M
has "$t/out" "bdinfo: 256 MiB" "-> size     = 0x0000000010000000"

# A payload the firmware cannot find: raw bytes at 0x80200000 that loop
# (j . = 0x0000006f): the run goes on until --max-instr.
printf '\x6f\x00\x00\x00' >"$t/loop.bin"
expect 1 "raw payload at 0x80200000" -- \
    "$RVT_BIN" run --bios "$fw" --kernel "$t/loop.bin" --max-instr 7M --pcs-retired "$t/pcs"
[ "$(tail -1 "$t/pcs")" = 80200000 ] && echo "ok   raw payload runs at 0x80200000" ||
    { echo "FAIL raw payload: last pc $(tail -1 "$t/pcs")"; fail=1; }
exit $fail
