#!/bin/bash
# Outputs never overwrite inputs or each other, and a failed command leaves
# no partial output (issue #13 item 2): files are compared by device and
# inode (or canonical name when new), outputs are written to a temporary
# name and renamed into place only on success.
set -u
: "${RVT_SRC:?}" "${RVT_BIN:?}" "${RVT_TMP:?}"
t="$RVT_TMP/output_safety"
rm -rf "$t"; mkdir -p "$t"; cd "$t" || exit 1
cp "$RVT_SRC/programs/sort.elf" P.elf; cp P.elf P.orig
fail=0
bad() { echo "FAIL $*"; fail=1; }
expect() {   # expect STATUS DESCRIPTION -- command...
    local want=$1 what=$2; shift 3
    "$@" >out 2>err
    local rc=$?
    if [ $rc -ne "$want" ]; then bad "$what: status $rc, want $want: $(head -2 err)"
    else echo "ok   $what"; fi
}
expect 1 "run --pcs-retired onto the ELF" -- "$RVT_BIN" run P.elf --quiet --pcs-retired P.elf
cmp -s P.elf P.orig || bad "the ELF was overwritten"
grep -q "P.elf" err || bad "error does not name P.elf"

expect 0 "run --etrace" -- "$RVT_BIN" run P.elf --quiet --etrace t.te
cp t.te t.orig
expect 1 "decode --pcs onto the trace" -- "$RVT_BIN" decode --elf P.elf t.te --pcs t.te
cmp -s t.te t.orig || bad "the trace was overwritten"
expect 1 "decode --pcs onto the trace, other spelling" -- "$RVT_BIN" decode --elf P.elf t.te --pcs ./t.te
cmp -s t.te t.orig || bad "the trace was overwritten (./t.te)"
ln t.te hard.te
expect 1 "decode --pcs onto a hard link of the trace" -- "$RVT_BIN" decode --elf P.elf t.te --pcs hard.te
cmp -s t.te t.orig || bad "the trace was overwritten through a hard link"

expect 1 "run --etrace X --ntrace X" -- "$RVT_BIN" run P.elf --quiet --etrace same.out --ntrace same.out
[ -e same.out ] && bad "same.out written"
expect 1 "run --pcs X --pcs-retired ./X" -- "$RVT_BIN" run P.elf --quiet --pcs x.pcs --pcs-retired ./x.pcs
[ -e x.pcs ] && bad "x.pcs written"

# a failed command leaves nothing behind, not even temporaries
rm -f ./*.rvt-*
mkdir -p y.te.attrs
expect 1 "run --etrace with an unwritable sidecar" -- "$RVT_BIN" run P.elf --quiet --etrace y.te --pcs y.pcs
[ -e y.te ] && bad "y.te left behind"
[ -e y.pcs ] && bad "y.pcs left behind"
expect 1 "import of a missing file" -- "$RVT_BIN" import spikecsv nonexistent.csv -o imp.rvi
[ -e imp.rvi ] && bad "imp.rvi left behind by a failed import"
ls ./*.rvt-* 2>/dev/null && bad "temporary files left behind"

# a symbolic link is written through (the link stays), and it is the same
# file as its target
echo old >target.pcs; ln -s target.pcs link.pcs
expect 0 "run --pcs-retired through a link" -- "$RVT_BIN" run P.elf --quiet --pcs-retired link.pcs
[ -L link.pcs ] || bad "the link was replaced by a file"
[ "$(head -1 target.pcs)" = 80000000 ] || bad "the link's target was not written"
expect 1 "link and target as two outputs" -- "$RVT_BIN" run P.elf --quiet --pcs-retired link.pcs --pcs target.pcs
# outputs that are not regular files are written directly
expect 0 "decode --pcs /dev/null" -- "$RVT_BIN" decode --elf P.elf t.te --pcs /dev/null
[ -c /dev/null ] || bad "/dev/null replaced"
# errors inside a stream are reported and decoding goes on: the output
# covers the whole stream and is kept (exit status 1)
head -c 300 t.te >short.te; cp t.te.attrs short.te.attrs
expect 1 "decode of a truncated trace" -- "$RVT_BIN" decode --elf P.elf short.te --pcs short.pcs
[ -s short.pcs ] || bad "decode of a truncated trace: the PCs before the cut are gone"
# a run stopped by --max-instr keeps its (complete) outputs
expect 1 "run --max-instr" -- "$RVT_BIN" run P.elf --quiet --max-instr 1000 --pcs m.pcs
[ "$(wc -l <m.pcs)" -eq 1000 ] || bad "--max-instr 1000: $(wc -l <m.pcs) PCs kept, want 1000"
# an output gets the permissions a new file gets (0666 less the umask),
# whether the command opens it (--pcs) or the library does (--ingress .rvi,
# --export-spike-csv), and an output that was there is replaced whole
for m in 022 077; do
    echo "old contents, longer than what replaces them" >perm.pcs
    (umask $m; "$RVT_BIN" run P.elf --quiet --max-instr 10 --pcs perm.pcs --ingress perm.rvi \
        --export-spike-csv perm.csv >/dev/null 2>&1)
    want=$([ $m = 022 ] && echo 644 || echo 600)
    for f in perm.pcs perm.rvi perm.csv; do
        [ "$(stat -c %a $f)" = "$want" ] || bad "umask $m: $f is mode $(stat -c %a $f), want $want"
    done
    [ "$(wc -l <perm.pcs)" -eq 10 ] || bad "umask $m: perm.pcs has $(wc -l <perm.pcs) lines, want 10"
    rm -f perm.rvi perm.csv
done
exit $fail
