#!/bin/bash
# Every trace path over the U-Boot boot (issue 15, "Tracing real
# software"; docs/hart.md "Booting"): OpenSBI 1.1 in M-mode, U-Boot in
# S-mode, then U-Boot's relocated copy of itself (given to run as --image
# for the image map; decode reads the map, no --elf).  For each E-Trace
# mode family, all of them, data trace, N-Trace BTM and HTM (plain and
# with its options), and filters by privilege and address range, one hart
# run writes the streams and its PCs (the retired ones, or --pcs-traced
# under a filter: it takes the lengths of code no image holds, the
# relocated U-Boot, from the hart's memory), and each decode must give
# exactly those PCs (the data accesses too for te_data).  Then tandem verification: verify --bios
# --kernel --stdin of the boot's .tvt (a prefix of 1.5 M instructions, to
# keep the file small: verify says it ends before the program did).
# 17 M instructions a run; lists compared by digest, never stored.
# Skips (77) without the opensbi or u-boot-qemu package.
set -u
. "${RVT_SRC:?}/tests/e2e/lib/uboot_boot.sh" boot_paths
printf '\nversion\nmd 0x80200000 4\npoweroff\n' >"$t/in"
boot=(--bios "$fw" --kernel "$U/uboot.elf" --stdin "$t/in")
fail=0
EMPTY=da39a3ee5e6b4b0d3255bfef95601890afd80709     # sha1 of nothing

# sha1 of what a command writes to the file named by its last argument
# (a fifo, so that tens of millions of PCs are never stored)
digest() {   # OUT.sha cmd... FILE-ARG-PLACEHOLDER
    local sha=$1; shift
    local fifo="$sha.fifo"
    rm -f "$fifo"; mkfifo "$fifo"
    sha1sum <"$fifo" >"$sha" &
    "${@//@FIFO@/$fifo}"
    local rc=$?
    [ $rc -ne 0 ] && { exec 3>"$fifo"; exec 3>&-; }   # let sha1sum finish
    wait
    return $rc
}

# trip NAME PCS-OPTION RUN-OPTIONS...: one run with --etrace/--ntrace as
# the options say, each stream decoded from its image map
trip() {
    local name=$1 pcsopt=$2; shift 2
    local d="$t/$name"
    mkdir -p "$d"
    if ! digest "$d/hart.sha" "$RVT_BIN" run "${boot[@]}" --image "$U/u-boot.bin@$UBOOT_RELOC" \
            "$@" "$pcsopt" @FIFO@ --quiet >"$d/console" 2>"$d/run.err"; then
        echo "FAIL $name: run: $(tail -2 "$d/run.err")"; fail=1; return
    fi
    grep -q "^$EMPTY " "$d/hart.sha" && { echo "FAIL $name: the hart wrote no PCs"; fail=1; return; }
    for tr in "$d"/b.te "$d"/b.nt; do
        [ -f "$tr" ] || continue
        if ! digest "$tr.sha" "$RVT_BIN" decode "$tr" --pcs @FIFO@ >/dev/null 2>"$tr.err"; then
            echo "FAIL $name: decode $(basename "$tr"): $(head -2 "$tr.err")"; fail=1
        elif ! cmp -s "$tr.sha" "$d/hart.sha"; then
            echo "FAIL $name: decode $(basename "$tr"): not the hart's PCs"; fail=1
        else echo "ok   $name: $(basename "$tr") ($(stat -c %s "$tr") bytes) decodes to the hart's PCs"; fi
    done
}

te() { echo --etrace "$t/$1/b.te"; }
nt() { echo --ntrace "$t/$1/b.nt"; }
# shellcheck disable=SC2046
{
trip full-btm --pcs-retired $(te full-btm) --te-opt full-address $(nt full-btm) --nt-opt btm
trip except-htm --pcs-retired $(te except-htm) --te-opt implicit-except $(nt except-htm) --nt-opt htm
trip sijump-htmopts --pcs-retired $(te sijump-htmopts) --te-opt sijump $(nt sijump-htmopts) \
    --nt-opt htm,seq-jump,implicit-return=3,repeat-history,context
trip ret --pcs-retired $(te ret) --te-opt implicit-return
trip bpred --pcs-retired $(te bpred) --te-opt branch-prediction
trip jtc --pcs-retired $(te jtc) --te-opt jump-target-cache
trip s-only --pcs-traced $(te s-only) --te-opt all $(nt s-only) --filter 0:priv=s
trip range --pcs-traced $(te range) --te-opt all $(nt range) --trace-range 0x80200000:0x80300000
}

# all modes with data trace: the decoded data accesses are run's
d="$t/all-data"; mkdir -p "$d"
digest "$d/data.sha" "$RVT_BIN" run "${boot[@]}" --image "$U/u-boot.bin@$UBOOT_RELOC" \
    --etrace "$d/b.te" --te-opt all --te-data --data-out @FIFO@ --quiet >/dev/null 2>"$d/run.err" ||
    { echo "FAIL all-data: run: $(tail -2 "$d/run.err")"; fail=1; }
if ! digest "$d/got.sha" "$RVT_BIN" decode "$d/b.te" --data-out @FIFO@ --count >/dev/null 2>"$d/dec.err"; then
    echo "FAIL all-data: decode: $(head -2 "$d/dec.err")"; fail=1
elif grep -q "^$EMPTY " "$d/data.sha" || ! cmp -s "$d/data.sha" "$d/got.sha"; then
    echo "FAIL all-data: the decoded data accesses are not run's"; fail=1
else echo "ok   all-data: te_data decodes to run's data accesses"; fi

# the filters traced part of the boot, not all of it and not none
for f in s-only range; do
    cmp -s "$t/$f/hart.sha" "$t/full-btm/hart.sha" && { echo "FAIL $f: the filter traced everything"; fail=1; }
done

# tandem verification of the boot: a prefix (the first 1.5 M instructions)
"$RVT_BIN" run "${boot[@]}" --tv "$t/b.tvt" --max-instr 1500000 --quiet >/dev/null 2>&1
"$RVT_BIN" verify "${boot[@]}" "$t/b.tvt" >"$t/verify.out" 2>"$t/verify.err"
if grep -qE "1,500,00[0-9] instructions/traps verified, 0 divergence" "$t/verify.err" &&
   grep -q "before the program did" "$t/verify.err"; then
    echo "ok   verify --bios --kernel: 1.5 M instructions of the boot, 0 divergences"
else echo "FAIL verify: $(cat "$t/verify.out" "$t/verify.err" | head -3)"; fail=1; fi
"$RVT_BIN" verify --kernel "$U/uboot.elf" "$t/b.tvt" >/dev/null 2>&1
[ $? -eq 2 ] || { echo "FAIL verify --kernel without --bios: want status 2"; fail=1; }
exit $fail
