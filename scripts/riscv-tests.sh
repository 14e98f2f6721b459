#!/bin/bash
# The riscv-tests ISA suite (a peer's tests, built for Spike) on the hart:
# every rv64 and rv32 -p and -v test of the G and C suites (ui uc um ua uf
# ud si mi), each judged by the value it writes to `tohost` (1 = pass,
# (TESTNUM << 1) | 1 = fail; src/hart/dev_htif.c).  Nothing of riscv-tests
# is committed: this fetches (git) and builds it, or takes a checkout.
#
#   scripts/riscv-tests.sh [--rvtrace BIN] [--no-build] [DIR]
#     DIR       a riscv-tests checkout with its env submodule (default:
#               $RISCV_TESTS_DIR, else a clone in ${TMPDIR:-/tmp})
#     --rvtrace the rvtrace to test (default: build/rvtrace)
#
# Needs riscv64-unknown-elf-gcc and picolibc (for env/v's headers).  Exit
# status 0 when every test passes, 1 otherwise, 77 when the suite cannot
# be fetched or built (no network, no toolchain).
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
rvtrace=$here/build/rvtrace
build=1
src=${RISCV_TESTS_DIR:-}
while [ $# -gt 0 ]; do
    case $1 in
        --rvtrace) rvtrace=$2; shift 2 ;;
        --no-build) build=0; shift ;;
        -*) echo "riscv-tests.sh: unknown option $1" >&2; exit 2 ;;
        *) src=$1; shift ;;
    esac
done
SUITES="ui uc um ua uf ud si mi"
CC=riscv64-unknown-elf-gcc

skip() { echo "riscv-tests.sh: $*; skipped" >&2; exit 77; }

[ -x "$rvtrace" ] || { echo "riscv-tests.sh: no $rvtrace (build first)" >&2; exit 2; }
if [ -z "$src" ]; then
    src=${TMPDIR:-/tmp}/rvtrace-riscv-tests
    if [ ! -d "$src/isa" ]; then
        git clone -q --recursive https://github.com/riscv-software-src/riscv-tests "$src" ||
            skip "cannot clone riscv-tests"
    fi
fi
[ -f "$src/isa/Makefile" ] && [ -f "$src/env/p/link.ld" ] ||
    skip "$src is not a riscv-tests checkout with its env submodule"

if [ "$build" = 1 ]; then
    command -v $CC >/dev/null || skip "$CC not found"
    specs=$($CC -print-file-name=picolibc.specs)
    [ -f "$specs" ] || skip "picolibc.specs not found (picolibc-riscv64-unknown-elf)"
    opts="--specs=$specs -static -mcmodel=medany -fvisibility=hidden -nostdlib -nostartfiles"
    for xlen in 64 32; do
        targets=$(for s in $SUITES; do printf 'rv%s%s ' $xlen $s; done)
        make -s -C "$src/isa" -j"$(nproc)" XLEN=$xlen RISCV_PREFIX=riscv64-unknown-elf- \
            RISCV_GCC_OPTS="$opts" $targets >/dev/null || skip "the build failed"
    done
fi

pass=0; total=0; failed=()
for xlen in 64 32; do
    for s in $SUITES; do
        for t in "$src"/isa/rv$xlen$s-[pv]-*; do
            case $t in *.dump|*'*'*) continue ;; esac
            [ -f "$t" ] || continue
            total=$((total + 1))
            # Spike's machine, as the binaries expect; a test that never
            # writes tohost is stopped and counted as failed
            out=$("$rvtrace" run "$t" --machine spike --misaligned emulate --max-instr 20M --quiet 2>&1)
            if [ $? = 0 ]; then
                pass=$((pass + 1))
            else
                failed+=("$(basename "$t"): $(echo "$out" | tail -1)")
            fi
        done
    done
done
for f in "${failed[@]+"${failed[@]}"}"; do echo "FAIL $f"; done
echo "riscv-tests: $pass of $total passed"
[ "$pass" = "$total" ] && [ "$total" -gt 0 ]
