#!/bin/bash
# rvtrace index holds a bounded resident set whatever the trace's size
# (issue #18 "Memory stays bounded"): the scan is one forward pass over the
# mapped file and gives the pages it has passed back (madvise DONTNEED,
# docs/parallel.md), so indexing a 96 MiB stream (an E-Trace run with
# periodic sync, repeated) peaks far below the file's size, for E-Trace and
# N-Trace.
set -eu
: "${RVT_SRC:?}" "${RVT_BIN:?}" "${RVT_TMP:?}"
command -v python3 > /dev/null || { echo "no python3: skipped"; exit 77; }
T="$RVT_TMP/index_rss"; rm -rf "$T"; mkdir -p "$T"
P="$RVT_SRC/programs/crc.elf"
"$RVT_BIN" run "$P" --quiet --etrace "$T/one.te" --te-opt full-address --te-attr resync_max=1 > /dev/null
"$RVT_BIN" run "$P" --quiet --ntrace "$T/one.nt" --nt-opt sync=1:0 > /dev/null
MIB=96
# peak_rss TRACE OUT: the peak RSS (KiB) of `rvtrace index` on TRACE, its
# stdout to OUT (getrusage of the child alone)
peak_rss() {
    python3 - "$RVT_BIN" "$1" "$2" <<'PY'
import resource, subprocess, sys
with open(sys.argv[3], "wb") as out:
    subprocess.run([sys.argv[1], "index", "--min-gap", "1M", "--list", sys.argv[2]],
                   stdout=out, check=True)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
PY
}
for k in te nt; do
    python3 - "$T/one.$k" "$T/big.$k" $MIB <<'PY'
import sys
one = open(sys.argv[1], "rb").read()
with open(sys.argv[2], "wb") as f:
    for _ in range(-(-(int(sys.argv[3]) << 20) // len(one))):
        f.write(one)
PY
    cp "$T/one.$k.attrs" "$T/big.$k.attrs"
    # the growth of the resident set with the file: index's peak RSS on the
    # 96 MiB stream less its peak on one copy (the baseline: the program,
    # its libraries, a sanitizer's shadow memory under make asan)
    base=$(peak_rss "$T/one.$k" /dev/null)
    peak=$(peak_rss "$T/big.$k" "$T/big.$k.out")
    grow=$((peak - base))
    echo "index of $MIB MiB ($k): peak RSS $peak KiB, $grow KiB above one copy's $base KiB"
    [ "$grow" -lt $((MIB * 1024 / 4)) ] ||
        { echo "FAIL: big.$k: RSS grew by $grow KiB, a quarter of the file or more"; exit 1; }
    pts=$(tail -1 "$T/big.$k.out" | awk '{print $1}')
    [ "$pts" -ge 90 ] || { echo "FAIL: big.$k: $pts points"; exit 1; }
    # every copy of the run starts with a sync: a point each MiB or so
    sed -n '2p' "$T/big.$k.out" | grep -q '^1 @10[0-9]\{5\} ' ||
        { echo "FAIL: big.$k: second point $(sed -n '2p' "$T/big.$k.out")"; exit 1; }
done
echo "index: bounded RSS"
