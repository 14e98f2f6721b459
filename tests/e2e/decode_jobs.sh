#!/bin/bash
# decode --jobs N (docs/parallel.md): every output the same, byte for byte,
# as one decoder's, for E-Trace and N-Trace streams with periodic sync
# (so there are pieces), several programs and mode sets.
# RVTRACE_PIECE_BYTES=1 cuts at every index point: every boundary is one.
set -eu
T="$RVT_TMP/decode_jobs"; rm -rf "$T"; mkdir -p "$T"
PROGS="privs fptr setjmp coswap farcall ecall"
export RVTRACE_PIECE_BYTES=1

# decode with the given options, once alone and with --jobs N for each N
# of the list: every output the same (lib/jobs_same.sh)
. "${RVT_SRC:?}/tests/e2e/lib/jobs_same.sh"
. "$RVT_SRC/tests/e2e/lib/quick.sh"
same() {
    local elf=$1 tr=$2 jobs=$3; shift 3
    jobs_same "$T" "$jobs" --elf "$elf" "$tr" "$@"
}
# the PC lists alone (--pcs, --pcs-bin): the pieces write them; with a
# hold of one byte every piece but the head waits for its turn at its
# first write (RVTRACE_PCL_HOLD, jobs_pcl.h)
pcl_same() {
    local elf=$1 tr=$2 jobs=$3; shift 3
    jobs_pcl_same "$T" "$jobs" --elf "$elf" "$tr" "$@"
    RVTRACE_PCL_HOLD=1 jobs_pcl_same "$T" "$jobs" --elf "$elf" "$tr" "$@"
}

check() {      # elf trace min-points: every stdout writer and --count
    local elf=$1 tr=$2 min=$3 pts
    pts=$("$RVT_BIN" index "$tr" | awk '{print $1}')
    [ "$pts" -ge "$min" ] || { echo "FAIL: $tr: only $pts index points"; exit 1; }
    same "$elf" "$tr" "1 2 3" --json
    same "$elf" "$tr" 3 --listing
    same "$elf" "$tr" 3 --folded
    same "$elf" "$tr" 3 --count
    pcl_same "$elf" "$tr" "1 2 3"
    pcl_same "$elf" "$tr" 2 --count
    rm -f "$tr.idx"                   # indexed in memory this time
    same "$elf" "$tr" 2 --listing
    pcl_same "$elf" "$tr" 3
    for n in 1 2; do
        local j=(); [ "$n" = 1 ] || j=(--jobs "$n")
        "$RVT_BIN" report --elf "$elf" "$tr" "${j[@]}" > "$T/rep.$n" 2>&1 || echo "exit $?" >> "$T/rep.$n"
    done
    cmp "$T/rep.1" "$T/rep.2" || { echo "FAIL: $tr: report differs"; exit 1; }
}

# Every program with every mode set; quick (lib/quick.sh), program k with
# E-Trace set k mod 4 and N-Trace set k mod 3 (privs: sets 1 and 5, which
# the damaged streams below take): each program and each set once.
k=0
for p in $PROGS; do
    elf="$RVT_SRC/programs/$p.elf"
    i=0
    # implicit exception (3.2.3) keeps what traps taught the decoder
    # across syncs: fewer points (docs/parallel.md), the same output
    for te in "--te-attr resync_max=4:3" \
              "--te-opt implicit-return,branch-prediction,jump-target-cache,sijump,resync-max=4:3" \
              "--te-profile refflow --te-attr resync_max=4:3" "--te-opt all,resync-max=4:1"; do
        i=$((i + 1))
        quick_turn $k $((i - 1)) 4 || continue
        # shellcheck disable=SC2086
        "$RVT_BIN" run "$elf" --quiet --etrace "$T/$p.$i.te" ${te%:*} > /dev/null || true
        check "$elf" "$T/$p.$i.te" "${te##*:}"
    done
    for nt in "sync=1:0" "sync=1:0,implicit-return=3,context,timestamps" "sync=1:1,btm,repeat-history,seq-jump"; do
        i=$((i + 1))
        quick_turn $k $((i - 5)) 3 || continue
        "$RVT_BIN" run "$elf" --quiet --ntrace "$T/$p.$i.nt" --nt-opt "$nt" > /dev/null || true
        check "$elf" "$T/$p.$i.nt" 3
    done
    k=$((k + 1))
