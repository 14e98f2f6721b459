#!/bin/bash
# E-Trace time in report and --timeline (issue #17: "timestamps ... turned
# into time where the trace has them (E-Trace time ...)").  Two ways an
# E-Trace stream carries time: the 2.0 layout's format 3 time field
# (notime=0, 7.3 Timestamping) and the encapsulation's timestamps
# (Encapsulation 1.0 2.1.1).  Either way the report's cycles are the last
# time minus the first (read independently: from the packet dump, or from
# the hart's records), and the timeline's time base is the timestamps.
set -u
: "${RVT_SRC:?}" "${RVT_BIN:?}" "${RVT_TMP:?}"
command -v python3 >/dev/null || { echo "no python3: skipped"; exit 77; }
P="$RVT_SRC/programs/sort.elf"
[ -f "$P" ] || { echo "no programs/sort.elf: skipped"; exit 77; }
T="$RVT_TMP/report_etrace_time"; rm -rf "$T"; mkdir -p "$T"
fail=0
bad() { echo "FAIL: $*"; fail=1; }
"$RVT_BIN" run "$P" --quiet --ingress "$T/s.rvi" --etrace "$T/f.te" --te-attr version=2.0 \
    --te-attr resync_mode=cycles --te-attr resync_interval=4096 --te-attr notime=0 \
    --te-attr time_width=64 >/dev/null || bad "run"
"$RVT_BIN" encode --etrace "$T/s.rvi" -o "$T/e.te" --container encap --encap-src-bits 0 \
    --encap-ts-bytes 4 || bad "encode encap"

# the expected span: time fields of the dump's format 3 packets; the hart's record times
"$RVT_BIN" dump "$T/f.te" | sed -n 's/.*format=3 .* time=\([0-9]*\).*/\1/p' >"$T/f.times"
"$RVT_BIN" dump "$T/s.rvi" | sed -n 's/^blk .* time=\([0-9]*\) .*/\1/p' >"$T/e.times"

for s in f e; do
    [ -s "$T/$s.times" ] || { bad "$s: no times in the dump"; continue; }
    want=$(( $(tail -1 "$T/$s.times") - $(head -1 "$T/$s.times") ))
    "$RVT_BIN" report --elf "$P" "$T/$s.te" >"$T/$s.rep" 2>"$T/$s.err" || bad "$s: report: $(cat "$T/$s.err")"
    got=$(sed -n 's/.* instructions in .* functions; \([0-9,]*\) cycles from the first timestamp to the last$/\1/p' \
          "$T/$s.rep" | tr -d ,)
    [ "$got" = "$want" ] || bad "$s: report says '$got' cycles, the times span $want"
    grep -q "Self cycles" "$T/$s.rep" || bad "$s: no cycles columns"
    "$RVT_BIN" report --elf "$P" "$T/$s.te" --no-report --timeline "$T/$s.json" 2>/dev/null || bad "$s: timeline"
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["otherData"]["time_base"]=="timestamps", d["otherData"]' \
        "$T/$s.json" || bad "$s: timeline time base is not the timestamps"
done
[ $fail = 0 ] && echo "E-Trace time fields and encapsulation timestamps reach report and timeline"
exit $fail
