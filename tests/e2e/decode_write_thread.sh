#!/bin/bash
# decode --write-thread (docs/formats.md "Binary PC lists", decode_pipe.c):
# the outputs written on a second thread give the same bytes, messages and
# exit status as without it -- E-Trace and N-Trace; programs long enough
# to fill its ring of 16 slots of 1024 blocks (recurse: 1.2 M
# instructions), with traps and interrupts (events: the writer catches up
# before each), RV32; every output that takes blocks at once (--pcs,
# --pcs-bin, folded stacks on stdout, --coverage-listing, --lbr), one
# that does not (--listing: no second thread), and a damaged stream
# (errors on stderr, exit status 1).
set -u
T="$RVT_TMP/write_thread"; mkdir -p "$T"
fail=0

# decode NAME ARGS...: the outputs of `decode ARGS` with and without
# --write-thread, compared file by file.
decode() {
    local name=$1; shift
    for mode in plain thread; do
        local opt=; [ $mode = thread ] && opt=--write-thread
        ( cd "$T" && "$RVT_BIN" decode "$@" --pcs "$name.$mode.pcs" --pcs-bin "$name.$mode.pcb" \
              --coverage-listing "$name.$mode.cov" --lbr "$name.$mode.lbr" $opt \
              > "$name.$mode.out" 2> "$name.$mode.err"
          echo $? > "$name.$mode.rc" )
    done
    for f in pcs pcb cov lbr out err rc; do
        cmp -s "$T/$name.plain.$f" "$T/$name.thread.$f" || { echo "$name: .$f differs with --write-thread"; fail=1; }
    done
}

for prog in recurse pgo timer ecall sort_rv32; do
    P="$RVT_SRC/programs/$prog.elf"
    "$RVT_BIN" run "$P" --quiet --etrace "$T/$prog.te" --ntrace "$T/$prog.nt" > /dev/null || exit 1
    for k in te nt; do
        decode "$prog.$k" --elf "$P" "$T/$prog.$k" --folded
    done
done
n=$(wc -l < "$T/recurse.te.thread.pcs")
[ "$n" -gt 1000000 ] || { echo "recurse: only $n pcs"; fail=1; }
decode listing.te --elf "$RVT_SRC/programs/timer.elf" "$T/timer.te" --listing

# A damaged stream: bytes in the middle overwritten.
cp "$T/pgo.te" "$T/bad.te"
[ -f "$T/pgo.te.attrs" ] && cp "$T/pgo.te.attrs" "$T/bad.te.attrs"
printf '\xff\x13\x37\x00\xa5\x5a\xff\xff' | dd of="$T/bad.te" bs=1 seek=3000 conv=notrunc 2> /dev/null
decode bad.te --elf "$RVT_SRC/programs/pgo.elf" "$T/bad.te" --folded
[ "$(cat "$T/bad.te.thread.rc")" = 1 ] && [ -s "$T/bad.te.thread.err" ] ||
    { echo "damaged stream: status $(cat "$T/bad.te.thread.rc"), $(wc -c < "$T/bad.te.thread.err") bytes of messages"; fail=1; }

[ $fail = 0 ] && echo "decode --write-thread: ok"
exit $fail
