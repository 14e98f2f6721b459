#!/bin/bash
# rvtrace index and decode --range (docs/parallel.md): the index file is
# written beside the trace; ranges of index points decode to the pieces of
# the whole decode, in order; a cut or changed index file is an error
# naming its byte offset; bad --jobs/--range values are usage errors.
set -eu
T="$RVT_TMP/index_cli"; rm -rf "$T"; mkdir -p "$T"
P="$RVT_SRC/programs/privs.elf"
"$RVT_BIN" run "$P" --quiet --etrace "$T/p.te" --te-attr resync_max=4 > /dev/null
"$RVT_BIN" run "$P" --quiet --ntrace "$T/p.nt" --nt-opt sync=1:0 > /dev/null

for tr in "$T/p.te" "$T/p.nt"; do
    "$RVT_BIN" index --list "$tr" > "$T/list"
    [ -s "$tr.idx" ] || { echo "FAIL: no $tr.idx"; exit 1; }
    n=$(tail -1 "$T/list" | awk '{print $1}')
    [ "$(grep -c '^[0-9]* @' "$T/list")" = "$n" ] || { echo "FAIL: --list lines"; exit 1; }
    [ "$n" -ge 6 ] || { echo "FAIL: $tr: $n points"; exit 1; }
    # 32-byte header, 48 bytes a point, 8-byte checksum (docs/formats.md)
    [ "$(stat -c %s "$tr.idx")" = $((32 + 48 * n + 8)) ] || { echo "FAIL: idx size"; exit 1; }
    # the first point's line names its offset and PC as dump sees them
    head -1 "$T/list" | grep -q '^0 @[0-9]* pc=0x8' || { echo "FAIL: list: $(head -1 "$T/list")"; exit 1; }

    "$RVT_BIN" decode --elf "$P" "$tr" --pcs "$T/all.pcs"
    last=$((n - 1)); a=$((n / 3)); b=$((2 * n / 3))
    "$RVT_BIN" decode --elf "$P" "$tr" --range 0:$((a - 1)) --pcs "$T/r1.pcs" 2> "$T/r1.err"
    "$RVT_BIN" decode --elf "$P" "$tr" --range $a:$b --jobs 2 --pcs "$T/r2.pcs"
    "$RVT_BIN" decode --elf "$P" "$tr" --range $((b + 1)):$last --pcs "$T/r3.pcs"
    cat "$T/r1.pcs" "$T/r2.pcs" "$T/r3.pcs" | cmp - "$T/all.pcs" ||
        { echo "FAIL: $tr: ranges 0:$((a - 1)) $a:$b $((b + 1)):$last are not the whole"; exit 1; }
    [ -s "$T/r2.pcs" ] || { echo "FAIL: empty range"; exit 1; }
    # a range that stops before the end is not a truncated stream
    ! grep -q "incomplete\|end marker" "$T/r1.err" || { echo "FAIL: range end warned"; exit 1; }

    # usage errors (2), a range past the index (1)
    rc=0; "$RVT_BIN" decode --elf "$P" "$tr" --range 3:2 > /dev/null 2>&1 || rc=$?
    [ "$rc" = 2 ] || { echo "FAIL: --range 3:2 exit $rc"; exit 1; }
    rc=0; "$RVT_BIN" decode --elf "$P" "$tr" --jobs 0 > /dev/null 2>&1 || rc=$?
    [ "$rc" = 2 ] || { echo "FAIL: --jobs 0 exit $rc"; exit 1; }
    rc=0; "$RVT_BIN" decode --elf "$P" "$tr" --range 0:$n > /dev/null 2> "$T/err" || rc=$?
    [ "$rc" = 1 ] && grep -q "the index has $n points" "$T/err" || { echo "FAIL: --range 0:$n exit $rc"; exit 1; }

    # a cut index file: error at the first missing byte, exit 1
    size=$(stat -c %s "$tr.idx")
    cp "$tr.idx" "$T/good.idx"
    head -c $((size - 20)) "$T/good.idx" > "$tr.idx"
    rc=0; "$RVT_BIN" decode --elf "$P" "$tr" --jobs 2 > /dev/null 2> "$T/err" || rc=$?
    [ "$rc" = 1 ] || { echo "FAIL: cut index: exit $rc"; exit 1; }
    grep -q "$(basename "$tr").idx: offset $((size - 20)): error: truncated index" "$T/err" ||
        { echo "FAIL: cut index: $(cat "$T/err")"; exit 1; }
    # a changed byte in point 1: only the checksum says it (at the trailer)
    cp "$T/good.idx" "$tr.idx"
    printf '\x55' | dd of="$tr.idx" bs=1 seek=$((32 + 48 + 9)) conv=notrunc 2> /dev/null
    rc=0; "$RVT_BIN" decode --elf "$P" "$tr" --jobs 2 > /dev/null 2> "$T/err" || rc=$?
    [ "$rc" = 1 ] && grep -q "idx: offset $((size - 8)): error: index checksum mismatch" "$T/err" ||
        { echo "FAIL: changed index: exit $rc: $(cat "$T/err")"; exit 1; }
    # not an index at all
    echo "this is some text, not an index file of rvtrace" > "$tr.idx"
    rc=0; "$RVT_BIN" decode --elf "$P" "$tr" --jobs 2 > /dev/null 2> "$T/err" || rc=$?
    [ "$rc" = 1 ] && grep -q "idx: offset 0: error: not an rvtrace index" "$T/err" ||
        { echo "FAIL: not an index: exit $rc: $(cat "$T/err")"; exit 1; }
    rm -f "$tr.idx"
done

# an index written for another stream is passed over (said), the output kept
cp "$T/p.te.idx" "$T/p.nt.idx" 2> /dev/null || "$RVT_BIN" index "$T/p.te" -o "$T/p.nt.idx" > /dev/null
"$RVT_BIN" decode --elf "$P" "$T/p.nt" --pcs "$T/one.pcs"
"$RVT_BIN" decode --elf "$P" "$T/p.nt" --jobs 2 --pcs "$T/two.pcs" 2> "$T/err"
cmp "$T/one.pcs" "$T/two.pcs"
grep -q "written for another stream" "$T/err" || { echo "FAIL: stale index not said"; exit 1; }
echo "index and --range: ok"
