#!/bin/bash
# rvtrace encode --container encap (Encapsulation 1.0): the stream decodes
# to the hart's PCs, with and without data trace and several srcID widths;
# dump/decode take the container from FILE.attrs, else from the bytes (a
# leading synchronisation sequence), and say so on stderr; a corrupt
# encapsulated stream is an error naming the file and offset (exit 1); bad
# container options are usage errors (exit 2).
set -u
: "${RVT_SRC:?}" "${RVT_BIN:?}" "${RVT_TMP:?}"
T="$RVT_TMP/encap_cli"
mkdir -p "$T"
fail=0
bad() { echo "FAIL: $*"; fail=1; }
elf="$RVT_SRC/programs/recurse.elf"
"$RVT_BIN" run "$elf" --quiet --data-records --ingress "$T/r.rvi" --pcs-retired "$T/hart.pcs" >/dev/null || bad "run"
"$RVT_BIN" encode --etrace "$T/r.rvi" -o "$T/plain.te" || bad "encode plain"

for cfg in "0 0" "6 9" "8 200" "16 4660"; do
    set -- $cfg
    out="$T/e$1.te"
    "$RVT_BIN" encode --etrace "$T/r.rvi" -o "$out" --container encap --encap-src-bits "$1" \
        --encap-src-id "$2" --encap-sync-interval 4096 || bad "encode encap $cfg"
    grep -qx "container=encap" "$out.attrs" && grep -qx "encap_src_bits=$1" "$out.attrs" &&
        grep -qx "encap_src_id=$2" "$out.attrs" || bad "$out.attrs lacks the container keys"
    "$RVT_BIN" decode --elf "$elf" "$out" --pcs "$T/e.pcs" 2>"$T/err" || bad "decode $cfg"
    grep -q "container encap (from FILE.attrs): srcID $1 bits" "$T/err" || bad "decode $cfg did not say encap"
    cmp -s "$T/e.pcs" "$T/hart.pcs" || bad "decode $cfg: PCs differ from the hart's"
    # dump lists the same packets as the plain stream (offsets aside)
    "$RVT_BIN" dump "$out" 2>/dev/null | cut -c10- >"$T/d.enc"
    "$RVT_BIN" dump "$T/plain.te" | cut -c10- >"$T/d.plain"
    cmp -s "$T/d.enc" "$T/d.plain" || bad "dump $cfg differs from the plain stream's"
done

# dump lists FILE byte offsets: e8.te's sync sequence is N + 1 = 31 + 1 +
# 1 bytes (2.3), so its first packet (header, srcID, 1 payload byte: the
# support packet) is at 33 and the second at 36
"$RVT_BIN" dump "$T/e8.te" 2>/dev/null | head -2 | awk '{ print $1 }' | tr '\n' ' ' >"$T/offs"
[ "$(cat "$T/offs")" = "33 36 " ] || bad "dump e8.te: offsets '$(cat "$T/offs")', want the file's 33 36"
"$RVT_BIN" dump --json "$T/e8.te" 2>/dev/null | head -1 | grep -q '^{"offset":33,"kind":"te_inst"' ||
    bad "dump --json e8.te: first offset not the file's 33"

# te_data too: the type field is 1 bit (3.3: 0 te_inst, 1 te_data)
"$RVT_BIN" encode --etrace --te-data "$T/r.rvi" -o "$T/d.te" --container encap || bad "encode --te-data"
grep -qx "encap_type_bits=1" "$T/d.te.attrs" || bad "te-data: type width not 1"
"$RVT_BIN" encode --etrace --te-data "$T/r.rvi" -o "$T/dp.te" || bad "encode --te-data plain"
"$RVT_BIN" dump "$T/d.te" 2>/dev/null | cut -c10- >"$T/dd.enc"
"$RVT_BIN" dump "$T/dp.te" | cut -c10- >"$T/dd.plain"
cmp -s "$T/dd.enc" "$T/dd.plain" || bad "te-data dump differs"
"$RVT_BIN" encode --etrace --te-data "$T/r.rvi" -o "$T/x.te" --container encap --encap-type-bits 0 2>/dev/null
[ $? = 2 ] || bad "te-data with a 0-bit type is not a usage error"

# No .attrs: the bytes say encap (a leading sync sequence of 32 nulls)
cp "$T/e0.te" "$T/bare.bin"
"$RVT_BIN" decode --etrace --elf "$elf" "$T/bare.bin" --pcs "$T/b.pcs" 2>"$T/err" || bad "decode bare"
grep -q "container encap (from the bytes" "$T/err" || bad "bare: not detected"
cmp -s "$T/b.pcs" "$T/hart.pcs" || bad "bare: PCs differ"
# ... whose length gives the srcID bytes (N = 31 + T + S, 2.3) when no
# packet has a timestamp and the srcIDs read so are few
for b in 8 16; do
    cp "$T/e$b.te" "$T/bare$b.bin"
    "$RVT_BIN" decode --etrace --elf "$elf" "$T/bare$b.bin" --pcs "$T/b.pcs" 2>"$T/err" || bad "decode bare$b"
    grep -q "container encap (from the bytes.*srcID $b bits" "$T/err" || bad "bare$b: width not found"
    cmp -s "$T/b.pcs" "$T/hart.pcs" || bad "bare$b: PCs differ"
