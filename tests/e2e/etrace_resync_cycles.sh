#!/bin/bash
# E-Trace table 2.1 ResyncMode 2 (count clock cycles): with an interval of
# 256 cycles every format 3 sync after the first comes no sooner than 256
# cycles after the previous one (8.2: once the timer is exceeded) and, in
# delta mode where any instruction can take the sync, within a few cycles
# of it.  The 2.0 layout's time field (notime=0) carries the hart's cycle
# count, so the dump shows when each sync was sent.  The trace decodes to
# the hart's PCs.
set -eu
P="$RVT_SRC/programs/sort.elf"
T="$RVT_TMP/te_cycles"; mkdir -p "$T"
"$RVT_BIN" run "$P" --quiet --pcs-retired "$T/hart.pcs" --etrace "$T/c.te" \
    --te-attr version=2.0 --te-attr resync_mode=cycles --te-attr resync_interval=256 \
    --te-attr notime=0 --te-attr time_width=32 > /dev/null
"$RVT_BIN" decode --elf "$P" "$T/c.te" --pcs "$T/dec.pcs"
cmp "$T/hart.pcs" "$T/dec.pcs"
"$RVT_BIN" dump "$T/c.te" | sed -n 's/.*subformat=0 (sync).* time=\([0-9]*\) .*/\1/p' > "$T/times"
n=$(wc -l < "$T/times")
awk 'NR > 1 { d = $1 - p; if (d < 256 || d > 264) { print "sync gap " d " cycles at sync " NR; bad = 1 } }
     { p = $1 } END { exit bad }' "$T/times"
# sort retires ~250 000 instructions in about as many cycles: ~980 syncs.
[ "$n" -gt 900 ] || { echo "only $n syncs"; exit 1; }
echo "resync by cycles: ok ($n syncs)"
