#!/bin/bash
# decode --jobs N on N-Trace streams of several sources (SRC, one hart
# each, messages interleaved): each source's stream is cut at its own
# index points, decoded by decoders of that source only, and the events
# merged into one decoder's order (docs/parallel.md).  Every output, the
# diagnostics and the exit status must be those of one decoder, byte for
# byte, also on damaged streams: a transport error reaches every source
# (one error per synchronised source, or one of src 0's when none is), a
# corrupted byte inside one source's message, a cut stream (incomplete
# end), junk before the first and after the last message.
set -eu
T="$RVT_TMP/decode_jobs_sources"; rm -rf "$T"; mkdir -p "$T"
P="$RVT_SRC/programs"
for p in privs fptr setjmp recurse; do
    [ -f "$P/$p.elf" ] || { echo "no programs/$p.elf: skipped"; exit 77; }
    "$RVT_BIN" run "$P/$p.elf" --quiet --ingress "$T/$p.rvi" > /dev/null || true
done

# decode with the given options alone and with --jobs N for each N of the
# list: every output the same (lib/jobs_same.sh)
. "${RVT_SRC:?}/tests/e2e/lib/jobs_same.sh"
. "$RVT_SRC/tests/e2e/lib/quick.sh"
same() {
    local tr=$1 jobs=$2; shift 2
    jobs_same "$T" "$jobs" "${ELFS[@]}" "$tr" "$@"
}

# every writer, with a piece at every point of each source and with the
# plan's own piece sizes; report (its options handed to decode).  Quick
# (lib/quick.sh): the writers but --json with one of the two piece sizes,
# the K-th stream checked the (K mod 2)-th
check() {
    local tr=$1 k=$2 j=0
    for bytes in 1 ""; do
        export RVTRACE_PIECE_BYTES=$bytes
        same "$tr" "1 2 3 4" --json
        quick_turn "$k" $((j++)) 2 || continue
        same "$tr" "2 4" --listing
        same "$tr" "2 3" --count
        for w in --folded --report --timeline --flamegraph; do
            same "$tr" 3 "$w"
        done
    done
    export RVTRACE_PIECE_BYTES=1
    "$RVT_BIN" report "${ELFS[@]}" "$tr" > "$T/rep.0" 2>&1 || echo "exit $?" >> "$T/rep.0"
    "$RVT_BIN" report "${ELFS[@]}" "$tr" --jobs 3 > "$T/rep.3" 2>&1 || echo "exit $?" >> "$T/rep.3"
    cmp "$T/rep.0" "$T/rep.3" || { echo "FAIL: $tr: report --jobs 3 differs"; exit 1; }
}

# $2 sources in the stream, each with index points of its own (--list
# names the source of each point)
points_per_source() {
    local tr=$1 want=$2 got
    "$RVT_BIN" dump "$tr" | grep -o ' SRC=0x[0-9a-f]* ' | sort -u > "$T/srcs"
    [ "$(wc -l < "$T/srcs")" = "$want" ] || { echo "FAIL: $tr: $(cat "$T/srcs") sources"; exit 1; }
    got=$("$RVT_BIN" index --list "$tr" | grep -o " src=[0-9]*$" | sort | uniq -c |
          awk '$1 > 5' | wc -l)
    [ "$got" = "$want" ] || { echo "FAIL: $tr: $got sources with points"; exit 1; }
}

# three harts, ids 0-2, HTM with implicit return, context and timestamps
ELFS=(--elf "$P/privs.elf@src=0" --elf "$P/fptr.elf@src=1" --elf "$P/setjmp.elf@src=2")
"$RVT_BIN" encode --ntrace "$T/privs.rvi" "$T/fptr.rvi" "$T/setjmp.rvi" -o "$T/three.nt" \
    --nt-opt sync=1:0,implicit-return=3,context,timestamps
