#!/bin/bash
# import/encode refuse inputs that cannot be what the user meant (issue #13
# item 4): a PC list with the wrong program image (most PCs would need an
# inferred trap) stops with an error and leaves no output; an import with
# no records fails and leaves no header-only .rvi; encode of an input with
# no records says so instead of writing an empty trace with exit 0.
set -u
: "${RVT_SRC:?}" "${RVT_BIN:?}" "${RVT_TMP:?}"
t="$RVT_TMP/import_checks"
rm -rf "$t"; mkdir -p "$t"
fail=0
bad() { echo "FAIL $*"; fail=1; }
S=$RVT_SRC/programs/sort.elf
"$RVT_BIN" run "$S" --quiet --pcs-retired "$t/sort.pcs" >/dev/null || { echo "FAIL run"; exit 1; }
"$RVT_BIN" import pcs "$t/sort.pcs" --elf "$RVT_SRC/programs/crc.elf" -o "$t/w.rvi" 2>"$t/err"
rc=$?
[ $rc -eq 1 ] || bad "wrong --elf: status $rc, want 1"
grep -q "sort.pcs: .*does not fit this PC list" "$t/err" || bad "wrong --elf: $(head -1 "$t/err")"
[ -e "$t/w.rvi" ] && bad "wrong --elf: w.rvi left behind"
# the right image, and a trap-heavy program with its own image, import fine
"$RVT_BIN" import pcs "$t/sort.pcs" --elf "$S" -o "$t/ok.rvi" 2>"$t/err" || bad "sort with its ELF: $(head -1 "$t/err")"
E=$RVT_SRC/programs/ebreak.elf
"$RVT_BIN" run "$E" --quiet --pcs-retired "$t/eb.pcs" >/dev/null
"$RVT_BIN" import pcs "$t/eb.pcs" --elf "$E" -o "$t/eb.rvi" 2>"$t/err" || bad "ebreak with its ELF: $(head -1 "$t/err")"
grep -q "500 inferred" "$t/err" || bad "ebreak: $(head -1 "$t/err"), want its 500 breakpoints inferred"

: >"$t/empty.pcs"
"$RVT_BIN" import pcs "$t/empty.pcs" --elf "$S" -o "$t/h.rvi" 2>"$t/err"
[ $? -eq 1 ] || bad "empty import: not status 1"
grep -q "empty.pcs: no records" "$t/err" || bad "empty import: $(head -1 "$t/err")"
[ -e "$t/h.rvi" ] && bad "empty import: header-only h.rvi left behind"
# a header-only .rvi: the 16-byte header, then the end record (kind 0x00,
# u64 count 0) with nothing between (docs/format-rvi.md)
{ head -c 16 "$t/ok.rvi"; printf '\0\0\0\0\0\0\0\0\0'; } >"$t/hdr.rvi"
[ "$(stat -c %s "$t/hdr.rvi")" -eq 25 ] || bad "hdr.rvi is not 25 bytes"
for k in etrace ntrace; do
    "$RVT_BIN" encode --$k "$t/hdr.rvi" -o "$t/hdr.$k" 2>"$t/err"
    [ $? -eq 1 ] || bad "encode --$k of a header-only .rvi: not status 1"
    grep -q "hdr.rvi: no records to encode" "$t/err" || bad "encode --$k: $(head -1 "$t/err")"
    [ -e "$t/hdr.$k" ] && bad "encode --$k: output left behind"
done
exit $fail
