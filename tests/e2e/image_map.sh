#!/bin/bash
# Decoding across images (issue 15): `rvtrace run` writes TRACE.images
# beside each trace (docs/formats.md "Image map"), `decode` reads it by
# default, and listings, --json and --folded name the image and symbol of
# every instruction when the decode has several images.  Over the U-Boot
# boot (docs/hart.md "Booting"): OpenSBI's fw_jump.elf, U-Boot's uboot.elf
# at 0x80200000, and U-Boot's copy of itself at its relocation address
# (bdinfo's relocaddr 0x87f57000), given to run as --image u-boot.bin@ADDR
# since the hart does not load it.  Both protocols decode to the hart's
# PCs with no --elf; the listing's and folded stacks' symbols are checked
# against riscv64-unknown-elf-nm (that part skipped without it).
# Skips (77) without the opensbi or u-boot-qemu package.
set -u
. "${RVT_SRC:?}/tests/e2e/lib/uboot_boot.sh" image_map
fail=0
printf '\nversion\npoweroff\n' >"$t/in"
"$RVT_BIN" run --bios "$fw" --kernel "$U/uboot.elf" --image "$U/u-boot.bin@$UBOOT_RELOC" \
    --stdin "$t/in" --etrace "$t/b.te" --ntrace "$t/b.nt" --pcs-retired "$t/hart.pcs" \
    >"$t/console" 2>"$t/run.err" || { echo "FAIL run: $(tail -2 "$t/run.err")"; exit 1; }

sha1sum <"$t/hart.pcs" >"$t/hart.sha"; rm -f "$t/hart.pcs"   # 17 M lines: kept as a digest

# the map: what the hart loaded, then what run was told, absolute paths
want="elf $fw
elf $U/uboot.elf
image $U/u-boot.bin@$UBOOT_RELOC"
for tr in b.te b.nt; do
    [ "$(grep -v '^#' "$t/$tr.images")" = "$want" ] ||
        { echo "FAIL $tr.images:"; cat "$t/$tr.images"; fail=1; }
    "$RVT_BIN" decode "$t/$tr" --pcs - 2>"$t/$tr.err" | sha1sum >"$t/$tr.sha"
    rc=${PIPESTATUS[0]}
    if [ $rc -ne 0 ]; then echo "FAIL decode $tr from its map: status $rc: $(head -2 "$t/$tr.err")"; fail=1
    elif ! cmp -s "$t/$tr.sha" "$t/hart.sha"; then echo "FAIL decode $tr: not the hart's PCs"; fail=1
    else echo "ok   $tr decodes with its image map alone"; fi
done
# without the map (and no --elf) there is nothing to decode with: usage
"$RVT_BIN" decode "$t/b.te" --no-image-map --count >/dev/null 2>&1
[ $? -eq 2 ] || { echo "FAIL --no-image-map without --elf: want status 2"; fail=1; }
# a map line naming no file: status 1, the map and the line's byte offset
cp "$t/b.te" "$t/bad.te"; cp "$t/b.te.attrs" "$t/bad.te.attrs"
printf '# x\nelf %s\nelf %s/none.elf\n' "$fw" "$t" >"$t/bad.te.images"
off=$(( 4 + 5 + ${#fw} ))
"$RVT_BIN" decode "$t/bad.te" --count >/dev/null 2>"$t/bad.err"
rc=$?
if [ $rc -ne 1 ] || ! grep -q "bad.te.images.*$off" "$t/bad.err"; then
    echo "FAIL bad map: status $rc, want 1 naming offset $off: $(cat "$t/bad.err")"; fail=1
else echo "ok   a map line that does not load: status 1 at its offset"; fi

# a map naming a file that is not there, with images on the command line
# (a trace moved elsewhere): a warning, and the command line's images
cp "$t/b.te" "$t/moved.te"; cp "$t/b.te.attrs" "$t/moved.te.attrs"
sed "s|^elf $fw\$|elf $t/gone/fw_jump.elf|" "$t/b.te.images" >"$t/moved.te.images"
"$RVT_BIN" decode "$t/moved.te" --elf "$fw" --pcs - 2>"$t/moved.err" | sha1sum >"$t/moved.sha"
rc=${PIPESTATUS[0]}
if [ $rc -ne 0 ] || ! cmp -s "$t/moved.sha" "$t/hart.sha" || ! grep -q "gone/fw_jump.elf: not found; skipped" "$t/moved.err"; then
    echo "FAIL moved map: status $rc: $(head -2 "$t/moved.err")"; fail=1
else echo "ok   a map file that is gone: skipped with a warning when --elf is given"; fi
"$RVT_BIN" decode "$t/moved.te" --count >/dev/null 2>&1
[ $? -eq 1 ] || { echo "FAIL moved map without --elf: want status 1"; fail=1; }

command -v riscv64-unknown-elf-nm >/dev/null || { echo "skip: no riscv64-unknown-elf-nm"; exit $fail; }
. "$RVT_SRC/tests/e2e/lib/image_syms.sh"
nm_table "$t/nm" riscv64-unknown-elf-nm "$fw" "$U/uboot.elf" && [ "$(wc -l <"$t/nm")" -gt 100 ] ||
    { echo "FAIL: nm lists no symbols"; exit 1; }

# folded stacks: every IMAGE`symbol frame is a symbol of that image
"$RVT_BIN" decode "$t/b.te" --folded >"$t/folded" 2>"$t/folded.err" || { echo "FAIL --folded"; fail=1; }
tr ';' '\n' <"$t/folded" | sed 's/ [0-9]*$//' | grep '`' | sort -u | tr '`' ' ' >"$t/frames"
n=$(wc -l <"$t/frames")
bad=$(awk 'NR == FNR { have[$1 " " $3] = 1; next } !have[$1 " " $2]' "$t/nm" "$t/frames" | head -3)
for img in fw_jump.elf uboot.elf; do
    grep -q "^$img " "$t/frames" || { echo "FAIL --folded: no frame of $img"; fail=1; }
done
if [ -n "$bad" ] || [ "$n" -lt 20 ]; then echo "FAIL --folded: $n frames, not in nm: $bad"; fail=1
else echo "ok   --folded: $n IMAGE\`symbol frames, each a symbol of its image"; fi

# listings of three index pieces (OpenSBI, U-Boot, U-Boot relocated): each
# "ADDR <sym> [IMAGE]:" header is IMAGE's symbol at ADDR (nm); code without
# a symbol is headed "ADDR [u-boot.bin]:"
listing_pieces "$t/b.te" "$t/listing" 'pc=0x800' 'pc=0x802' 'pc=0x87f' || { echo "FAIL listing pieces"; fail=1; }
listing_heads "$t/listing" "$t/heads"
n=$(wc -l <"$t/heads")
bad=$(heads_not_in_nm "$t/heads" "$t/nm" | head -3)
if [ -n "$bad" ] || [ "$n" -lt 10 ]; then echo "FAIL listing: $n headers, not in nm: $bad"; fail=1
else echo "ok   listing: $n <symbol> [image] headers, each at its nm address"; fi
for img in fw_jump.elf uboot.elf; do
    grep -q "^$img " "$t/heads" || { echo "FAIL listing: no header of $img"; fail=1; }
done
grep -qE '^0000000087f[0-9a-f]{5} \[u-boot.bin\]:$' "$t/listing" ||
    { echo "FAIL listing: no [u-boot.bin] header for the relocated code"; fail=1; }
exit $fail
