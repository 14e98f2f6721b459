#!/bin/bash
# report --flamegraph / --speedscope (issue #17 "Flame graphs") on
# recurse.elf's E-Trace stream.  The SVG parses as XML; it has one box per
# distinct call path, the root "all" as wide as every instruction retired;
# a box's callees fit inside it (their instructions add up to at most its
# own, the rest being its self count) and every box is as wide as its
# share; self counts add up to the instructions retired.  It carries its
# script (zoom) and fetches nothing.  The speedscope file has the fields
# the file-format schema requires, frame indices in range, and weights
# adding up to endValue, the instructions retired.
set -eu
command -v python3 >/dev/null 2>&1 || { echo "SKIP: no python3"; exit 77; }
P="$RVT_SRC/programs/recurse.elf"
T="$RVT_TMP/report_flamegraph"; rm -rf "$T"; mkdir -p "$T"
"$RVT_BIN" run "$P" --quiet --etrace "$T/r.te" --pcs-retired "$T/r.pcs" > /dev/null
retired=$(wc -l < "$T/r.pcs")
"$RVT_BIN" report --elf "$P" "$T/r.te" --no-report --flamegraph "$T/fg.svg" --speedscope "$T/ss.json"
python3 - "$T/fg.svg" "$T/ss.json" "$retired" <<'PY'
import json, sys, xml.etree.ElementTree as ET
svg, ss, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
NS = "{http://www.w3.org/2000/svg}"
root = ET.parse(svg).getroot()
assert root.tag == NS + "svg", root.tag
assert int(root.get("data-total")) == n, root.get("data-total")
text = open(svg).read()
assert "http://" not in text.replace('xmlns="http://www.w3.org/2000/svg"', ""), "refers to the network"
assert "https://" not in text, "refers to the network"
assert root.find(NS + "script") is not None and "zoom" in root.find(NS + "script").text
frames = [g for g in root.iter(NS + "g") if g.get("class") == "f"]
W = float(root.get("width")) - 20
boxes = []
for g in frames:
    x, v, d = int(g.get("data-x")), int(g.get("data-v")), int(g.get("data-d"))
    r = g.find(NS + "rect")
    assert abs(float(r.get("width")) - v / n * W) < 0.01, (g.get("data-n"), r.get("width"), v)
    assert abs(float(r.get("x")) - 10 - x / n * W) < 0.01
    assert g.find(NS + "title").text.startswith(g.get("data-n") + " (")
    boxes.append((d, x, v, g.get("data-n")))
roots = [b for b in boxes if b[0] == 0]
assert roots == [(0, 0, n, "all")], roots
self_total = 0
for d, x, v, name in boxes:
    kids = [b for b in boxes if b[0] == d + 1 and x <= b[1] and b[1] + b[2] <= x + v]
    inside = sum(b[2] for b in kids)
    assert inside <= v, (name, inside, v)
    self_total += v - inside
assert self_total == n, (self_total, n)
# speedscope: https://www.speedscope.app/file-format-schema.json
d = json.load(open(ss))
assert d["$schema"] == "https://www.speedscope.app/file-format-schema.json"
frames = d["shared"]["frames"]
assert all("name" in f for f in frames)
assert d["profiles"], "no profile"
for p in d["profiles"]:
    for k in ("type", "name", "unit", "startValue", "endValue", "samples", "weights"):
        assert k in p, k
    assert p["type"] == "sampled" and p["unit"] in ("none", "nanoseconds", "microseconds", "milliseconds",
                                                     "seconds", "bytes")
    assert len(p["samples"]) == len(p["weights"])
    assert all(0 <= i < len(frames) for s in p["samples"] for i in s)
    assert sum(p["weights"]) == p["endValue"] - p["startValue"]
assert d["profiles"][0]["endValue"] == n
fib = [i for i, f in enumerate(frames) if f["name"] == "fib"][0]
leaf_fib = sum(w for s, w in zip(d["profiles"][0]["samples"], d["profiles"][0]["weights"]) if s[-1] == fib)
print("flamegraph: %d boxes; speedscope: %d frames, %d samples, fib self %d" %
      (len(boxes), len(frames), len(d["profiles"][0]["samples"]), leaf_fib))
PY
