#!/bin/sh
# The AutoFDO loop of issue 17 (docs/coverage.md "The PGO loop"):
#   1. build src/pgo.c with clang-19 for RISC-V, with DWARF for the profile;
#   2. run it on the rvtrace hart with an E-Trace;
#   3. rvtrace script --lbr: branch-stack samples from the trace;
#   4. llvm-profgen (llvm-19): the AutoFDO sample profile;
#   5. rebuild with -fprofile-sample-use and run again.
# Usage: programs/pgo.sh RVTRACE OUTDIR
# Writes OUTDIR/pgo.elf, pgo_fdo.elf, pgo.te, pgo.lbr, pgo.afdo, pgo.prof
# (text) and prints "base N instructions, fdo M instructions".  Needs
# clang-19, ld.lld (lld 14 or later: clang's DWARF 5 range lists need
# R_RISCV_SET_ULEB128, which lld 14 lacks, so DWARF 4 is asked for; GNU
# ld 2.40 crashes on clang's objects) and /usr/lib/llvm-19/bin/llvm-profgen.
# With OUTDIR = programs/ it refreshes the committed pgo.elf / pgo_fdo.elf.
set -e
RVT=$1
OUT=$2
[ -n "$RVT" ] && [ -n "$OUT" ] || { echo "usage: pgo.sh RVTRACE OUTDIR" >&2; exit 2; }
cd "$(dirname "$0")"
PROFGEN=${PROFGEN:-/usr/lib/llvm-19/bin/llvm-profgen}
CLANG=${CLANG:-clang-19}
LLD=${LLD:-ld.lld}
for t in "$CLANG" "$LLD" "$PROFGEN"; do
    command -v "$t" >/dev/null 2>&1 || { echo "pgo.sh: $t not found (apt-get install clang-19 lld llvm-19)" >&2; exit 3; }
done
[ -f /usr/lib/picolibc/riscv64-unknown-elf/include/stdint.h ] ||
    { echo "pgo.sh: picolibc headers not found (apt-get install picolibc-riscv64-unknown-elf)" >&2; exit 3; }
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
# -mno-relax: lld links without relaxation; picolibc gives the headers only.
CC="$CLANG --target=riscv64-unknown-elf -march=rv64imac -mabi=lp64 -mcmodel=medany -mno-relax
 -ffreestanding -fno-builtin -nostdlib -isystem /usr/lib/picolibc/riscv64-unknown-elf/include
 -Irt -O2 -Wall -Werror -ffile-prefix-map=$PWD=."
DBG="-g -gdwarf-4 -fdebug-info-for-profiling"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
$CC -c rt/crt0.S -o "$T/crt0.o"
$CC -c rt/rt.c -o "$T/rt.o"

build() {   # build OUT.elf [extra flags]: only pgo.c has debug info
    $CC $DBG "$@" -c src/pgo.c -o "$T/pgo.o"
    # the program first, then the runtime, as build.sh links
    $LLD -T rt/link.ld --build-id=none "$T/pgo.o" "$T/crt0.o" "$T/rt.o" -o "$T/out.elf"
}
instructions() {   # the hart's retired count from its summary line
    sed -nE 's/^rvtrace: ([0-9,]+) instructions retired.*/\1/p' "$1" | tr -d ,
}

build
cp "$T/out.elf" "$OUT/pgo.elf"
"$RVT" run "$OUT/pgo.elf" --etrace "$OUT/pgo.te" --te-opt all > "$T/base.out" 2> "$T/base.err"
"$RVT" script --lbr --period 1009 --elf "$OUT/pgo.elf" "$OUT/pgo.te" -o "$OUT/pgo.lbr"
(cd "$OUT" && "$PROFGEN" --perfscript pgo.lbr --binary pgo.elf --output pgo.afdo 2> "$T/pg.err" &&
 "$PROFGEN" --perfscript pgo.lbr --binary pgo.elf --format=text --output pgo.prof 2>> "$T/pg.err") ||
    { cat "$T/pg.err" >&2; exit 1; }
build -fprofile-sample-use="$OUT/pgo.afdo"
cp "$T/out.elf" "$OUT/pgo_fdo.elf"
"$RVT" run "$OUT/pgo_fdo.elf" > "$T/fdo.out" 2> "$T/fdo.err"
cmp -s "$T/base.out" "$T/fdo.out" || { echo "pgo.sh: the two builds print different results" >&2; exit 1; }
echo "$(cat "$T/base.out")"
echo "base $(instructions "$T/base.err") instructions, fdo $(instructions "$T/fdo.err") instructions"