points_per_source "$T/three.nt" 3
check "$T/three.nt" 0
# one source of them (--src N): cut at that source's points
ELFS=(--elf "$P/fptr.elf@src=1")
same "$T/three.nt" "2 3" --src 1 --json
# an index file beside the stream: its points, the sources from a scan
ELFS=(--elf "$P/privs.elf@src=0" --elf "$P/fptr.elf@src=1" --elf "$P/setjmp.elf@src=2")
"$RVT_BIN" index "$T/three.nt" > /dev/null
same "$T/three.nt" "2 3" --json
rm -f "$T/three.nt.idx"

# four harts, ids 5-8 (no src 0: one decoder's own errors and its end are
# src 0's all the same), BTM with repeated history, recurse's deep stacks
ELFS=(--elf "$P/privs.elf@src=5" --elf "$P/fptr.elf@src=6" --elf "$P/setjmp.elf@src=7"
      --elf "$P/recurse.elf@src=8")
"$RVT_BIN" encode --ntrace "$T/privs.rvi" "$T/fptr.rvi" "$T/setjmp.rvi" "$T/recurse.rvi" \
    -o "$T/four.nt" --nt-opt btm,repeat-history,sync=1:0 --nt-src 4:5
points_per_source "$T/four.nt" 4
check "$T/four.nt" 1

# two harts of one program, one ELF for both (no key, so the outputs can
# walk runs): the pieces send runs of instructions, as one decoder does
ELFS=(--elf "$P/setjmp.elf")
"$RVT_BIN" encode --ntrace "$T/setjmp.rvi" "$T/setjmp.rvi" -o "$T/same.nt" \
    --nt-opt sync=1:0,implicit-return=3
points_per_source "$T/same.nt" 2
# (quick: each writer with one of the two piece sizes, in turn)
j=0
for bytes in 1 ""; do
    export RVTRACE_PIECE_BYTES=$bytes
    w=0
    for o in --json --listing --folded --timeline; do
        if quick_turn $((w++)) "$j" 2; then
            same "$T/same.nt" "2 3" "$o"
        fi
    done
    j=$((j + 1))
done
export RVTRACE_PIECE_BYTES=1

# damaged streams
damaged() {     # name: a copy of $1 with its .attrs, made by the command after
    local src=$1 dst=$2; shift 2
    "$@" < "$src" > "$dst"
    cp "$src.attrs" "$dst.attrs"
    same "$dst" "2 3" --json
    grep -Eq "error|incomplete" "$T/err.0" || { echo "FAIL: $dst: no damage reported"; exit 1; }
    same "$dst" 3 --count
    same "$dst" 3 --folded
}
flip() {        # flip: stdin with the bytes at the offsets given changed
    python3 -c '
import sys
b = bytearray(sys.stdin.buffer.read())
for a in sys.argv[1:]:
    at = int(a) % len(b)
    b[at] ^= 0x5a
sys.stdout.buffer.write(bytes(b))' "$@"
}
# Quick: each stream cut and with junk, and two of the six flips, the
# K-th stream (from 0) flips K + 1 and K + 4: every flip in one stream
k=0
for tr in "$T/three.nt" "$T/four.nt" "$T/same.nt"; do
    case $tr in
    *three.nt) ELFS=(--elf "$P/privs.elf@src=0" --elf "$P/fptr.elf@src=1" --elf "$P/setjmp.elf@src=2") ;;
    *four.nt) ELFS=(--elf "$P/privs.elf@src=5" --elf "$P/fptr.elf@src=6" --elf "$P/setjmp.elf@src=7"
                    --elf "$P/recurse.elf@src=8") ;;
    *) ELFS=(--elf "$P/setjmp.elf") ;;
    esac
    size=$(stat -c %s "$tr")
    damaged "$tr" "$tr.cut.nt" head -c $((size * 2 / 3))
    damaged "$tr" "$tr.junk.nt" bash -c 'printf "\x01\x02"; cat; printf "\x07\x03"'
    for f in 1 2 3 4 5 6; do
        quick_turn $k $(((f - 1) % 3)) 3 || continue
        damaged "$tr" "$tr.bad$f.nt" flip $((size * f / 7)) $((size * f / 7 + 5003 * f))
    done
    k=$((k + 1))
done
echo "decode --jobs, several sources: outputs identical"
