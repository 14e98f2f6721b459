#!/bin/bash
# decode --folded: call stacks with instruction counts (docs/formats.md).
# recurse.elf (programs/src/recurse.c) calls hanoi(12), which nests down to
# hanoi(0): 13 hanoi frames at most; deep(4000) nests 4001 frames, more
# than the 1024 frames a stack keeps (_start, main and 1022 deep callers,
# then the leaf); the output says so in a final comment line: the deepest
# stack is _start, main and 4000 deep callers of deep(0), 4002 frames.
# Both decoders must give the same stacks, and the counts
# must add up to the instructions the hart retired.
set -eu
P="$RVT_SRC/programs/recurse.elf"
T="$RVT_TMP/folded"; mkdir -p "$T"
"$RVT_BIN" run "$P" --quiet --etrace "$T/r.te" --te-opt all --ntrace "$T/r.nt" \
    --pcs-retired "$T/r.pcs" > /dev/null
"$RVT_BIN" decode --elf "$P" "$T/r.te" --folded > "$T/te.folded"
"$RVT_BIN" decode --elf "$P" "$T/r.nt" --folded > "$T/nt.folded"
cmp "$T/te.folded" "$T/nt.folded" || { echo "E-Trace and N-Trace stacks differ"; exit 1; }
sum=$(awk '{s += $NF} END {print s}' "$T/te.folded")
want=$(wc -l < "$T/r.pcs")
[ "$sum" -eq "$want" ] || { echo "counts add up to $sum, hart retired $want"; exit 1; }
# _start calls main, then jumps (no call) to rt_exit: the only roots.
bad=$(grep -Evc '^(_start|rt_exit)[; ]|^# ' "$T/te.folded" || true)
[ "$bad" -eq 0 ] || { echo "$bad stacks start elsewhere than _start/rt_exit"; exit 1; }
longest() {  # the longest run of frame $1 in any stack
    awk -v f="$1" '{ n = split($1, a, ";"); r = 0
        for (i = 1; i <= n; i++) { r = (a[i] == f) ? r + 1 : 0; if (r > m) m = r } }
        END { print m + 0 }' "$T/te.folded"
}
[ "$(longest hanoi)" -eq 13 ] || { echo "hanoi nests $(longest hanoi), expected 13"; exit 1; }
[ "$(longest deep)" -eq 1023 ] || { echo "deep nests $(longest deep), expected 1023"; exit 1; }
tail -1 "$T/te.folded" | grep -q '^# rvtrace: [0-9]* instructions ran deeper than 1024 frames (deepest 4002)' ||
    { echo "no final line about the stacks deeper than 1024 frames: $(tail -1 "$T/te.folded")"; exit 1; }
[ "$(grep -c '^#' "$T/te.folded")" -eq 1 ] || { echo "more than one comment line"; exit 1; }
echo "decode --folded: ok ($(wc -l < "$T/te.folded") stacks, $sum instructions)"
