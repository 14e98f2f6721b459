#!/bin/sh
# Rebuild the rvtrace workload ELFs (bare metal, QEMU virt map).
#   programs/build.sh            rebuild every ELF in programs/
#   programs/build.sh NAME...    rebuild only NAME.elf
# Needs Debian's gcc-riscv64-unknown-elf and picolibc-riscv64-unknown-elf.
# The output is deterministic: fixed flags, no debug info, no build id,
# source paths mapped to ".", so a rebuild reproduces the committed bytes.
set -e
cd "$(dirname "$0")"
CC=${CC:-riscv64-unknown-elf-gcc}
need="sudo apt-get install gcc-riscv64-unknown-elf picolibc-riscv64-unknown-elf"
if ! command -v "$CC" >/dev/null 2>&1; then
    echo "build.sh: $CC not found; install it with: $need" >&2
    exit 1
fi
specs=$($CC -print-file-name=picolibc.specs)
if [ ! -f "$specs" ]; then
    echo "build.sh: picolibc.specs not found; install it with: $need" >&2
    exit 1
fi

# binutils >= 2.38 wants _zicsr_zifencei spelled out for csr*/fence.i;
# the ISA is otherwise exactly the named one.
RV64C="-march=rv64imac_zicsr_zifencei -mabi=lp64"
RV64NC="-march=rv64ima_zicsr_zifencei -mabi=lp64"
RV32C="-march=rv32imac_zicsr_zifencei -mabi=ilp32"
RV64G="-march=rv64gc_zicsr_zifencei -mabi=lp64d"
RV32G="-march=rv32gc_zicsr_zifencei -mabi=ilp32d"
# picolibc supplies headers only (stdint.h, stddef.h); no libc is linked.
COMMON="--specs=$specs -std=gnu11 -ffreestanding -fno-builtin -nostdlib
 -nostartfiles -fno-tree-loop-distribute-patterns -fno-stack-protector
 -fno-asynchronous-unwind-tables -fno-unwind-tables -mcmodel=medany
 -ffile-prefix-map=$PWD=. -Wall -Wextra -Werror -Irt -T rt/link.ld
 -Wl,--build-id=none -Wl,--no-warn-rwx-segments"

# prog OUT ARCH FLAGS... SOURCES...: crt0 + runtime + sources -> OUT.elf
prog() {
    out=$1; arch=$2; shift 2
    if [ -n "$only" ] && ! echo " $only " | grep -q " $out "; then return; fi
    echo "  CC $out.elf"
    # libgcc last: RV32 needs its 64-bit divide helpers
    $CC $COMMON $arch "$@" rt/crt0.S rt/rt.c -lgcc -o "$out.elf"
}
# progg: as prog (the program first, as there), its source compiled alone
# with debug info (-g), so that only it has DWARF line tables (the
# coverage workloads).
progg() {
    out=$1; arch=$2; src=$3; shift 3
    if [ -n "$only" ] && ! echo " $only " | grep -q " $out "; then return; fi
    echo "  CC $out.elf (-g $src)"
    $CC $COMMON $arch "$@" -g -c "$src" -o "$out.o"
    $CC $COMMON $arch "$@" "$out.o" rt/crt0.S rt/rt.c -lgcc -o "$out.elf"
    rm -f "$out.o"
}
only="$*"

