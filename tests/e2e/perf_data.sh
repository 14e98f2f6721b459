#!/bin/bash
# perf.data (issue #16; tools/perf/Documentation/perf.data-file-format.txt):
# a perf.data of rvtrace's making (tests/tools/perf_mkdata: COMM, MMAP2 of
# the program, each CPU's encapsulated E-Trace in AUXTRACE records of 1000
# bytes taking turns) is
#  - read by Debian's perf: `perf report -D --no-itrace` (perf cannot decode
#    RISC-V AUX data, so it is told not to) lists the same records at the
#    same offsets as `rvtrace dump`, and `perf script --header-only` reads the
#    header (skipped when perf is absent);
#  - decoded by `rvtrace decode perf.data --symfs DIR`: each CPU's PCs are
#    the hart's, the image found from the MMAP2 record under DIR and placed
#    as perf places it (file offset pgoff at the mapped address: amo.elf's
#    one PT_LOAD is at file offset 0x1000, readelf -l, so the MMAP2 of its
#    code at 0x80000000 says pgoff 0x1000, as the kernel would record it);
#    a copy of amo.elf whose segment is linked at 0x10000 (a relocated
#    object: the same bytes run at 0x80000000) decodes the same way;
#  - damaged (cut, bytes flipped): exit 0 or 1, never a crash or hang, an
#    error naming the file and an offset inside it.
set -u
: "${RVT_SRC:?}" "${RVT_BIN:?}" "${RVT_TMP:?}"
MK=${RVT_PERF_MKDATA:-}
[ -x "$MK" ] || { echo "no perf_mkdata: skipped"; exit 77; }
T="$RVT_TMP/perf_data"
rm -rf "$T"; mkdir -p "$T/symfs/bin"
P="$RVT_SRC/programs"
[ -f "$P/amo.elf" ] || { echo "no programs/amo.elf: skipped"; exit 77; }
fail=0
bad() { echo "FAIL: $*"; fail=1; }
cp "$P/amo.elf" "$T/symfs/bin/amo"
"$RVT_BIN" run "$P/amo.elf" --quiet --ingress "$T/amo.rvi" --pcs-retired "$T/amo.pcs" >/dev/null || bad "run"
"$RVT_BIN" encode --etrace "$T/amo.rvi" -o "$T/amo.te" --container encap || bad "encode"
"$MK" "$T/t.data" /bin/amo 0x80000000 0x2000 --pgoff 0x1000 --chunk 1000 0:"$T/amo.te" 3:"$T/amo.te" || bad "perf_mkdata"

# dump: the records; AUXTRACE records of the two CPUs take turns
"$RVT_BIN" dump "$T/t.data" >"$T/dump" 2>"$T/err" || bad "dump: $(head -2 "$T/err")"
size=$(stat -c %s "$T/amo.te")
chunks=$(( (size + 999) / 1000 ))
[ "$(grep -c 'PERF_RECORD_AUXTRACE size' "$T/dump")" = $((2 * chunks)) ] || bad "dump: not $((2 * chunks)) AUXTRACE records"
grep -q 'PERF_RECORD_MMAP2 1/1: \[0x80000000(0x2000) @ 0x1000 prot 0x5 flags 0x2\]: /bin/amo$' "$T/dump" || bad "dump: MMAP2 line"
grep -q 'PERF_RECORD_COMM: prog:1/1$' "$T/dump" || bad "dump: COMM line"
grep -Eq '^ +AUXTRACE events: +'$((2 * chunks))'$' "$T/dump" || bad "dump: totals"

# decode: each CPU's AUX data as encapsulated E-Trace, the image from --symfs
"$RVT_BIN" decode "$T/t.data" --symfs "$T/symfs" --pcs "$T/got.pcs" 2>"$T/err" || bad "decode: $(head -2 "$T/err")"
cat "$T/amo.pcs" "$T/amo.pcs" | cmp -s - "$T/got.pcs" || bad "decode: not the hart's PCs for each CPU"
n=$(wc -l <"$T/amo.pcs")
"$RVT_BIN" decode "$T/t.data" --symfs "$T/symfs" --count >"$T/count" 2>/dev/null
[ "$(cat "$T/count")" = "$(printf 'cpu 0: %s instructions\ncpu 3: %s instructions' "$n" "$n")" ] ||
    bad "decode --count: $(cat "$T/count")"
"$RVT_BIN" decode "$T/t.data" --symfs "$T/nowhere" --count >/dev/null 2>"$T/err"
[ $? = 1 ] && grep -q "nowhere//bin/amo (mapped at 0x80000000, file offset 0x1000): not loaded" "$T/err" || bad "missing image not reported"