done
# damaged streams: the same errors at the same offsets, the same exit
# status (the errors travel with the pieces' events)
for tr in "$T/privs.1.te" "$T/privs.5.nt"; do
    cp "$tr" "$tr.bad.${tr##*.}"; cp "$tr.attrs" "$tr.bad.${tr##*.}.attrs"
    size=$(stat -c %s "$tr")
    for at in $((size / 5)) $((size / 2)) $((size * 3 / 4)); do
        printf '\x5a\xa5' | dd of="$tr.bad.${tr##*.}" bs=1 seek="$at" conv=notrunc 2> /dev/null
    done
    same "$RVT_SRC/programs/privs.elf" "$tr.bad.${tr##*.}" "2 3" --listing
    grep -q "error" "$T/err.0" || { echo "FAIL: $tr.bad: no error reported"; exit 1; }
    pcl_same "$RVT_SRC/programs/privs.elf" "$tr.bad.${tr##*.}" "2 3"
    # counting pieces (decoders counting, fed up to the cut) read the
    # damage as one decoder does too
    same "$RVT_SRC/programs/privs.elf" "$tr.bad.${tr##*.}" "2 3" --count
done
# bytes that are no trace (an ELF's code): the frames found, the bad ones
# resynchronised over byte by byte across the pieces' cuts, as one decoder
for k in te nt; do
    tail -c +4097 "$RVT_SRC/programs/sort.elf" | head -c 6000 > "$T/junk.$k"
    same "$RVT_SRC/programs/privs.elf" "$T/junk.$k" "2 3" --json
    pcl_same "$RVT_SRC/programs/privs.elf" "$T/junk.$k" "2 3"
    same "$RVT_SRC/programs/privs.elf" "$T/junk.$k" "2 3" --count
done

# an encapsulated stream (unwrapped, indexed in memory) and a stream of
# two sources (each cut at its own points, merged: decode_jobs_sources.sh)
PR="$RVT_SRC/programs/privs.elf" FP="$RVT_SRC/programs/fptr.elf"
"$RVT_BIN" run "$PR" --quiet --ingress "$T/p.rvi" > /dev/null
"$RVT_BIN" run "$FP" --quiet --ingress "$T/f.rvi" > /dev/null
"$RVT_BIN" encode --etrace "$T/p.rvi" -o "$T/e.te" --te-attr resync_max=4 --container encap \
    --encap-sync-interval 512
same "$PR" "$T/e.te" "2 3" --json
pcl_same "$PR" "$T/e.te" "2 3"
grep -q "container encap" "$T/err.2" || { echo "FAIL: e.te not read as encap"; exit 1; }
"$RVT_BIN" encode --ntrace "$T/p.rvi" "$T/f.rvi" -o "$T/two.nt" --nt-opt sync=1:0
same "$PR@src=0" "$T/two.nt" "2 3" --elf "$FP@src=1" --json
pcl_same "$PR" "$T/two.nt" "2 3" --elf "$FP"     # merged by offset: on the tapes
pcl_same "$PR" "$T/two.nt" "2 3" --src 1
# two harts' encapsulated E-Trace streams in one (srcID 1 and 2, packets
# interleaved as a funnel would, Encapsulation 2.1.2): each source's
# stream is cut at its own points, its events carry its srcID, the
# sources come one after the other as from one decoder
for p in privs fptr; do
    "$RVT_BIN" encode --etrace "$T/${p:0:1}.rvi" -o "$T/$p.enc.te" --te-attr resync_max=4 \
        --container encap --encap-src-bits 8 --encap-src-id $([ $p = privs ] && echo 1 || echo 2)
