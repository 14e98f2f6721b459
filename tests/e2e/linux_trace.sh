#!/bin/bash
# E-Trace and N-Trace round trips over the whole Linux boot
# (tests/e2e/boot_linux.sh, docs/hart.md "Booting Linux"): `rvtrace run
# --bios fw_jump.elf --kernel Image --etrace/--ntrace`, then `rvtrace decode`
# with every image of the boot: OpenSBI's ELF and the flat Image at
# 0x80200000 (where the kernel runs before it turns on Sv39) from the image
# map run writes (TRACE.images), and, given to run as --elf for the map,
# vmlinux (the kernel at its virtual addresses), init and hello (user
# space, at addresses that do not overlap).  A second N-Trace decode gives
# the Image itself as --image FILE@ADDR, with --no-image-map.  The decoders' retired PCs must equal the hart's.  Tens of
# millions of PCs: the lists are compared by digest, never stored.
# Skips (77) without the opensbi package.
set -u
: "${RVT_SRC:?}" "${RVT_BIN:?}" "${RVT_TMP:?}"
fw=/usr/lib/riscv64-linux-gnu/opensbi/generic/fw_jump.elf
L=$RVT_SRC/programs/linux
t="$RVT_TMP/linux_trace"
rm -rf "$t"; mkdir -p "$t"
[ -f "$fw" ] || { echo "skip: opensbi not installed"; exit 77; }
fail=0

mkfifo "$t/hart.fifo"
sha1sum <"$t/hart.fifo" >"$t/hart.sha" &
sp=$!
"$RVT_BIN" run --bios "$fw" --kernel "$L/Image" --append "console=ttyS0 earlycon" \
    --elf "$L/vmlinux" --elf "$L/init" --elf "$L/hello" --max-instr 1G --pcs-retired "$t/hart.fifo" --etrace "$t/boot.te" \
    --ntrace "$t/boot.nt" >"$t/console" 2>"$t/run.err" ||
    { echo "FAIL run: $(tail -2 "$t/run.err")"; kill $sp 2>/dev/null; exit 1; }
wait
grep -qxF "init: powering off" <(tr -d '\r' <"$t/console") ||
    { echo "FAIL: the boot did not reach init's poweroff"; exit 1; }
# sha1 of no input at all: a run that wrote no PC must not pass
grep -q "^da39a3ee5e6b4b0d3255bfef95601890afd80709 " "$t/hart.sha" &&
    { echo "FAIL: the hart wrote no PCs"; exit 1; }
n=$(grep -m1 -o '[0-9,]* instructions' "$t/run.err")
echo "ok   boot traced: $n," \
     "E-Trace $(stat -c %s "$t/boot.te") bytes, N-Trace $(stat -c %s "$t/boot.nt") bytes"

explicit=(--no-image-map --elf "$fw" --elf "$L/vmlinux" --elf "$L/init" --elf "$L/hello"
          --image "$L/Image@0x80200000")
for tr in boot.te boot.nt boot.nt:explicit; do
    args=(); [ "${tr#*:}" = explicit ] && args=("${explicit[@]}")
    tr=${tr%:*}
    rm -f "$t/$tr.fifo"; mkfifo "$t/$tr.fifo"
    sha1sum <"$t/$tr.fifo" >"$t/$tr.sha" &
    sp=$!
    "$RVT_BIN" decode "${args[@]}" "$t/$tr" --pcs "$t/$tr.fifo" >/dev/null 2>"$t/$tr.err"
    rc=$?
    [ $rc -ne 0 ] && kill $sp 2>/dev/null
    wait
    if [ $rc -ne 0 ]; then echo "FAIL decode $tr: status $rc: $(head -3 "$t/$tr.err")"; fail=1
    elif ! cmp -s "$t/$tr.sha" "$t/hart.sha"; then
        echo "FAIL decode $tr: its PCs are not the hart's (rerun with files to find where)"; fail=1
    else echo "ok   $tr decodes to the hart's PCs ${args[*]:+(--image, no map)}"; fi
done
exit $fail
