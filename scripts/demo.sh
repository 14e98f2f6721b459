#!/usr/bin/env bash
# make demo: run every bundled workload on the reference hart through every
# trace path -- E-Trace instruction trace (every compressing mode) with its
# data trace (chapter 7), N-Trace HTM (sequential jumps, implicit return,
# repeated history), the tandem-verification trace -- decode each back and
# check it against what the hart retired (PCs, data accesses; --pcs-traced:
# trigger*.elf switch their own trace off and on, docs/hart.md) or verify it
# against a second reference hart.  Usage: scripts/demo.sh PATH/TO/rvtrace
set -uo pipefail
RVT=${1:-build/rvtrace}
cd "$(dirname "$0")/.."
tmp=$(mktemp -d /tmp/rvtrace-demo.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

te_opts=(--te-opt implicit-return,implicit-except,sijump,branch-prediction,jump-target-cache
         --te-attr return_stack_size=5)
nt_opts=(--nt-opt htm,seq-jump,implicit-return=3,return-depth=32,repeat-history)

bits() {  # bits per instruction of a stream
    awk -v b="$(stat -c %s "$1")" -v n="$2" 'BEGIN { printf "%.3f", n ? b * 8 / n : 0 }'
}

printf '%-13s %13s %6s %6s %8s %6s  %-18s %-18s %-8s %-8s\n' program instructions traps irqs time 'M/s*' \
    "E-Trace bits/ins" "N-Trace bits/ins" "data" "tandem"
printf '%s\n' "---------------------------------------------------------------------------------------------------------------"
total=0 bad=0
for elf in programs/*.elf; do
    name=$(basename "$elf" .elf)
    case "$name" in
        long*) continue ;;   # shown at the end, hart only
    esac
    "$RVT" run "$elf" --pcs-traced "$tmp/hart.pcs" --etrace "$tmp/t.te" "${te_opts[@]}" \
        --ntrace "$tmp/t.nt" "${nt_opts[@]}" --tv "$tmp/t.tvt" >"$tmp/out" 2>"$tmp/err"
    # the data trace (ch. 7) in a stream of its own, so the bits column is
    # the instruction trace alone
    "$RVT" run "$elf" --quiet --etrace "$tmp/d.te" --te-data --data-out "$tmp/hart.data" \
        >/dev/null 2>&1
    rc=$?
    # rvtrace: N instructions retired, E exceptions, I interrupts, exit code C, T s, M MIPS
    read -r n ex irq secs mips < <(sed -n 's/^rvtrace: \([0-9,]*\) instructions retired, \([0-9,]*\) exceptions, \([0-9,]*\) interrupts, exit code [0-9-]*, \([0-9.]*\) s, \([0-9]*\) MIPS.*/\1 \2 \3 \4 \5/p' "$tmp/err")
    count=$(wc -l <"$tmp/hart.pcs")
    te_ok=MISMATCH nt_ok=MISMATCH data_ok=MISMATCH tv_ok=DIVERGED
    "$RVT" decode --elf "$elf" "$tmp/t.te" --pcs "$tmp/te.pcs" 2>/dev/null &&
        cmp -s "$tmp/hart.pcs" "$tmp/te.pcs" && te_ok=ok
    "$RVT" decode "$tmp/d.te" --data "$tmp/dec.data" 2>/dev/null &&
        cmp -s "$tmp/hart.data" "$tmp/dec.data" && data_ok=ok
    "$RVT" verify --elf "$elf" "$tmp/t.tvt" >/dev/null 2>&1 && tv_ok=ok
    "$RVT" decode --elf "$elf" "$tmp/t.nt" --pcs "$tmp/nt.pcs" 2>/dev/null &&
        cmp -s "$tmp/hart.pcs" "$tmp/nt.pcs" && nt_ok=ok
    [ "$rc" -eq 0 ] || te_ok="exit $rc"
    [ "$te_ok" = ok ] && [ "$nt_ok" = ok ] && [ "$data_ok" = ok ] && [ "$tv_ok" = ok ] ||
        bad=$((bad + 1))
    total=$((total + 1))
    printf '%-13s %13s %6s %6s %7ss %6s  %-18s %-18s %-8s %-8s\n' "$name" "${n:-?}" "${ex:-?}" \
        "${irq:-?}" "${secs:-?}" "${mips:-?}" "$(bits "$tmp/t.te" "$count") $te_ok" \
        "$(bits "$tmp/t.nt" "$count") $nt_ok" "$data_ok" "$tv_ok"
done
# Filters and triggers (docs/filter.md): the same trace paths, qualified by
# E-Trace chapter 5 filters or debug-module triggers; each decoder must
# rebuild exactly the instructions the filter let through.
echo
echo "Filtered traces (E-Trace and N-Trace from one filtered run; decoded == --pcs-traced):"
filtered() {  # program, description, filter options...
    local name=$1 elf=programs/$1.elf what=$2
    shift 2
    [ -f "$elf" ] || return 0
    "$RVT" run "$elf" --quiet --pcs-traced "$tmp/want.pcs" --etrace "$tmp/f.te" "${te_opts[@]}" \
        --ntrace "$tmp/f.nt" "${nt_opts[@]}" "$@" >/dev/null 2>&1
    local want all te=MISMATCH nt=MISMATCH
    want=$(wc -l <"$tmp/want.pcs")
    "$RVT" decode --elf "$elf" "$tmp/f.te" --pcs "$tmp/te.pcs" 2>/dev/null &&
        cmp -s "$tmp/want.pcs" "$tmp/te.pcs" && te=ok
    "$RVT" decode --elf "$elf" "$tmp/f.nt" --pcs "$tmp/nt.pcs" 2>/dev/null &&
        cmp -s "$tmp/want.pcs" "$tmp/nt.pcs" && nt=ok
    [ "$te" = ok ] && [ "$nt" = ok ] || bad=$((bad + 1))
    printf '  %-6s %-42s %8s instructions traced   E-Trace %s   N-Trace %s\n' "$name" "$what" "$want" "$te" "$nt"
}
filtered ecall "user mode and the handlers of its ecalls" --filter 0:priv=u --filter 1:ecause=8
filtered sort "trace-on at main, trace-off at rt_report" --trace-on main --trace-off rt_report
filtered sort "only check_sorted (--trace-range)" --trace-range check_sorted:main
filtered timer "interrupt handlers only" --filter 0:interrupt

# The ratified encapsulation (docs/transport.md): the same run framed as a
# trace sink would hold it; decode takes the container from e.te.attrs.
echo
echo "Encapsulated E-Trace (srcID 6 bits, a sync sequence every 256 bytes; decoded == --pcs):"
if [ -f programs/sort.elf ]; then
    "$RVT" run programs/sort.elf --quiet --pcs "$tmp/want.pcs" --etrace "$tmp/e.te" "${te_opts[@]}" \
        --container encap --encap-src-bits 6 --encap-src-id 1 --encap-sync-interval 256 >/dev/null 2>&1
    res=MISMATCH
    "$RVT" decode --elf programs/sort.elf "$tmp/e.te" --pcs "$tmp/e.pcs" 2>/dev/null &&
        cmp -s "$tmp/want.pcs" "$tmp/e.pcs" && res=ok
    [ "$res" = ok ] || bad=$((bad + 1))
    printf '  sort   %8s instructions, %s bytes   %s\n' "$(wc -l <"$tmp/want.pcs")" "$(stat -c %s "$tmp/e.te")" "$res"
    echo
    echo "Where the time goes (rvtrace report over that trace; docs/report.md):"
    "$RVT" report --elf programs/sort.elf --percent-limit 5 "$tmp/e.te" 2>/dev/null |
        head -12 | sed 's/^/  /'
fi

# Real systems (docs/hart.md "Booting", "Several harts"): Debian's OpenSBI
# boots U-Boot and Linux (one hart, then the SMP build on two), traced in
# both protocols; decode takes the images from the map run writes beside
# each stream (F.images) and must rebuild what each hart retired (compared
# by digest: tens of millions of PCs).
fw=/usr/lib/riscv64-linux-gnu/opensbi/generic/fw_jump.elf
ub=/usr/lib/u-boot/qemu-riscv64_smode/uboot.elf
digest() { rm -f "$1"; mkfifo "$1"; sha1sum <"$1" | cut -d' ' -f1 >"$2" & }
boot() {  # name harts run-options...: trace, decode each hart, print a line
    local name=$1 harts=$2
    shift 2
    for h in $(seq 0 $((harts - 1))); do
        if [ "$harts" -gt 1 ]; then digest "$tmp/want-hart$h.pcs" "$tmp/want$h.sha"
        else digest "$tmp/want.pcs" "$tmp/want$h.sha"; fi
    done
    "$RVT" run --harts "$harts" "$@" --max-instr 1G --pcs-retired "$tmp/want.pcs" \
        --etrace "$tmp/b.te" --te-opt all --ntrace "$tmp/b.nt" "${nt_opts[@]}" >/dev/null 2>"$tmp/err"
    local rc=$?
    wait
    local n res=ok
    n=$(grep -o '[0-9,]* instructions retired' "$tmp/err" | tr -d , | awk '{ s += $1 } END { print s + 0 }')
    [ $rc -eq 0 ] || res="run exit $rc"
    for tr in b.te b.nt; do
        for h in $(seq 0 $((harts - 1))); do
            digest "$tmp/got.pcs" "$tmp/got.sha"
            local src=()
            [ "$harts" -gt 1 ] && src=(--src "$h")
            "$RVT" decode "$tmp/$tr" "${src[@]}" --pcs "$tmp/got.pcs" >/dev/null 2>&1 ||
                { exec 3<>"$tmp/got.pcs"; exec 3>&-; res=MISMATCH; }
            wait
            cmp -s "$tmp/got.sha" "$tmp/want$h.sha" || res=MISMATCH
        done
    done
    [ "$res" = ok ] || bad=$((bad + 1))
    printf '  %-36s %2s hart(s) %11s instructions   E-Trace %.3f, N-Trace %.3f bits/ins   %s\n' "$name" \
        "$harts" "$n" "$(bits "$tmp/b.te" "$n")" "$(bits "$tmp/b.nt" "$n")" "$res"
}
if [ -f "$fw" ] && [ -f "$ub" ]; then
    echo
    echo "Real systems (OpenSBI from Debian; E-Trace all modes, N-Trace as above; every hart decoded == retired):"
    printf '\nversion\npoweroff\n' >"$tmp/keys"
    # U-Boot runs from a copy of itself it relocates to the top of RAM
    # (docs/hart.md "Booting"): u-boot.bin there, for the map
    boot "OpenSBI + U-Boot (version, poweroff)" 1 --bios "$fw" --kernel "$ub" --stdin "$tmp/keys" \
        --image "$(dirname "$ub")/u-boot.bin@0x87f57000"
    boot "OpenSBI + Linux 6.1 to user space" 1 --bios "$fw" --kernel programs/linux/Image \
        --append "console=ttyS0 earlycon" --elf programs/linux/vmlinux --elf programs/linux/init \
        --elf programs/linux/hello
    [ -f programs/linux/smp/Image ] &&
        boot "OpenSBI + Linux 6.1 SMP" 2 --bios "$fw" --kernel programs/linux/smp/Image \
            --append "console=ttyS0 earlycon" --elf programs/linux/smp/vmlinux \
            --elf programs/linux/init --elf programs/linux/hello
fi

for elf in programs/long*.elf; do
    [ -f "$elf" ] || continue
    echo
    echo "$(basename "$elf" .elf): the long mixed workload on the hart alone (see make bench for traced speed):"
    "$RVT" run "$elf" 2>&1 | sed 's/^/  /'
done
echo
echo "$total programs traced; $((total - bad)) decoded back exactly through E-Trace (instructions"
echo "and data) and N-Trace, and verified through the tandem-verification trace (with the filtered,"
echo "encapsulated and booted runs above, $bad checks failed)."
echo "(*: wall-clock speed of the hart while it writes all four traces; make bench measures each path.)"
echo "Try: $RVT decode --elf programs/fptr.elf T.te   (a listing), $RVT dump T.nt, $RVT help"
[ $bad -eq 0 ]