# --symfs with another input: a usage error that says so (exit 2)
"$RVT_BIN" decode --elf "$P/amo.elf" "$T/amo.te" --symfs "$T/symfs" --count >/dev/null 2>"$T/err"
[ $? = 2 ] && grep -q "option --symfs is for perf.data input" "$T/err" ||
    bad "decode --symfs of a plain trace: $(head -1 "$T/err")"

# a relocated object: amo.elf with its PT_LOAD (program header 0 or the
# first PT_LOAD; ELF64: e_phoff at 0x20, 56-byte entries, p_vaddr at +16,
# p_paddr at +24) and e_entry (0x18) moved down by 0x7fff0000 to 0x10000
if command -v python3 >/dev/null; then
    python3 - "$P/amo.elf" "$T/symfs/bin/amo_moved" <<'PY'
import struct, sys
b = bytearray(open(sys.argv[1], 'rb').read())
delta = 0x7fff0000
phoff, = struct.unpack_from('<Q', b, 0x20)
phnum, = struct.unpack_from('<H', b, 0x38)
struct.pack_into('<Q', b, 0x18, struct.unpack_from('<Q', b, 0x18)[0] - delta)
for i in range(phnum):
    at = phoff + 56 * i
    if struct.unpack_from('<I', b, at)[0] == 1:        # PT_LOAD
        for f in (16, 24):
            struct.pack_into('<Q', b, at + f, struct.unpack_from('<Q', b, at + f)[0] - delta)
open(sys.argv[2], 'wb').write(b)
PY
    "$MK" "$T/r.data" /bin/amo_moved 0x80000000 0x2000 --pgoff 0x1000 0:"$T/amo.te" || bad "perf_mkdata relocated"
    "$RVT_BIN" decode "$T/r.data" --symfs "$T/symfs" --pcs "$T/r.pcs" 2>"$T/err" && cmp -s "$T/r.pcs" "$T/amo.pcs" ||
        bad "decode of a relocated object: $(head -2 "$T/err")"
    # a mapping of file bytes that hold no segment ([0, 0x800): amo's is at 0x1000)
    "$MK" "$T/w.data" /bin/amo_moved 0x80000000 0x800 0:"$T/amo.te" || bad "perf_mkdata window"
    "$RVT_BIN" decode "$T/w.data" --symfs "$T/symfs" --count >/dev/null 2>"$T/err"
    [ $? = 1 ] && grep -q "no loadable segment in the mapped file bytes \[0x0, +0x800)" "$T/err" ||
        bad "a mapping without code not reported: $(head -2 "$T/err")"
else
    echo "no python3: relocated object checks skipped"
fi

# AUXTRACE_INFO (its type is the PMU's; rvtrace lists it and decodes on)
"$MK" "$T/i.data" /bin/amo 0x80000000 0x2000 --pgoff 0x1000 --info 99 0:"$T/amo.te" || bad "perf_mkdata --info"
"$RVT_BIN" dump "$T/i.data" | grep -q 'PERF_RECORD_AUXTRACE_INFO type: 99 ' || bad "dump: AUXTRACE_INFO"
"$RVT_BIN" decode "$T/i.data" --symfs "$T/symfs" --pcs "$T/i.pcs" 2>/dev/null && cmp -s "$T/i.pcs" "$T/amo.pcs" ||
    bad "decode with AUXTRACE_INFO"

# a RISC-V AUXTRACE_INFO (docs/formats.md) carries the encoder's settings:
# a stream encoded with a 4-bit srcID 3 (not whole bytes: the bytes cannot
# tell the width) and full-address + sijump (trTeInstFeatures bits 0 and 2:
# 0x5), its .attrs thrown away, decodes to the hart's PCs with them only
"$RVT_BIN" encode --etrace "$T/amo.rvi" -o "$T/s.te" --container encap --encap-src-bits 4 \
    --encap-src-id 3 --te-opt full-address,sijump || bad "encode srcID 4 bits"
rm -f "$T/s.te.attrs"
"$MK" "$T/s.data" /bin/amo 0x80000000 0x2000 --pgoff 0x1000 --riscv-info 4,3,0,5 1:"$T/s.te" ||
    bad "perf_mkdata --riscv-info"
"$RVT_BIN" dump "$T/s.data" | grep -q 'PERF_RECORD_AUXTRACE_INFO type: 8 (9 private words)' ||
    bad "dump: RISC-V AUXTRACE_INFO"
"$RVT_BIN" decode "$T/s.data" --symfs "$T/symfs" --pcs "$T/s.pcs" 2>"$T/err" && cmp -s "$T/s.pcs" "$T/amo.pcs" ||
    bad "decode with the settings of AUXTRACE_INFO: $(head -2 "$T/err")"
grep -q 'container encap (from the perf.data AUXTRACE_INFO (trTeSrcBits)): srcID 4 bits' "$T/err" ||
    bad "decode does not say the container came from AUXTRACE_INFO"