done
python3 "$RVT_SRC/tests/e2e/encap_mix.py" 1 0 "$T/privs.enc.te" "$T/fptr.enc.te" "$T/two.te"
cp "$T/privs.enc.te.attrs" "$T/two.te.attrs"
same "$PR@src=1" "$T/two.te" "1 2 3" --elf "$FP@src=2" --json
same "$PR@src=1" "$T/two.te" 3 --elf "$FP@src=2" --count
grep -q "^srcID 2: [1-9][0-9]* instructions" "$T/out.3" || { echo "FAIL: two.te --count: $(cat "$T/out.3")"; exit 1; }
same "$FP" "$T/two.te" "2 3" --src 2 --listing
# both images for both sources: privs' source decodes with errors (fptr's
# code shadows some of its addresses), fptr's cleanly; each source's loss
# summary is its own, named by srcID, with --jobs as with one decoder
same "$PR" "$T/two.te" "2 3" --elf "$FP" --count
grep -q "srcID 1: [1-9][0-9,]* decode errors" "$T/err.0" || { echo "FAIL: two.te: no srcID 1 summary"; exit 1; }
if grep -q "srcID 2: .*decode error" "$T/err.0"; then echo "FAIL: two.te: srcID 2 has no errors"; exit 1; fi
# the PC lists of two sources (one program traced twice, srcID 1 and 2:
# one image for both), one source after the other, each source's pieces
# writing their parts into the same lists
"$RVT_BIN" encode --etrace "$T/p.rvi" -o "$T/p2.enc.te" --te-attr resync_max=4 \
    --container encap --encap-src-bits 8 --encap-src-id 2
python3 "$RVT_SRC/tests/e2e/encap_mix.py" 1 0 "$T/privs.enc.te" "$T/p2.enc.te" "$T/pp.te"
cp "$T/privs.enc.te.attrs" "$T/pp.te.attrs"
pcl_same "$PR" "$T/pp.te" "2 3" --count
grep -q "^srcID 2: [1-9][0-9]* instructions" "$T/out.3" || { echo "FAIL: pp.te --count: $(cat "$T/out.3")"; exit 1; }
set +e
"$RVT_BIN" decode --elf "$PR@src=1" --elf "$FP@src=2" "$T/two.te" --range 0:1 --count > /dev/null 2> "$T/err"
rc=$?
set -e
[ $rc = 2 ] && grep -q "range.*per source" "$T/err" || { echo "FAIL: --range on two sources: $rc"; exit 1; }
# cuts inside deep call chains: recurse.elf calls itself 4,002 deep (past
# the 1,024 frames a stack names), its pieces start and end inside the
# chain; the stack-following writers and the report (text, JSON, callers)
# at several N, with a piece at every point and with longer pieces
RC="$RVT_SRC/programs/recurse.elf"
"$RVT_BIN" run "$RC" --quiet --etrace "$T/deep.te" --te-attr resync_max=4 --ntrace "$T/deep.nt" \
    --nt-opt sync=1:0 > /dev/null
# (quick: deep.te with a piece at every point, deep.nt with the longer)
k=0
for tr in "$T/deep.te" "$T/deep.nt"; do
    j=0
    for bytes in 1 3000; do
        quick_turn $k $((j++)) 2 || continue
        export RVTRACE_PIECE_BYTES=$bytes
        for w in --folded --report --flamegraph --speedscope --timeline; do
            same "$RC" "$tr" "2 3" "$w"
        done
        pcl_same "$RC" "$tr" "2 3"
        grep -q "deepest 4002" <("$RVT_BIN" decode --elf "$RC" "$tr" --folded --jobs 3) ||
            { echo "FAIL: $tr: not deeper than 1,024 frames"; exit 1; }
        for r in "" "--json" "--callers deep" "--sort self"; do
            # shellcheck disable=SC2086
            "$RVT_BIN" report --elf "$RC" "$tr" $r > "$T/rep.0"
            for n in 1 2 3; do
                # shellcheck disable=SC2086
                "$RVT_BIN" report --elf "$RC" "$tr" $r --jobs $n > "$T/rep.$n"
                cmp "$T/rep.0" "$T/rep.$n" || { echo "FAIL: $tr: report $r --jobs $n differs"; exit 1; }
            done
        done
    done
    k=$((k + 1))
done
export RVTRACE_PIECE_BYTES=1
# I-CNTs wider than rvtIcntBits (8.4.4), noted with their count and the
# first one's offset: one decoder's, although the sync message at a cut
# and the message after it are read by two pieces' decoders
for w in --json --count; do
    same "$RC" "$T/deep.nt" "2 3" --nt-opt icnt-bits=4 "$w"
    grep -q "I-CNT wider than rvtIcntBits=4 (8.4.4) in [1-9][0-9]* message" "$T/err.0" ||
        { echo "FAIL: deep.nt icnt-bits=4: no note: $(cat "$T/err.0")"; exit 1; }
done
echo "decode --jobs: outputs identical"
