# Shared by the U-Boot boot tests (sourced; docs/hart.md "Booting"):
# Debian's OpenSBI fw_jump.elf and U-Boot S-mode build, U-Boot's relocation
# address (bdinfo's relocaddr, where it runs after copying itself), and
# the test's folder $t, made anew.  Skips (77) without the packages.
: "${RVT_SRC:?}" "${RVT_BIN:?}" "${RVT_TMP:?}"
fw=/usr/lib/riscv64-linux-gnu/opensbi/generic/fw_jump.elf
U=/usr/lib/u-boot/qemu-riscv64_smode
UBOOT_RELOC=0x87f57000
t="$RVT_TMP/$1"
rm -rf "$t"; mkdir -p "$t"
[ -f "$fw" ] && [ -f "$U/uboot.elf" ] && [ -f "$U/u-boot.bin" ] ||
    { echo "skip: opensbi or u-boot-qemu not installed"; exit 77; }
