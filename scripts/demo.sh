#!/usr/bin/env bash
# make demo: run every bundled workload on the reference hart, through both
# trace paths (E-Trace with all modes, N-Trace HTM with implicit return and
# repeated history), decode each stream back and check it against what the
# hart retired.  Usage: scripts/demo.sh PATH/TO/rvtrace
set -uo pipefail
RVT=${1:-build/rvtrace}
cd "$(dirname "$0")/.."
tmp=$(mktemp -d /tmp/rvtrace-demo.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

te_opts=(--te-opt all --te-attr return_stack_size=5)
nt_opts=(--nt-opt htm,implicit-return=3,return-depth=32,repeat-history)

bits() {  # bits per instruction of a stream
    awk -v b="$(stat -c %s "$1")" -v n="$2" 'BEGIN { printf "%.3f", n ? b * 8 / n : 0 }'
}

printf '%-13s %13s %6s %6s %8s %6s  %-18s %-18s\n' program instructions traps irqs time MIPS \
    "E-Trace bits/ins" "N-Trace bits/ins"
printf '%s\n' "-------------------------------------------------------------------------------------------------"
total=0 bad=0
for elf in programs/*.elf; do
    name=$(basename "$elf" .elf)
    case "$name" in
        long*) continue ;;   # shown at the end, hart only
    esac
    "$RVT" run "$elf" --pcs-retired "$tmp/hart.pcs" --etrace "$tmp/t.te" "${te_opts[@]}" \
        --ntrace "$tmp/t.nt" "${nt_opts[@]}" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    # rvtrace: N instructions retired, E exceptions, I interrupts, exit code C, T s, M MIPS
    read -r n ex irq secs mips < <(sed -n 's/^rvtrace: \([0-9,]*\) instructions retired, \([0-9,]*\) exceptions, \([0-9,]*\) interrupts, exit code [0-9-]*, \([0-9.]*\) s, \([0-9]*\) MIPS.*/\1 \2 \3 \4 \5/p' "$tmp/err")
    count=$(wc -l <"$tmp/hart.pcs")
    te_ok=MISMATCH nt_ok=MISMATCH
    "$RVT" decode --elf "$elf" "$tmp/t.te" --pcs "$tmp/te.pcs" 2>/dev/null &&
        cmp -s "$tmp/hart.pcs" "$tmp/te.pcs" && te_ok=ok
    "$RVT" decode --elf "$elf" "$tmp/t.nt" --pcs "$tmp/nt.pcs" 2>/dev/null &&
        cmp -s "$tmp/hart.pcs" "$tmp/nt.pcs" && nt_ok=ok
    [ "$rc" -eq 0 ] || te_ok="exit $rc"
    [ "$te_ok" = ok ] && [ "$nt_ok" = ok ] || bad=$((bad + 1))
    total=$((total + 1))
    printf '%-13s %13s %6s %6s %7ss %6s  %-18s %-18s\n' "$name" "${n:-?}" "${ex:-?}" "${irq:-?}" \
        "${secs:-?}" "${mips:-?}" "$(bits "$tmp/t.te" "$count") $te_ok" "$(bits "$tmp/t.nt" "$count") $nt_ok"
done
for elf in programs/long*.elf; do
    [ -f "$elf" ] || continue
    echo
    echo "$(basename "$elf" .elf): the long mixed workload on the hart alone (see make bench for traced speed):"
    "$RVT" run "$elf" 2>&1 | sed 's/^/  /'
done
echo
echo "$total programs traced; $((total - bad)) decoded back exactly through both E-Trace and N-Trace."
echo "Try: $RVT decode --elf programs/fptr.elf T.te   (a listing), $RVT dump T.nt, $RVT help"
[ $bad -eq 0 ]
