# Sourced by tests/e2e/qemu_uboot.sh and scripts/linux-qemu-compare.sh: QEMU
# 7.2's virt board set up as the hart (docs/hart.md "Booting"), and the two
# steps both comparisons of a firmware boot with QEMU share.
#   qemu_boot_cmd FW KERNEL    sets the array qemu_boot (the command without
#                              logging or -dtb): QEMU's hart configured as
#                              rvtrace's (no H, Sstc, Zb*, Svpbmt...;
#                              Sscofpmf with 29 counters), 128 MiB
#   qemu_boot_dtb RVTRACE DIR RUN-ARGS...   writes DIR/boot.dtb: the hart's
#                              device tree (run RUN-ARGS --dump-dtb) as QEMU
#                              puts it in RAM.  QEMU adds 32 random bytes of
#                              /chosen/rng-seed even to a -dtb tree, so both
#                              get QEMU's copy (same layout; only the seed's
#                              bytes differ between QEMU runs).
#   qemu_boot_pcs DIR N        QEMU's first N executed PCs with -icount
#                              shift=0 into DIR/qemu.pcs, streamed, minus the
#                              6-instruction reset ROM at 0x1000 and repeated
#                              lines (QEMU logs a TB again when the icount
#                              budget expires before it runs); QEMU gets
#                              $QEMU_BOOT_TIMEOUT seconds (default 900)

qemu_boot_cmd() {
    local cpu="rv64,h=false,sstc=false,sscofpmf=true,pmu-num=29,svpbmt=false,svinval=false,svnapot=false"
    cpu="$cpu,zba=false,zbb=false,zbc=false,zbs=false,Zihintpause=false"
    qemu_boot=(qemu-system-riscv64 -machine virt -cpu "$cpu" -m 128M -bios "$1" -kernel "$2")
}

qemu_boot_dtb() {
    local rvt=$1 dir=$2 size
    shift 2
    "$rvt" run "$@" --dump-dtb "$dir/ours.dtb" --max-instr 1 --quiet >/dev/null 2>&1
    ( cd "$dir" && { sleep 1; echo 'pmemsave 0x87e00000 0x10000 "ram.bin"'; sleep 1; echo quit; } |
        timeout 30 "${qemu_boot[@]}" -dtb ours.dtb -display none -serial none -monitor stdio -S \
        >/dev/null 2>&1 )
    size=$(od -An -tu1 -j4 -N4 "$dir/ram.bin" 2>/dev/null |
           awk '{print $1 * 16777216 + $2 * 65536 + $3 * 256 + $4}')
    [ -n "$size" ] && [ "$size" -gt 0 ] || return 1
    head -c "$size" "$dir/ram.bin" >"$dir/boot.dtb"
}

qemu_boot_pcs() {
    local dir=$1 n=$2 qpid
    rm -f "$dir/log"
    mkfifo "$dir/log"
    timeout "${QEMU_BOOT_TIMEOUT:-900}" "${qemu_boot[@]}" -dtb "$dir/boot.dtb" -nographic -monitor none -icount shift=0 \
        -singlestep -d exec,nochain -D "$dir/log" </dev/null >"$dir/qemu.out" 2>&1 &
    qpid=$!
    sed -n 's/^Trace [0-9]*: 0x[0-9a-f]* \[[0-9a-f]*\/\([0-9a-f]*\)\/.*/\1/p' "$dir/log" |
        sed 's/^0*\([0-9a-f]\)/\1/' |
        awk 'BEGIN{rom=1} rom && /^10(0|1)[0-9a-f]$/ {next} {rom=0; print}' |
        uniq | head -n "$n" >"$dir/qemu.pcs"
    kill "$qpid" 2>/dev/null
    wait "$qpid" 2>/dev/null
}
