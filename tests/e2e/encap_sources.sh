#!/bin/bash
# Several sources in one encapsulated stream (issue #16; Encapsulation 1.0
# 2.1.2 srcID, 2.1.1 timestamp): two harts' E-Trace streams, each with its
# own 8-bit srcID and 4-byte timestamps, interleaved packet by packet as a
# funnel would.  decode runs one decoder per srcID: --src N gives that
# hart's PCs, all sources give each hart's PCs in turn (images keyed by
# src=N), events tagged with their srcID; dump shows the srcID of every
# packet in stream order; each packet's timestamp is a time event, the
# first and last being the times of the hart's first and last record.
set -u
: "${RVT_SRC:?}" "${RVT_BIN:?}" "${RVT_TMP:?}"
command -v python3 >/dev/null || { echo "no python3: skipped"; exit 77; }
T="$RVT_TMP/encap_sources"
mkdir -p "$T"
P="$RVT_SRC/programs"
fail=0
bad() { echo "FAIL: $*"; fail=1; }
id=1
for p in amo fptr; do
    [ -f "$P/$p.elf" ] || { echo "no programs/$p.elf: skipped"; exit 77; }
    "$RVT_BIN" run "$P/$p.elf" --quiet --ingress "$T/$p.rvi" --pcs-retired "$T/$p.pcs" >/dev/null || bad "run $p"
    "$RVT_BIN" encode --etrace "$T/$p.rvi" -o "$T/$p.te" --container encap --encap-src-bits 8 \
        --encap-src-id $id --encap-ts-bytes 4 || bad "encode $p"
    id=$((id + 1))
done
python3 "$RVT_SRC/tests/e2e/encap_mix.py" 1 4 "$T/amo.te" "$T/fptr.te" "$T/two.te" || bad "mix"
cp "$T/amo.te.attrs" "$T/two.te.attrs"

# one source
"$RVT_BIN" decode --elf "$P/amo.elf" "$T/two.te" --src 1 --pcs "$T/1.pcs" 2>"$T/err" || bad "decode --src 1"
cmp -s "$T/1.pcs" "$T/amo.pcs" || bad "--src 1: not amo's PCs"
grep -q "packets of other sources left out" "$T/err" || bad "--src 1: the other source's packets not reported"
"$RVT_BIN" decode --elf "$P/fptr.elf" "$T/two.te" --src 2 --pcs "$T/2.pcs" 2>/dev/null || bad "decode --src 2"
cmp -s "$T/2.pcs" "$T/fptr.pcs" || bad "--src 2: not fptr's PCs"
"$RVT_BIN" decode --elf "$P/fptr.elf" "$T/two.te" --src 3 --pcs "$T/3.pcs" 2>"$T/err"
[ $? = 1 ] && grep -q "no packet of srcID 3" "$T/err" || bad "--src 3 (absent) is not an error naming it"

# a reference-flow stream has no srcID to select
"$RVT_BIN" encode --etrace "$T/amo.rvi" -o "$T/plain.te" || bad "encode plain"
"$RVT_BIN" decode --elf "$P/amo.elf" "$T/plain.te" --src 1 --pcs "$T/p.pcs" 2>"$T/err"
[ $? = 1 ] && grep -q "not encapsulated" "$T/err" || bad "--src on a reference-flow stream is not an error"

# all sources: one decoder each, in order of first appearance
"$RVT_BIN" decode --elf "$P/amo.elf@src=1" --elf "$P/fptr.elf@src=2" "$T/two.te" --pcs "$T/all.pcs" \
    --json >"$T/all.json" 2>/dev/null || bad "decode all"
cat "$T/amo.pcs" "$T/fptr.pcs" | cmp -s - "$T/all.pcs" || bad "all sources: not amo's then fptr's PCs"
n1=$(grep -c '"kind":"insn","src":1,' "$T/all.json"); n2=$(grep -c '"kind":"insn","src":2,' "$T/all.json")
[ "$n1" = "$(wc -l <"$T/amo.pcs")" ] && [ "$n2" = "$(wc -l <"$T/fptr.pcs")" ] ||
    bad "insn events tagged src 1: $n1, src 2: $n2"
"$RVT_BIN" decode --elf "$P/amo.elf@src=1" --elf "$P/fptr.elf@src=2" "$T/two.te" --count >"$T/count" 2>/dev/null
grep -qx "srcID 1: $(wc -l <"$T/amo.pcs") instructions" "$T/count" &&
    grep -qx "srcID 2: $(wc -l <"$T/fptr.pcs") instructions" "$T/count" || bad "--count per source: $(cat "$T/count")"

# dump: every packet names its srcID; the sources interleave
"$RVT_BIN" dump "$T/two.te" >"$T/dump" 2>/dev/null || bad "dump"
awk '/ srcID=2$/{if (!two) two=NR} / srcID=1$/{one=NR} END{exit !(two && one && two < one)}' "$T/dump" ||
    bad "dump: srcIDs missing or not interleaved"
grep -vq ' srcID=[12]$' "$T/dump" && bad "dump: a packet without its srcID"
"$RVT_BIN" dump --json "$T/two.te" 2>/dev/null | head -1 | grep -q '^{"srcID":1,' || bad "dump --json: no srcID"

# timestamps: one per packet of the source; first and last = the hart's first and last record time
for s in 1:amo 2:fptr; do
    id=${s%%:*} p=${s#*:}
    grep "\"kind\":\"time\",\"src\":$id," "$T/all.json" | sed 's/.*"time":\([0-9]*\).*/\1/' >"$T/t$id"
    want=$(grep -c " srcID=$id\$" "$T/dump")
    [ "$(wc -l <"$T/t$id")" = "$want" ] || bad "src $id: $(wc -l <"$T/t$id") time events, $want packets"
    "$RVT_BIN" dump "$T/$p.rvi" | sed -n 's/^blk .* time=\([0-9]*\) .*/\1/p' >"$T/rt$id"
    [ "$(head -1 "$T/t$id")" = "$(head -1 "$T/rt$id")" ] && [ "$(tail -1 "$T/t$id")" = "$(tail -1 "$T/rt$id")" ] ||
        bad "src $id: times $(head -1 "$T/t$id")..$(tail -1 "$T/t$id"), records $(head -1 "$T/rt$id")..$(tail -1 "$T/rt$id")"
    sort -n -c "$T/t$id" 2>/dev/null || bad "src $id: times go backwards"
done
"$RVT_BIN" decode --elf "$P/amo.elf" "$T/two.te" --src 1 2>/dev/null | grep -q '^-- time 0$' || bad "listing: no time line"
[ $fail = 0 ] && echo "encap sources: demultiplexed by srcID, timestamps out"
exit $fail
