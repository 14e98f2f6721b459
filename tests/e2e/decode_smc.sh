#!/bin/bash
# decode --smc (self-modifying code, mem.h rvt_mem_patches) for both
# protocols through one check: the corpus' amo_smc writes three successive
# contents into a code buffer the ELF does not hold, each made visible by a
# fence.i (E-Trace 3.2.3, N-Trace 11.4).  The hart runs it and traces it as
# E-Trace and N-Trace; decoded with --smc (the contents per fence.i) each
# stream gives the hart's PCs; without it decoding stops at the buffer
# (the first call into it is line 5077 of the corpus' PC list: the header of
# amo_smc.smc.txt) with a decode error and exit 1.
set -u
: "${RVT_SRC:?}" "${RVT_BIN:?}" "${RVT_TMP:?}"
I="${RVT_SHARED:-$RVT_SRC/../shared}/interop"
P="$I/programs/amo_smc.elf" SMC="$I/ntrace-refcode/inputs/amo_smc.smc.txt"
[ -f "$P" ] && [ -f "$SMC" ] || { echo "no interop corpus: skipped"; exit 77; }
T="$RVT_TMP/decode_smc"
rm -rf "$T"; mkdir -p "$T"
fail=0
bad() { echo "FAIL $*"; fail=1; }
"$RVT_BIN" run "$P" --quiet --etrace "$T/s.te" --ntrace "$T/s.nt" --pcs-retired "$T/want.pcs" >/dev/null ||
    { echo "FAIL run amo_smc"; exit 1; }

# smc_check STREAM: with --smc the hart's PCs, exit 0; without, exit 1 and
# no PC past the first call into the buffer (line 5077)
smc_check() {
    local s=$1 name
    name=$(basename "$s")
    "$RVT_BIN" decode --elf "$P" "$s" --smc "$SMC" --pcs "$T/got.pcs" 2>"$T/err" ||
        bad "$name --smc: exit $?: $(head -1 "$T/err")"
    cmp -s "$T/got.pcs" "$T/want.pcs" || bad "$name --smc: PCs differ from the hart's"
    "$RVT_BIN" decode --elf "$P" "$s" --pcs "$T/got.pcs" 2>"$T/err"
    local rc=$?
    [ $rc = 1 ] || bad "$name without --smc: exit $rc, want 1"
    [ "$(wc -l <"$T/got.pcs")" -le 5077 ] || bad "$name without --smc: decoded into the code buffer"
    echo "ok   $name"
}
smc_check "$T/s.te"
smc_check "$T/s.nt"
exit $fail