# without it the srcID width is not known (exit 1); with trTeContext = 1
# format 3 packets are read with a context field the encoder did not write
# (nocontext=0, E-Trace 6.2), so that one setting is read too; an option
# (--te-attr nocontext=1) still wins over AUXTRACE_INFO.  (The modes of
# trTeInstFeatures are also in the stream's support packets, format 3
# subformat 3, so the decoder follows those whatever the record says.)
"$MK" "$T/s0.data" /bin/amo 0x80000000 0x2000 --pgoff 0x1000 1:"$T/s.te" || bad "perf_mkdata"
"$RVT_BIN" decode "$T/s0.data" --symfs "$T/symfs" --pcs "$T/s.pcs" 2>/dev/null &&
    bad "decode without AUXTRACE_INFO: exit 0"
"$MK" "$T/s1.data" /bin/amo 0x80000000 0x2000 --pgoff 0x1000 --riscv-info 4,3,1,5 1:"$T/s.te" ||
    bad "perf_mkdata"
"$RVT_BIN" decode "$T/s1.data" --symfs "$T/symfs" --pcs "$T/s.pcs" 2>/dev/null &&
    bad "decode with trTeContext = 1: exit 0, the context setting was not read"
"$RVT_BIN" decode "$T/s1.data" --symfs "$T/symfs" --te-attr nocontext=1 --pcs "$T/s.pcs" 2>/dev/null &&
    cmp -s "$T/s.pcs" "$T/amo.pcs" || bad "--te-attr does not override AUXTRACE_INFO"

# damage: cuts and flipped bytes
fsize=$(stat -c %s "$T/t.data")
for cut in 8 50 103 150 240 300 400 1000 3000 $((fsize - 1)); do
    head -c $cut "$T/t.data" >"$T/d.data"
    for cmd in dump "decode --symfs $T/symfs --count"; do
        timeout 20 "$RVT_BIN" $cmd "$T/d.data" >/dev/null 2>"$T/err"
        rc=$?
        [ $rc = 1 ] || bad "${cmd%% *} cut at $cut: exit $rc, want 1"
        grep -q "d.data" "$T/err" || bad "${cmd%% *} cut at $cut: error does not name the file"
    done
done
for at in 8 16 24 32 40 48 104 232 238 256 262 320 326 330; do
    cp "$T/t.data" "$T/d.data"
    printf '\xff' | dd of="$T/d.data" bs=1 seek=$at conv=notrunc 2>/dev/null
    timeout 20 "$RVT_BIN" decode "$T/d.data" --symfs "$T/symfs" --count >/dev/null 2>"$T/err"
    rc=$?
    [ $rc -le 1 ] || bad "decode with byte $at = 0xff: exit $rc"
    grep -qE 'Sanitizer|runtime error' "$T/err" && bad "byte $at: sanitizer report"
    off=$(sed -n 's/.*d.data: offset \([0-9]*\): error: bad perf.data.*/\1/p' "$T/err" | head -1)
    [ -z "$off" ] || [ "$off" -lt "$fsize" ] || bad "byte $at: offset $off outside the file"
done

# Debian's perf reads the file
if command -v perf >/dev/null && perf version >/dev/null 2>&1; then
    perf report -D --no-itrace -i "$T/t.data" >"$T/perf.out" 2>"$T/perf.err" || bad "perf report -D: exit $?"
    grep -q "failed to process" "$T/perf.err" && bad "perf report -D: $(head -1 "$T/perf.err")"
    grep -o '0x[0-9a-f]* \[0x[0-9a-f]*\]: PERF_RECORD_AUXTRACE size.*' "$T/perf.out" >"$T/perf.aux"
    grep 'PERF_RECORD_AUXTRACE size' "$T/dump" | cmp -s - "$T/perf.aux" || bad "perf and rvtrace list different AUXTRACE records"
    grep -q 'PERF_RECORD_MMAP2 1/1: \[0x80000000(0x2000) @ 0x1000 .*\]: r-xp /bin/amo$' "$T/perf.out" || bad "perf: MMAP2"
    perf script --header-only -i "$T/t.data" >"$T/hdr" 2>&1 || bad "perf script --header-only: exit $?"
    data=$(grep -o 'data section at 0x[0-9a-f]* (0x[0-9a-f]* bytes)' "$T/dump" | sed 's/.*(\(0x[0-9a-f]*\) bytes)/\1/')
    grep -q "^# data size *: $((data))\$" "$T/hdr" || bad "perf script: data size is not $((data))"
else
    echo "no perf: its checks skipped"
fi
[ $fail = 0 ] && echo "perf.data: written, read by perf and rvtrace, decoded"
exit $fail
