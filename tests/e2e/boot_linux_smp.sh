#!/bin/bash
# Linux with SMP on two harts (docs/hart.md "Several harts"): the committed
# SMP build of the same Linux 6.1 (programs/linux/smp/, `make linux-smp`,
# config-smp over config) boots through Debian's OpenSBI 1.1 on `run --harts 2`:
# OpenSBI brings hart 1 up through SBI HSM when the kernel asks, the kernel
# reports both CPUs, and the same init (programs/linux/init.c) runs to its
# poweroff.  Each hart's E-Trace (encapsulated, srcID = hartid) and N-Trace
# (SRC = hartid) decode to what that hart retired, with the image map run
# writes beside the traces.  Tens of millions of PCs: compared by digest.
# Skips (77) without the opensbi package.
set -u
. "$RVT_SRC/tests/e2e/lib/linux_boot.sh" boot_linux_smp
[ -f "$L/smp/Image" ] || { echo "FAIL: $L/smp/Image missing"; exit 1; }
fail=0
has() {      # has DESCRIPTION FIXED-STRING (a whole console line)
    if grep -qxF -- "$2" "$t/console"; then echo "ok   $1"; else echo "FAIL $1: no line '$2'"; fail=1; fi
}

# --pcs-retired F writes F-hartI per hart (run --harts)
digest "$t/hart-hart0.fifo" "$t/hart0.sha"
digest "$t/hart-hart1.fifo" "$t/hart1.sha"
"$RVT_BIN" run --harts 2 --bios "$fw" --kernel "$L/smp/Image" --append "console=ttyS0 earlycon" \
    --elf "$L/smp/vmlinux" --elf "$L/init" --elf "$L/hello" --max-instr 1G \
    --pcs-retired "$t/hart.fifo" --etrace "$t/boot.te" --ntrace "$t/boot.nt" \
    >"$t/out" 2>"$t/err"
rc=$?
wait
tr -d '\r' <"$t/out" >"$t/console"
if [ $rc -ne 0 ]; then echo "FAIL boot: status $rc: $(tail -3 "$t/err")"; tail -5 "$t/console"; exit 1; fi
echo "ok   two-hart boot to poweroff, status 0"
has "OpenSBI counts 2 harts" "Platform HART Count       : 2"
grep -q "^Linux version 6\.1\.[0-9]* .* #1 SMP " "$t/console" && echo "ok   SMP kernel banner" ||
    { echo "FAIL: no SMP kernel banner"; fail=1; }
has "the kernel brings hart 1 up" "smp: Brought up 1 node, 2 CPUs"
has "init runs" "rvtrace init: hello from user space"
has "page faults" "pagefault: 2048 pages, sum 2096128"
has "floating point" "fp: sqrt2=1.414213562 zeta2_1000=1.643934566 prod=4.875000000"
has "poweroff" "init: powering off"
for h in 0 1; do
    n=$(sed -n "s/^rvtrace: hart $h: \([0-9,]*\) instructions retired.*/\1/p" "$t/err")
    if [ -z "$n" ] || [ "${n//,/}" -lt 1000000 ]; then echo "FAIL hart $h retired '${n}' instructions"; fail=1
    else echo "ok   hart $h retired $n instructions"; fi
    grep -q "^da39a3ee5e6b4b0d3255bfef95601890afd80709 " "$t/hart$h.sha" &&
        { echo "FAIL: hart $h wrote no PCs"; fail=1; }
done

# Each hart's stream: run's image map (boot.te.images) names the firmware,
# the Image at 0x80200000 and the ELFs given to run.
for tr in boot.te boot.nt; do
    for h in 0 1; do
        digest "$t/$tr.$h.fifo" "$t/$tr.$h.sha"
        "$RVT_BIN" decode "$t/$tr" --src $h --pcs "$t/$tr.$h.fifo" >/dev/null 2>"$t/$tr.$h.err"
        rc=$?
        [ $rc -ne 0 ] && { exec 3>"$t/$tr.$h.fifo"; exec 3>&-; }   # unblock sha1sum
        wait
        if [ $rc -ne 0 ]; then echo "FAIL decode $tr --src $h: status $rc: $(head -3 "$t/$tr.$h.err")"; fail=1
        elif ! cmp -s "$t/$tr.$h.sha" "$t/hart$h.sha"; then
            echo "FAIL decode $tr --src $h: its PCs are not hart $h's"; fail=1
        else echo "ok   $tr source $h decodes to hart $h's PCs"; fi
    done
done
exit $fail
