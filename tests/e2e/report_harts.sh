#!/bin/bash
# One call stack per hart (issue #17: profiles and timelines "per hart"):
# two harts running programs/recurse.elf in one N-Trace stream (SRC 0 and
# 1, merged by record time by `encode --ntrace A.rvi B.rvi`).  The second
# hart retires 3 instructions a cycle, the first 1, so in the merged stream
# their messages interleave while they are at different depths.  Decoded
# together, the folded stacks must be the sum of each hart's own (decoded
# alone with --src), the report's per-function counts the sum of each
# hart's report, and each hart's timeline slices (tid = SRC) the same
# sequence as when that hart is decoded alone.  (An encapsulated E-Trace
# stream's sources are decoded one after another, not interleaved.)
set -u
: "${RVT_SRC:?}" "${RVT_BIN:?}" "${RVT_TMP:?}"
command -v python3 >/dev/null || { echo "no python3: skipped"; exit 77; }
P="$RVT_SRC/programs/recurse.elf"
[ -f "$P" ] || { echo "no programs/recurse.elf: skipped"; exit 77; }
T="$RVT_TMP/report_harts"; rm -rf "$T"; mkdir -p "$T"
fail=0
bad() { echo "FAIL: $*"; fail=1; }
"$RVT_BIN" run "$P" --quiet --ingress "$T/a.rvi" >/dev/null || bad "run a"
"$RVT_BIN" run "$P" --quiet --retire-width 3 --ingress "$T/b.rvi" >/dev/null || bad "run b"
"$RVT_BIN" encode --ntrace "$T/a.rvi" "$T/b.rvi" -o "$T/two.nt" || bad "encode"

for s in 0 1 all; do
    sel=(); [ $s = all ] || sel=(--src $s)
    "$RVT_BIN" decode --elf "$P" "$T/two.nt" "${sel[@]}" --folded >"$T/$s.folded" 2>/dev/null || bad "folded $s"
    "$RVT_BIN" report --elf "$P" "$T/two.nt" "${sel[@]}" --json --timeline "$T/$s.tl.json" >"$T/$s.rep.json" \
        2>/dev/null || bad "report $s"
done
python3 "$RVT_SRC/tests/e2e/stacks_per_hart.py" "$T/all.folded" "$T/0.folded" "$T/1.folded" || bad "folded stacks"
python3 - "$T" <<'PY' || bad "report or timeline"
import json, sys
t = sys.argv[1]
rep = {s: json.load(open("%s/%s.rep.json" % (t, s))) for s in ("0", "1", "all")}
for f in rep["all"]["functions"]:
    for key in ("self", "children", "calls"):
        want = sum(g[key] for s in ("0", "1") for g in rep[s]["functions"] if g["name"] == f["name"])
        assert f[key] == want, ("report", f["name"], key, f[key], want)
def slices(path, tid):
    return [(e["ph"], e["name"]) for e in json.load(open(path))["traceEvents"]
            if e.get("tid") == tid and e["ph"] in "BE"]
for s in (0, 1):
    alone, both = slices("%s/%d.tl.json" % (t, s), s), slices("%s/all.tl.json" % t, s)
    assert alone and alone == both, ("timeline tid %d: %d slice edges, %d alone" % (s, len(both), len(alone)))
print("report and timeline: each hart its own stack")
PY
[ $fail = 0 ] && echo "two harts in one trace: one call stack each"
exit $fail
