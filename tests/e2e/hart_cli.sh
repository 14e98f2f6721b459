#!/bin/bash
# rvtrace run: usage errors (2), bad input and limits (1, with a message),
# PC lists (format, executed vs retired), retire width and ingress output.
set -u
: "${RVT_SRC:?}" "${RVT_BIN:?}" "${RVT_TMP:?}"
t="$RVT_TMP/hart_cli"
mkdir -p "$t"
. "$RVT_SRC/tests/e2e/lib/expect.sh"
expect 2 "no program" -- "$RVT_BIN" run
expect 2 "unknown option" -- "$RVT_BIN" run x.elf --bogus
expect 2 "bad number" -- "$RVT_BIN" run x.elf --max-instr lots
expect 2 "bad width" -- "$RVT_BIN" run x.elf --retire-width 9
expect 0 "help" -- "$RVT_BIN" run --help
grep -q -- "--pcs-retired" "$t/out" || { echo "FAIL help lacks --pcs-retired"; fail=1; }
expect 1 "missing file" -- "$RVT_BIN" run "$t/nonexistent.elf"
head -c 100 /dev/urandom >"$t/junk.elf"
expect 1 "junk ELF" -- "$RVT_BIN" run "$t/junk.elf"
grep -q "junk.elf" "$t/err" || { echo "FAIL junk ELF: no file name in message"; fail=1; }

dir="$RVT_SRC/../shared/interop/programs"
if [ -f "$dir/traps.elf" ]; then
    expect 2 "isa mismatch" -- "$RVT_BIN" run "$dir/traps.elf" --isa rv32imac
    expect 1 "max-instr" -- "$RVT_BIN" run "$dir/traps.elf" --max-instr 100 --quiet
    grep -q "max-instr" "$t/err" || { echo "FAIL max-instr message"; fail=1; }
    expect 0 "pcs" -- "$RVT_BIN" run "$dir/traps.elf" --quiet --pcs "$t/all" --pcs-retired "$t/ret"
    grep -qv '^[0-9a-f]*$' "$t/all" && { echo "FAIL pcs format"; fail=1; }
    [ "$(head -1 "$t/all")" = 80000000 ] || { echo "FAIL first pc $(head -1 "$t/all")"; fail=1; }
    # traps.elf has 11 faulting instructions besides its ecall/ebreak: they are
    # executed (QEMU's view) but not retired
    a=$(wc -l <"$t/all"); r=$(wc -l <"$t/ret")
    [ $((a - r)) -gt 0 ] || { echo "FAIL executed $a vs retired $r"; fail=1; }
    if [ -f "$dir/coswap.elf" ]; then
        expect 0 "width 3" -- "$RVT_BIN" run "$dir/coswap.elf" --retire-width 3 --quiet --pcs-retired "$t/w3"
        expect 0 "width 1" -- "$RVT_BIN" run "$dir/coswap.elf" --quiet --pcs-retired "$t/w1"
        cmp -s "$t/w1" "$t/w3" || { echo "FAIL retire width changes the retired PCs"; fail=1; }
        expect 0 "ingress" -- "$RVT_BIN" run "$dir/coswap.elf" --quiet --data --ingress "$t/c.rvi"
        [ -s "$t/c.rvi" ] || { echo "FAIL empty .rvi"; fail=1; }
    fi
fi
exit $fail
