#!/bin/bash
# The generated device tree (docs/hart.md "Device tree"), dumped with
# rvtrace run --dump-dtb and decompiled with dtc: every node and property
# the hart and board model, for RV64 and RV32, --isa, --ram-size,
# --append and --initrd (placed as QEMU 7.2 places it); --dtb F is used
# as given, and one that is not a device tree is refused naming the file
# and offset.  Expected values: QEMU virt's map, hand-computed addresses.
# Skips (77) without dtc.
set -u
: "${RVT_SRC:?}" "${RVT_BIN:?}" "${RVT_TMP:?}"
command -v dtc >/dev/null || { echo "skip: no dtc (device-tree-compiler)"; exit 77; }
t="$RVT_TMP/dtb_nodes"
mkdir -p "$t"
fail=0
dts() {      # dts NAME -- rvtrace run arguments: dump, decompile to $t/NAME.dts
    local n=$1; shift 2
    "$RVT_BIN" run "$@" --dump-dtb "$t/$n.dtb" --quiet >/dev/null 2>"$t/$n.err"
    if ! dtc -q -I dtb -O dts "$t/$n.dtb" >"$t/$n.dts" 2>"$t/$n.dtc"; then
        echo "FAIL $n: dtc cannot read the blob: $(head -2 "$t/$n.dtc")"; fail=1
    fi
}
has() {      # has NAME FIXED-STRING...
    local n=$1; shift
    for s in "$@"; do
        if grep -qF -- "$s" "$t/$n.dts"; then echo "ok   $n: $s"
        else echo "FAIL $n: no '$s'"; fail=1; fi
    done
}
lacks() {
    local n=$1; shift
    for s in "$@"; do
        if grep -qF -- "$s" "$t/$n.dts"; then echo "FAIL $n: unexpected '$s'"; fail=1
        else echo "ok   $n: no $s"; fi
    done
}

dts rv64 -- "$RVT_SRC/programs/crc.elf"
has rv64 'riscv,isa = "rv64imafdc_zicntr_zicsr_zifencei_zihpm_sscofpmf";' \
    'mmu-type = "riscv,sv39";' 'timebase-frequency = <0x989680>;' \
    'compatible = "riscv,cpu-intc";' 'memory@80000000 {' 'device_type = "memory";' \
    'reg = <0x00 0x80000000 0x00 0x8000000>;' \
    'serial@10000000 {' 'compatible = "ns16550a";' 'interrupts = <0x0a>;' \
    'reg = <0x00 0x10000000 0x00 0x100>;' \
    'plic@c000000 {' 'compatible = "sifive,plic-1.0.0\0riscv,plic0";' 'riscv,ndev = <0x60>;' \
    'reg = <0x00 0xc000000 0x00 0x600000>;' 'interrupts-extended = <0x02 0x0b 0x02 0x09>;' \
    'clint@2000000 {' 'interrupts-extended = <0x02 0x03 0x02 0x07>;' \
    'reg = <0x00 0x2000000 0x00 0x10000>;' \
    'test@100000 {' 'compatible = "sifive,test1\0sifive,test0\0syscon";' \
    'compatible = "syscon-poweroff";' 'value = <0x5555>;' \
    'compatible = "syscon-reboot";' 'value = <0x7777>;' \
    'stdout-path = "/soc/serial@10000000";'
# /pmu (QEMU 7.2's node, OpenSBI's binding): general events 1 (cycles) on
# counters 0 and 3-31 (0xfffffff9), 2 (instructions) on 2-31 (0xfffffffc),
# 5 (branches) on 3-31 (0xfffffff8), the hart's selectors 1, 2, 5
has rv64 'pmu {' 'compatible = "riscv,pmu";' \
    'riscv,event-to-mhpmcounters = <0x01 0x01 0xfffffff9 0x02 0x02 0xfffffffc 0x05 0x05 0xfffffff8>;'
