#!/bin/bash
# E-Trace and N-Trace round trips over the whole Linux boot
# (tests/e2e/boot_linux.sh, docs/hart.md "Booting Linux"): `rvtrace run
# --bios fw_jump.elf --kernel Image --etrace/--ntrace`, then `rvtrace decode`
# with every image of the boot: OpenSBI's ELF and the flat Image at
# 0x80200000 (where the kernel runs before it turns on Sv39) from the image
# map run writes (TRACE.images), and, given to run as --elf for the map,
# vmlinux (the kernel at its virtual addresses), init and hello (user
# space, at addresses that do not overlap).  A second N-Trace decode gives
# the Image itself as --image FILE@ADDR, with --no-image-map.  The streams
# carry the context (satp.ASID, docs/hart.md "Context": E-Trace
# nocontext=0, N-Trace Ownership): init runs in ASID 1, its forked child
# in ASID 2 until it execs hello in ASID 3 (the Ownership messages'
# CONTEXT), so both protocols also decode with the user programs bound to
# their address spaces (--elf init@ctx=1 ...), and hello bound to init's
# space leaves its code undecodable (status 1).  The same run samples the
# CTR buffer recording S and U only (mctrcontrol 0x10006: S bit 1, U bit
# 2, 32 entries; docs/ctr.md): its records hold user transfers (init's
# code, and traps from it into the kernel) and kernel ones, none in
# OpenSBI (M-mode).  The decoders' retired PCs must equal the hart's.  Tens of
# millions of PCs: the lists are compared by digest, never stored.
# Skips (77) without the opensbi package.
set -u
. "$RVT_SRC/tests/e2e/lib/linux_boot.sh" linux_trace
fail=0

digest "$t/hart.fifo" "$t/hart.sha"
sp=$!
"$RVT_BIN" run --bios "$fw" --kernel "$L/Image" --append "console=ttyS0 earlycon" \
    --elf "$L/vmlinux" --elf "$L/init" --elf "$L/hello" --max-instr 1G --pcs-retired "$t/hart.fifo" --etrace "$t/boot.te" \
    --te-attr nocontext=0 --te-attr context_width=16 --ntrace "$t/boot.nt" --nt-opt htm,context \
    --ctr-control 0x10006 --ctr-sample 100000 --lbr "$t/boot.lbr" >"$t/console" 2>"$t/run.err" ||
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

# CTR under S and U (perf-script branch stacks: FROM/TO/... per record)
grep -v '^PERF_RECORD' "$t/boot.lbr" | tr ' ' '\n' | grep -E '^0x[0-9a-f]+/0x' | cut -d/ -f1,2 >"$t/ctr"
user=$(grep -cE '^0x[0-9a-f]{1,7}/0x[0-9a-f]{1,7}$' "$t/ctr")
trap=$(grep -cE '^0x[0-9a-f]{1,7}/0xffffffff8' "$t/ctr")
kern=$(grep -cE '^0xffffffff8[0-9a-f]+/0xffffffff8' "$t/ctr")
mmode=$(grep -cE '(^|/)0x800[0-3][0-9a-f]{4}($|/)' "$t/ctr")
if [ "$user" -gt 0 ] && [ "$trap" -gt 0 ] && [ "$kern" -gt 0 ] && [ "$mmode" -eq 0 ]; then
    echo "ok   CTR under S and U: $user user, $trap user-to-kernel, $kern kernel records, none in M"
else echo "FAIL CTR: user $user, traps $trap, kernel $kern, M-mode $mmode records"; fail=1; fi

explicit=(--no-image-map --elf "$fw" --elf "$L/vmlinux" --elf "$L/init" --elf "$L/hello"
          --image "$L/Image@0x80200000")
keyed=(--no-image-map --elf "$fw" --elf "$L/vmlinux" --image "$L/Image@0x80200000"
       --elf "$L/init@ctx=1" --elf "$L/init@ctx=2" --elf "$L/hello@ctx=3")
for tr in boot.te boot.nt boot.nt:explicit boot.te:keyed boot.nt:keyed; do
    args=()
    case $tr in *:explicit) args=("${explicit[@]}") ;; *:keyed) args=("${keyed[@]}") ;; esac
    tr=${tr%:*}
    digest "$t/$tr.fifo" "$t/$tr.sha"
    sp=$!
    "$RVT_BIN" decode "${args[@]}" "$t/$tr" --pcs "$t/$tr.fifo" >/dev/null 2>"$t/$tr.err"
    rc=$?
    [ $rc -ne 0 ] && kill $sp 2>/dev/null
    wait
    if [ $rc -ne 0 ]; then echo "FAIL decode $tr: status $rc: $(head -3 "$t/$tr.err")"; fail=1
    elif ! cmp -s "$t/$tr.sha" "$t/hart.sha"; then
        echo "FAIL decode $tr: its PCs are not the hart's (rerun with files to find where)"; fail=1
    else echo "ok   $tr decodes to the hart's PCs ${args[*]:+(${args[*]##*/})}"; fi
done
for tr in boot.te boot.nt; do
    "$RVT_BIN" decode "${keyed[@]/%hello@ctx=3/hello@ctx=1}" "$t/$tr" --count >/dev/null 2>&1
    rc=$?
    if [ $rc -ne 1 ]; then echo "FAIL $tr: hello bound to init's ASID: status $rc, want 1"; fail=1
    else echo "ok   $tr: hello bound to the wrong address space does not decode"; fi
