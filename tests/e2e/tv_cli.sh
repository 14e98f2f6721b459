#!/bin/bash
# rvtrace run --tv / dump F.tvt / verify: a workload's trace verifies;
# a flipped register value is reported at its item and byte offset; a
# truncated trace is an error with an offset, not a crash.
set -u
mkdir -p "$RVT_TMP"
T=$RVT_TMP/tv_cli
P=$RVT_SRC/programs/sort.elf
fail() { echo "tv_cli: $*"; exit 1; }

"$RVT_BIN" run "$P" --tv "$T.tvt" --tv-mem --quiet >/dev/null || fail "run --tv failed"
"$RVT_BIN" dump "$T.tvt" >"$T.dump" || fail "dump failed"
head -3 "$T.dump" | grep -q ' begin$' || fail "dump: no begin item first"
grep -q ' full_reg reg=x' "$T.dump" || fail "dump: no register items"
grep -q ' mem_req addr=0x' "$T.dump" || fail "dump: no memory requests"
"$RVT_BIN" dump --json "$T.tvt" | head -2 | tail -1 | grep -q '^{"offset":1,"kind":"init","index":1}$' \
    || fail "dump --json: second item is not the state initialization"
"$RVT_BIN" verify --elf "$P" "$T.tvt" >"$T.out" 2>&1 || { cat "$T.out"; fail "verify rejected a good trace"; }

# the 500th GPR write: flip the low bit of its value (value starts 3 bytes in)
line=$(grep ' full_reg reg=x' "$T.dump" | sed -n 500p)
off=$((16#$(echo "$line" | cut -d' ' -f1)))
idx=$(echo "$line" | sed 's/^[0-9a-f]* #\([0-9]*\).*/\1/')
cp "$T.tvt" "$T.bad.tvt"
b=$(od -An -tu1 -j $((off + 3)) -N1 "$T.tvt" | tr -d ' ')
printf "$(printf '\\%03o' $((b ^ 1)))" | dd of="$T.bad.tvt" bs=1 seek=$((off + 3)) conv=notrunc 2>/dev/null
"$RVT_BIN" verify --elf "$P" "$T.bad.tvt" >"$T.out" 2>&1 && fail "verify accepted a corrupted value"
grep -q "first divergence: item $idx (byte $off," "$T.out" || { cat "$T.out"; fail "divergence not at item $idx byte $off"; }

head -c 1000 "$T.tvt" >"$T.short.tvt"
"$RVT_BIN" dump "$T.short.tvt" >/dev/null 2>"$T.err" && fail "dump accepted a truncated trace"
grep -q 'offset' "$T.err" || fail "truncation error without an offset"
echo "tv_cli: ok"