lacks rv64 bootargs linux,initrd-start virtio_mmio pci@ flash@ rtc@
# the serial interrupt goes to the PLIC's phandle, the PLIC's contexts and
# the CLINT to the hart's interrupt controller
plic_ph=$(awk '/plic@c000000/{p=1} p&&/phandle/{gsub(/[^0-9x]/,"",$3); print $3; exit}' "$t/rv64.dts")
intc_ph=$(awk '/interrupt-controller \{/{p=1} p&&/phandle/{gsub(/[^0-9x]/,"",$3); print $3; exit}' "$t/rv64.dts")
grep -q "interrupt-parent = <$plic_ph>;" "$t/rv64.dts" && echo "ok   serial -> plic" ||
    { echo "FAIL serial's interrupt-parent is not the plic ($plic_ph)"; fail=1; }
[ "$intc_ph" = 0x02 ] && echo "ok   cpu intc phandle" || { echo "FAIL cpu intc phandle $intc_ph"; fail=1; }

dts rv32 -- "$RVT_SRC/programs/crc_rv32.elf" --ram-size 64M
has rv32 'riscv,isa = "rv32imafdc_zicntr_zicsr_zifencei_zihpm_sscofpmf";' \
    'mmu-type = "riscv,sv32";' 'reg = <0x00 0x80000000 0x00 0x4000000>;'
dts imac -- "$RVT_SRC/programs/crc.elf" --isa rv64imac
has imac 'riscv,isa = "rv64imac_zicntr_zicsr_zifencei_zihpm_sscofpmf";'
dts ima -- "$RVT_SRC/programs/crc.elf" --isa rv64ima
has ima 'riscv,isa = "rv64ima_zicntr_zicsr_zifencei_zihpm_sscofpmf";'

# boot options: a raw firmware that loops (j .), a raw kernel, an initrd
printf '\x6f\x00\x00\x00' >"$t/loop.bin"
head -c 4096 /dev/zero >"$t/initrd"
dts boot -- --bios "$t/loop.bin" --kernel "$t/loop.bin" --initrd "$t/initrd" \
    --append "console=ttyS0 rdinit=/init" --max-instr 10
# kernel at 0x80200000 (firmware end rounded up to 2 MiB); initrd at
# 0x80200000 + min(128M / 2, 128M) = 0x84200000, 4096 bytes
has boot 'bootargs = "console=ttyS0 rdinit=/init";' \
    'linux,initrd-start = <0x00 0x84200000>;' 'linux,initrd-end = <0x00 0x84201000>;'
dts big -- --bios "$t/loop.bin" --kernel "$t/loop.bin" --initrd "$t/initrd" --ram-size 512M --max-instr 10
# 512 MiB: 0x80200000 + 128 MiB
has big 'linux,initrd-start = <0x00 0x88200000>;' 'reg = <0x00 0x80000000 0x00 0x20000000>;'

# --dtb F: used (and dumped) as given
"$RVT_BIN" run --bios "$t/loop.bin" --dtb "$t/rv32.dtb" --dump-dtb "$t/given.dtb" \
    --max-instr 10 --quiet >/dev/null 2>&1
cmp -s "$t/rv32.dtb" "$t/given.dtb" && echo "ok   --dtb is used as given" ||
    { echo "FAIL --dtb: the hart's tree differs from the file"; fail=1; }

# --dtb F that is not a device tree: an error naming F and the offset
head -c 64 /dev/urandom >"$t/junk.dtb"
printf '\xd0\x0d\xfe\xed\x00\x01\x00\x00' >"$t/short.dtb"
for f in junk short; do
    "$RVT_BIN" run --bios "$t/loop.bin" --dtb "$t/$f.dtb" --max-instr 10 --quiet >/dev/null 2>"$t/$f.err"
    rc=$?
    if [ $rc -eq 1 ] && grep -q "$f.dtb: .*offset" "$t/$f.err"; then echo "ok   --dtb $f: refused"
    else echo "FAIL --dtb $f: status $rc: $(cat "$t/$f.err")"; fail=1; fi
done
exit $fail
