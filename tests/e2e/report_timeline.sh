#!/bin/bash
# report --timeline (issue #17 "Timelines"): Chrome trace-event JSON that
# Python's json module loads, with function slices per hart that nest (an
# "E" closes the innermost open "B" of its tid, the same name; none stay
# open), ts never going back on a tid, every trap an instant, privilege
# switches as instants, and the time base named in otherData: the hart's
# cycle count for a run, instructions for an E-Trace stream (the decoder
# has no timestamps), where the last slice ends at the instruction count.
# privs.elf moves between M, S and U with ecalls and illegal instructions;
# the number of exceptions must be the hart's own count.
set -eu
command -v python3 >/dev/null 2>&1 || { echo "SKIP: no python3"; exit 77; }
P="$RVT_SRC/programs/privs.elf"
T="$RVT_TMP/report_timeline"; rm -rf "$T"; mkdir -p "$T"
"$RVT_BIN" report "$P" --no-report --timeline "$T/run.json" --etrace "$T/p.te" > /dev/null 2> "$T/summary"
traps=$(sed -n 's/.* retired, \([0-9,]*\) exceptions, .*/\1/p' "$T/summary" | tr -d ,)
[ -n "$traps" ] || { echo "FAIL: no run summary: $(cat "$T/summary")"; exit 1; }
"$RVT_BIN" report --elf "$P" "$T/p.te" --no-report --timeline "$T/te.json"
check() {
python3 - "$1" "$2" "$3" <<'PY'
import json, sys
path, base, traps = sys.argv[1], sys.argv[2], int(sys.argv[3])
d = json.load(open(path))
evs = d["traceEvents"]
assert d["otherData"]["time_base"] == base, d["otherData"]
open_, last, n = {}, {}, {"B": 0, "E": 0, "i": 0}
priv = 0
for e in evs:
    ph = e["ph"]
    for k in ("ph", "pid", "tid", "name"):
        assert k in e, (k, e)
    if ph == "M":
        continue
    tid, ts = e["tid"], e["ts"]
    assert isinstance(ts, int) and ts >= last.get(tid, 0), ("ts goes back", e)
    last[tid] = ts
    n[ph] += 1
    st = open_.setdefault(tid, [])
    if ph == "B":
        st.append(e["name"])
    elif ph == "E":
        assert st and st[-1] == e["name"], ("E does not close the innermost B", e, st[-3:])
        st.pop()
    elif ph == "i":
        assert e["s"] == "t"
        priv += e["name"] == "privilege"
    else:
        raise AssertionError("phase " + ph)
assert all(not s for s in open_.values()), "slices left open"
assert sum(1 for e in evs if e["ph"] == "i" and e["name"] == "exception") == traps, "trap instants"
assert priv > 2, "no privilege switches"
if base == "instructions":
    assert max(last.values()) == d["otherData"]["instructions"]
print("%s: %d slices, %d instants (%d traps, %d privilege switches), time base %s" %
      (path.rsplit("/", 1)[-1], n["B"], n["i"], traps, priv, base))
PY
}
check "$T/run.json" timestamps "$traps"
check "$T/te.json" instructions "$traps"