done
# a 1-byte timestamp width and no srcID: S + T = 1 could be either; the
# packets read with S = 1 give many srcIDs (payload bytes): ask
"$RVT_BIN" encode --etrace "$T/r.rvi" -o "$T/t1.te" --container encap --encap-ts-bytes 1 || bad "encode ts 1"
rm -f "$T/t1.te.attrs"
"$RVT_BIN" decode --etrace --elf "$elf" "$T/t1.te" --pcs "$T/b.pcs" 2>"$T/err"
[ $? = 1 ] || bad "ts-width stream without .attrs: not exit 1"
grep -q "t1.te: encapsulated.*give --encap-src-bits N and --encap-ts-bytes N" "$T/err" ||
    bad "ts-width stream without .attrs: '$(head -1 "$T/err")'"
"$RVT_BIN" decode --etrace --elf "$elf" "$T/t1.te" --encap-src-bits 0 --encap-ts-bytes 1 --pcs "$T/b.pcs" 2>"$T/err" ||
    bad "ts-width stream with the widths given: $(head -1 "$T/err")"
cmp -s "$T/b.pcs" "$T/hart.pcs" || bad "ts-width stream with the widths given: PCs differ"
"$RVT_BIN" decode --etrace --elf "$elf" "$T/plain.te" --pcs "$T/p.pcs" 2>"$T/err" || bad "decode plain"
grep -q container "$T/err" && bad "plain stream announced a container"

# Corrupt: a header with extend set and no timestamp width (2.1.1) at 40
cp "$T/e0.te" "$T/bad.te"; cp "$T/e0.te.attrs" "$T/bad.te.attrs"
printf '\x81' | dd of="$T/bad.te" bs=1 seek=40 conv=notrunc 2>/dev/null
"$RVT_BIN" dump "$T/bad.te" >/dev/null 2>"$T/err"
rc=$?
[ $rc = 1 ] || bad "corrupt stream: exit $rc, want 1"
grep -q "bad.te: offset 40: error: bad encapsulated packet" "$T/err" || bad "corrupt: no offset: $(head -2 "$T/err")"

# Offsets name the file's bytes, not the unwrapped stream's: a stream cut
# inside a packet is both a truncated encapsulated packet (found by the
# encapsulation reader, at that packet's header) and an incomplete E-Trace
# (found by the decoder after unwrapping: the last complete packet ends where
# the truncated one starts).  With 8-bit srcIDs and a sync sequence the two
# offsets differ by hundreds of bytes if the decoder's is not mapped back.
head -c 3000 "$T/e8.te" >"$T/cut.te"; cp "$T/e8.te.attrs" "$T/cut.te.attrs"
"$RVT_BIN" decode --elf "$elf" "$T/cut.te" --count >/dev/null 2>"$T/err"
enc=$(sed -n 's/.*cut.te: offset \([0-9]*\): error: bad encapsulated packet.*/\1/p' "$T/err")
inc=$(sed -n 's/.*cut.te: offset \([0-9]*\): warning: incomplete trace.*/\1/p' "$T/err")
[ -n "$enc" ] && [ "$enc" = "$inc" ] || bad "cut: encap error at '$enc', incomplete at '$inc' (want equal file offsets)"

# A buffer that starts mid-packet (a wrapped sink): --encap-resync starts
# at the first sync point, reports the skipped bytes, and the PCs decoded
# are the hart's last ones
tail -c +4000 "$T/e8.te" >"$T/wrap.te"; cp "$T/e8.te.attrs" "$T/wrap.te.attrs"
"$RVT_BIN" decode --elf "$elf" "$T/wrap.te" --encap-resync --pcs "$T/w.pcs" 2>"$T/err"
grep -q "encap: [0-9]* bytes skipped to resynchronise" "$T/err" || bad "wrap: skipped bytes not reported"
n=$(wc -l <"$T/w.pcs")
[ "$n" -gt 1000 ] && cmp -s "$T/w.pcs" <(tail -n "$n" "$T/hart.pcs") || bad "wrap: $n PCs, not the hart's last"

"$RVT_BIN" encode --etrace "$T/r.rvi" -o "$T/y.te" --container zip 2>/dev/null
[ $? = 2 ] || bad "--container zip is not a usage error"
"$RVT_BIN" encode --etrace "$T/r.rvi" -o "$T/y.te" --container encap --encap-src-bits 6 --encap-src-id 64 2>/dev/null
[ $? = 2 ] || bad "srcID too wide is not a usage error"
exit $fail
