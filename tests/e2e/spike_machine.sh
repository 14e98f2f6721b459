#!/bin/bash
# Binaries built for Spike (docs/hart.md "Spike's machine"): HTIF console
# and exit through tohost/fromhost (programs/spike/htif*.elf check each
# response themselves and exit with the number of the first failed check),
# --machine spike (Spike's reset vector at 0x1000: a0 = mhartid, a1 =
# 0x1020), and --mem regions (programs/spike/memregion.elf has code and
# data at 0x20010000).
set -u
: "${RVT_SRC:?}" "${RVT_BIN:?}" "${RVT_TMP:?}"
t="$RVT_TMP/spike_machine"
mkdir -p "$t"
d="$RVT_SRC/programs/spike"
. "$RVT_SRC/tests/e2e/lib/expect.sh"
has() {   # has FILE TEXT DESCRIPTION
    grep -qF -- "$2" "$1" || { echo "FAIL $3: no '$2' in $(cat "$1")"; fail=1; }
}

for p in htif htif_rv32; do
    expect 0 "$p on spike" -- "$RVT_BIN" run "$d/$p.elf" --machine spike --quiet --pcs-retired "$t/$p.pcs"
    printf 'bcd: ok\nwrite: ok\n' | cmp -s - "$t/out" || { echo "FAIL $p console: $(cat "$t/out")"; fail=1; }
    # Spike's ROM: auipc, addi a1, csrr a0 mhartid, ld/lw t0 24(t0), jr t0
    # -> the ELF entry (the start of RAM)
    want=$(printf '1000\n1004\n1008\n100c\n1010\n80000000')
    [ "$(head -6 "$t/$p.pcs")" = "$want" ] || { echo "FAIL $p: first PCs $(head -6 "$t/$p.pcs" | tr '\n' ' ')"; fail=1; }
    # on the virt map the hart starts at the entry with a1 = 0: check 4
    expect 1 "$p on virt: a1 is not Spike's DTB address" -- "$RVT_BIN" run "$d/$p.elf" --quiet
    has "$t/err" "exited with code 4" "$p on virt"
    has "$t/out" "write: ok" "$p on virt console"
done

# the image map of a --machine spike run names Spike's boot ROM, so both
# protocols decode from 0x1000 with no option (docs/formats.md "Image map")
"$RVT_BIN" run "$d/htif.elf" --machine spike --quiet --etrace "$t/h.te" --ntrace "$t/h.nt" \
    --pcs-retired "$t/h.pcs" >/dev/null 2>&1
grep -qx spike-reset-vector "$t/h.nt.images" || { echo "FAIL map: no spike-reset-vector line"; fail=1; }
for tr in h.te h.nt; do
    expect 0 "$tr decodes from its map" -- "$RVT_BIN" decode "$t/$tr" --pcs "$t/$tr.pcs"
    cmp -s "$t/$tr.pcs" "$t/h.pcs" || { echo "FAIL $tr from its map: not the hart's PCs"; fail=1; }
done

m="$d/memregion.elf"
expect 1 "memregion without --mem" -- "$RVT_BIN" run "$m" --quiet
has "$t/err" "segment at 0x20010000" "memregion without --mem"
expect 0 "memregion with --mem" -- "$RVT_BIN" run "$m" --mem 0x20010000:64k --quiet
# 1^2 + ... + 8^2 = 204
has "$t/out" "memregion: PASS value=0xcc" "memregion result"
expect 0 "--mem =, size suffix, two regions" -- "$RVT_BIN" run "$m" --mem=0x20010000:4k --mem 0x20011000:0x1000 --quiet
expect 1 "region covers only the code" -- "$RVT_BIN" run "$m" --mem 0x20010000:4k --quiet
expect 2 "--mem base not page-aligned" -- "$RVT_BIN" run "$m" --mem 0x20010800:64k
expect 2 "--mem without a size" -- "$RVT_BIN" run "$m" --mem 0x20010000
expect 2 "--mem size not in pages" -- "$RVT_BIN" run "$m" --mem 0x20010000:100
expect 1 "--mem overlapping RAM" -- "$RVT_BIN" run "$m" --mem 0x7fff0000:128k
has "$t/err" "overlapping" "overlap message"
expect 1 "--mem overlapping Spike's ROM" -- "$RVT_BIN" run "$m" --machine spike --mem 0:8k
expect 2 "--machine unknown" -- "$RVT_BIN" run "$m" --machine sifive_u
has "$t/err" "virt or spike" "machine message"
exit $fail
