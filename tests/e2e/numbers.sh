#!/bin/bash
# Numbers are parsed strictly and range-checked (issue #13 item 3): no
# sign, no spaces, nothing after; counts take k/M/G = 10^3/10^6/10^9,
# sizes (bytes) k/M/G = KiB/MiB/GiB, so "--ram-size 1G" is 2^30 bytes.
set -u
: "${RVT_SRC:?}" "${RVT_BIN:?}" "${RVT_TMP:?}"
t="$RVT_TMP/numbers"
rm -rf "$t"; mkdir -p "$t"
P=$RVT_SRC/programs/sort.elf
. "$RVT_SRC/tests/e2e/lib/expect.sh"
run() { "$RVT_BIN" run "$P" --quiet "$@"; }
expect 0 "--ram-size 1G (GiB: page multiple)" -- run --ram-size 1G
expect 0 "--ram-size 128M" -- run --ram-size 128M
expect 0 "--ram-size 0x8000000" -- run --ram-size 0x8000000
expect 2 "--ram-size 1000 (not a page multiple, below 4K)" -- run --ram-size 1000
expect 2 "--ram-size 10000 (not a page multiple)" -- run --ram-size 10000
expect 2 "--ram-size 32G (above 16G)" -- run --ram-size 32G
expect 2 "--max-instr 0" -- run --max-instr 0
grep -q -- "--max-instr" "$t/err" || { echo "FAIL --max-instr 0: message does not name the option"; fail=1; }
expect 2 "--max-instr -1" -- run --max-instr -1
expect 2 "--max-instr ' 5'" -- run --max-instr ' 5'
expect 2 "--max-instr 5x" -- run --max-instr 5x
expect 2 "--max-instr 0x" -- run --max-instr 0x
expect 2 "--max-instr 99999999999999999999 (overflow)" -- run --max-instr 99999999999999999999
expect 2 "--max-instr 20000000000G (overflow)" -- run --max-instr 20000000000G
# 1k = 1000 instructions, decimal
expect 1 "--max-instr 1k" -- run --max-instr 1k --pcs-retired "$t/k.pcs"
[ "$(wc -l <"$t/k.pcs")" -eq 1000 ] || { echo "FAIL --max-instr 1k: $(wc -l <"$t/k.pcs") instructions, want 1000"; fail=1; }
expect 2 "--retire-width 0" -- run --retire-width 0
expect 2 "--retire-width 9" -- run --retire-width 9
expect 2 "--data-split 0" -- run --data-split 0
expect 2 "--data-split 33" -- run --data-split 33
expect 2 "--ctr-control +1" -- run --ctr-control +1
expect 2 "verify --ram-size 1000" -- "$RVT_BIN" verify --elf "$P" --ram-size 1000 x.tvt
expect 2 "verify --max-report 0" -- "$RVT_BIN" verify --elf "$P" --max-report 0 x.tvt
expect 2 "import --priv 8" -- "$RVT_BIN" import pcs x.pcs --elf "$P" --priv 8 -o "$t/x.rvi"
expect 2 "import --priv ' 3'" -- "$RVT_BIN" import pcs x.pcs --elf "$P" --priv ' 3' -o "$t/x.rvi"
expect 2 "dump --xlen 64x" -- "$RVT_BIN" dump --tv --xlen 64x x.tvt
expect 2 "--nt-src 4:-1" -- run --ntrace "$t/x.nt" --nt-src 4:-1
expect 2 "--nt-src ' 4:1'" -- run --ntrace "$t/x.nt" --nt-src ' 4:1'
expect 2 "--nt-opt return-depth=-1" -- run --ntrace "$t/x.nt" --nt-opt return-depth=-1
expect 2 "--nt-attr with a sign" -- run --ntrace "$t/x.nt" --nt-attr rvtReturnStackDepth=+3
expect 0 "run --ntrace for decode" -- run --ntrace "$t/s.nt"
expect 2 "decode --src x" -- "$RVT_BIN" decode --elf "$P" "$t/s.nt" --src x
expect 2 "--comparator with a signed number" -- run --comparator '0:p=iaddr:ge:-0x80000000'
exit $fail