done

# the listing names each instruction's image and symbol in one decode
# (issue 15): index pieces in OpenSBI, the kernel before and after it
# turns on Sv39, init and hello; each "ADDR <sym> [IMAGE]:" header is
# IMAGE's symbol at ADDR as riscv64-linux-gnu-nm lists it
# E-Trace with every mode that makes the stream smaller (--te-opt all) and
# data trace (chapter 7) over the whole boot: the decoded instructions and
# data accesses are the hart's (digests of both lists; run's image map).
digest "$t/all.pcs.fifo" "$t/all.pcs.sha"
digest "$t/all.data.fifo" "$t/all.data.sha"
"$RVT_BIN" run --bios "$fw" --kernel "$L/Image" --append "console=ttyS0 earlycon" \
    --elf "$L/vmlinux" --elf "$L/init" --elf "$L/hello" --max-instr 1G \
    --pcs-retired "$t/all.pcs.fifo" --data-out "$t/all.data.fifo" \
    --etrace "$t/all.te" --te-opt all --te-data >/dev/null 2>"$t/all.err"
rc=$?
wait
if [ $rc -ne 0 ]; then echo "FAIL run --te-opt all --te-data: $(tail -2 "$t/all.err")"; fail=1
else
    digest "$t/dec.pcs.fifo" "$t/dec.pcs.sha"
    digest "$t/dec.data.fifo" "$t/dec.data.sha"
    "$RVT_BIN" decode "$t/all.te" --pcs "$t/dec.pcs.fifo" --data-out "$t/dec.data.fifo" \
        >/dev/null 2>"$t/dec.all.err"
    rc=$?
    [ $rc -ne 0 ] && { exec 3<>"$t/dec.pcs.fifo" 3<>"$t/dec.data.fifo"; exec 3>&-; }
    wait
    if [ $rc -ne 0 ]; then echo "FAIL decode all.te: status $rc: $(head -3 "$t/dec.all.err")"; fail=1
    elif grep -q "^da39a3ee5e6b4b0d3255bfef95601890afd80709 " "$t/all.pcs.sha" "$t/all.data.sha"; then
        echo "FAIL run --te-opt all --te-data: no PCs or no data accesses written"; fail=1
    elif ! cmp -s "$t/dec.pcs.sha" "$t/all.pcs.sha" || ! cmp -s "$t/dec.data.sha" "$t/all.data.sha"; then
        echo "FAIL decode all.te: PCs or data accesses are not the hart's"; fail=1
    else echo "ok   --te-opt all --te-data ($(stat -c %s "$t/all.te") bytes): PCs and data accesses are the hart's"; fi
fi

command -v riscv64-linux-gnu-nm >/dev/null || { echo "skip: no riscv64-linux-gnu-nm"; exit $fail; }
. "$RVT_SRC/tests/e2e/lib/image_syms.sh"
nm_table "$t/nm" riscv64-linux-gnu-nm "$fw" "$L/vmlinux" "$L/init" "$L/hello" ||
    { echo "FAIL: nm lists no symbols"; exit 1; }
listing_pieces "$t/boot.te" "$t/listing" 'pc=0x800' 'pc=0x802' 'pc=0xffffffff8' \
    'pc=0x10[0-9a-f]{3} ' 'pc=0x100[0-9a-f]{4} ' || { echo "FAIL listing pieces"; fail=1; }
listing_heads "$t/listing" "$t/heads"
n=$(wc -l <"$t/heads")
bad=$(heads_not_in_nm "$t/heads" "$t/nm" | head -3)
if [ -n "$bad" ] || [ "$n" -lt 20 ]; then echo "FAIL listing: $n headers, not in nm: $bad"; fail=1
else echo "ok   listing: $n <symbol> [image] headers, each at its nm address"; fi
for img in fw_jump.elf vmlinux init hello; do
    grep -q "^$img " "$t/heads" || { echo "FAIL listing: no header of $img"; fail=1; }
done
grep -qE '^00000000802[0-9a-f]{5} \[Image\]:$' "$t/listing" ||
    { echo "FAIL listing: no [Image] header for the kernel before Sv39"; fail=1; }
# with the user programs keyed to their ASIDs the listing names them too
listing_pieces "$t/boot.te" "$t/keyed.listing" 'pc=0x10[0-9a-f]{3} ' 'pc=0x100[0-9a-f]{4} ' -- "${keyed[@]}" ||
    { echo "FAIL keyed listing pieces"; fail=1; }
listing_heads "$t/keyed.listing" "$t/keyed.heads"
bad=$(heads_not_in_nm "$t/keyed.heads" "$t/nm" | head -3)
if [ -n "$bad" ] || grep -q '<no code>' "$t/keyed.listing" || ! grep -q '^init ' "$t/keyed.heads" ||
   ! grep -q '^hello ' "$t/keyed.heads"; then
    echo "FAIL keyed listing: init and hello not named as nm says: $bad"; fail=1
else echo "ok   keyed listing: init@ctx=1,2 and hello@ctx=3 named as nm says"; fi
exit $fail