# name            ISA       flags                  sources
prog sort         "$RV64C"  -O2                    src/sort.c
prog sort_nc      "$RV64NC" -O2                    src/sort.c
prog sort_rv32    "$RV32C"  -O2                    src/sort.c
prog crc          "$RV64C"  -O2                    src/crc.c
prog crc_nc       "$RV64NC" -O2                    src/crc.c
prog crc_rv32     "$RV32C"  -O2                    src/crc.c
prog recurse      "$RV64C"  -O1 -fno-optimize-sibling-calls src/recurse.c
prog fptr         "$RV64C"  -O2                    src/fptr.c
prog switch       "$RV64C"  -O2                    src/switch.c
prog tailcall     "$RV64C"  -O2 -foptimize-sibling-calls src/tailcall.c
prog setjmp       "$RV64C"  -O2                    src/setjmp.c src/setjmp.S
prog coswap       "$RV64C"  -O2                    src/coswap_main.c src/coswap.S
prog farcall      "$RV64C"  -O2                    src/farcall.c
prog farcall_rv32 "$RV32C"  -O2                    src/farcall.c
prog ecall        "$RV64C"  -O2                    src/ecall.c
prog ecall_rv32   "$RV32C"  -O2                    src/ecall.c
prog illegal      "$RV64C"  -O2                    src/illegal.c
prog ilen         "$RV64C"  -O2                    src/ilen.c
prog ilen_rv32    "$RV32C"  -O2                    src/ilen.c
prog ebreak       "$RV64C"  -O2                    src/ebreak.c
prog misalign     "$RV64C"  -O2                    src/misalign.c
prog timer        "$RV64C"  -O2                    src/timer.c
prog stimer       "$RV64C"  -O2                    src/stimer.c
prog wfi          "$RV64C"  -O2                    src/wfi.c
prog privs        "$RV64C"  -O2                    src/privs.c
prog paging       "$RV64C"  -O2                    src/paging.c
prog asid         "$RV64C"  -O2 -DNPAGES=64 -DROUNDS=8 -DREMAP_EVERY=4 src/vmheavy.c
# Bench-only programs (programs/bench/: too long for the test matrices)
prog bench/vmheavy "$RV64C"  -O2                   src/vmheavy.c
prog amo          "$RV64C"  -O2                    src/amo.c
prog smp          "$RV64C"  -O2 -Wl,-e,smp_start  src/smp_start.S src/smp.c
prog csr          "$RV64C"  -O2                    src/csr.c
prog csr_rv32     "$RV32C"  -O2                    src/csr.c
prog long         "$RV64C"  -O2                    src/long.c
prog ctr          "$RV64C"  -O2                    src/ctr.c
prog pmu          "$RV64C"  -O2                    src/pmu.c
prog trigger      "$RV64C"  -O2                    src/trigger.c
prog trigger_rv32 "$RV32C"  -O2                    src/trigger.c
prog fpu          "$RV64G"  -O2                    src/fpu.c
prog fpu_rv32     "$RV32G"  -O2                    src/fpu.c
# Trace Control Interface programs (programs/tci/: they need run --tci,
# so the tests that run every programs/*.elf do not pick them up)
prog tci/tci_drv      "$RV64C" -O1                  src/tci_drv.c rt/fdt.c
prog tci/tci_drv_sram "$RV64C" -O1 -DTCI_SRAM       src/tci_drv.c rt/fdt.c
prog tci/tci_drv_ts   "$RV64C" -O1 -DTCI_TS         src/tci_drv.c rt/fdt.c
prog tci/tci_drv_nt   "$RV64C" -O1 -DTCI_NTRACE     src/tci_drv.c rt/fdt.c
prog tci/tci_drv_data "$RV64C" -O1 -DTCI_DATA       src/tci_drv.c rt/fdt.c
prog tci/tci_window   "$RV64C" -O1 -DTCI_WINDOW     src/tci_drv.c rt/fdt.c
prog tci/tci_hostile  "$RV64C" -O1                  src/tci_hostile.c
prog tci/tci_smp      "$RV64C" -O1 -Wl,-e,smp_start src/smp_start.S src/tci_smp.c

# SBI payloads (programs/sbi/: S-mode at 0x80200000, started by OpenSBI's
# fw_jump with run --bios / qemu -bios; main gets hartid and the DTB)
SBI="-DRT_SBI_PAYLOAD -Wl,--defsym=rt_ram_base=0x80200000"
prog sbi/sbi_pmu      "$RV64C" -O2 $SBI             src/sbi_pmu.c
prog sbi/tci_drv      "$RV64C" -O1 $SBI             src/tci_drv.c rt/fdt.c

# Spike-machine programs (programs/spike/: not run on QEMU's virt board)
prog spike/htif      "$RV64C" -O2                  src/htif.c
prog spike/htif_rv32 "$RV32C" -O2                  src/htif.c
prog spike/memregion "$RV32C" -O2 -Wl,--section-start=.region_text=0x20010000 \
                  -Wl,--section-start=.region_data=0x20011000 src/memregion.c
progg cov        "$RV64C"  src/cov.c  -O0
