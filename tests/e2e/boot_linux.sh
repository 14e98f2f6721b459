#!/bin/bash
# The Linux boot (docs/hart.md "Booting Linux"): Debian's OpenSBI 1.1
# (generic fw_jump.elf) boots the committed Linux 6.1 (programs/linux/Image,
# built by `make linux`) with `console=ttyS0 earlycon`; its init
# (programs/linux/init.c) fork/execs /hello, touches 2048 fresh pages,
# computes in floating point and powers off through reboot(2) -> SBI SRST ->
# OpenSBI -> the syscon.  The expected lines are derived in init.c's
# comments: the page sum is 0+1+...+2047 = 2096128; sqrt(2) = 1.414213562,
# sum of 1/k^2 for k = 1..1000 = pi^2/6 - 0.0009995 = 1.643934566, and
# 1.5 * 3.25 = 4.875, each truncated to 9 decimals.
# Skips (77) without the opensbi package.
set -u
: "${RVT_SRC:?}" "${RVT_BIN:?}" "${RVT_TMP:?}"
fw=/usr/lib/riscv64-linux-gnu/opensbi/generic/fw_jump.elf
img=$RVT_SRC/programs/linux/Image
t="$RVT_TMP/boot_linux"
mkdir -p "$t"
[ -f "$fw" ] || { echo "skip: opensbi not installed"; exit 77; }
[ -f "$img" ] || { echo "FAIL: $img missing"; exit 1; }
fail=0
has() {      # has DESCRIPTION FIXED-STRING (a whole console line)
    if grep -qxF -- "$2" "$t/out"; then echo "ok   $1"; else echo "FAIL $1: no line '$2'"; fail=1; fi
}

"$RVT_BIN" run --bios "$fw" --kernel "$img" --append "console=ttyS0 earlycon" \
    --max-instr 1G >"$t/out" 2>"$t/err"
rc=$?
tr -d '\r' <"$t/out" >"$t/console" && mv "$t/console" "$t/out"
if [ $rc -ne 0 ]; then echo "FAIL boot: status $rc: $(tail -3 "$t/err")"; tail -5 "$t/out"; fail=1
else echo "ok   boot to poweroff, status 0"; fi
grep -q "^Linux version 6\.1\." "$t/out" && echo "ok   kernel banner" ||
    { echo "FAIL kernel banner"; fail=1; }
grep -q "earlycon: ns16550a0 at MMIO 0x0000000010000000" "$t/out" && echo "ok   earlycon on the UART" ||
    { echo "FAIL earlycon"; fail=1; }
has "init runs" "rvtrace init: hello from user space"
child=$(sed -n 's/^init: child \([0-9]*\) exited with 42$/\1/p' "$t/out")
if [ -n "$child" ]; then
    has "exec'd child prints its pid" "hello: pid $child, argv[1]=world"
    echo "ok   child $child exited with 42"
else echo "FAIL: no 'init: child N exited with 42'"; fail=1; fi
has "page faults" "pagefault: 2048 pages, sum 2096128"
has "floating point" "fp: sqrt2=1.414213562 zeta2_1000=1.643934566 prod=4.875000000"
has "poweroff requested" "init: powering off"
grep -q "reboot: Power down" "$t/out" && echo "ok   kernel powers down" ||
    { echo "FAIL: no 'reboot: Power down'"; fail=1; }
grep -m1 "retired" "$t/err"
exit $fail
