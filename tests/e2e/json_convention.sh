#!/bin/bash
# One JSON convention for every --json output (issue #13 item 10,
# docs/formats.md "JSON lines"): each line parses as one object whose
# record kind is in "kind", its first key (after "offset" in the dumps);
# every field whose name says address or PC is a "0x..." string; counts and
# offsets are integers; asm has no tab.  Covers decode of .te/.nt and dump
# of .te (te_inst and te_data), .nt (with --addresses, and an error line
# from damaged bytes), .rvi and .tvt.
set -u
: "${RVT_SRC:?}" "${RVT_BIN:?}" "${RVT_TMP:?}"
command -v python3 >/dev/null || { echo "no python3: skipped"; exit 77; }
t="$RVT_TMP/json_convention"
rm -rf "$t"; mkdir -p "$t"
P=$RVT_SRC/programs/sort.elf
"$RVT_BIN" run "$P" --quiet --max-instr 20000 --etrace "$t/s.te" --te-data --ntrace "$t/s.nt" \
    --ingress "$t/s.rvi" --tv "$t/s.tvt" >/dev/null 2>&1
[ -s "$t/s.te" ] && [ -s "$t/s.nt" ] && [ -s "$t/s.rvi" ] && [ -s "$t/s.tvt" ] || { echo "FAIL run"; exit 1; }
# A damaged N-Trace stream: a message whose MSEO ends at once (0x03 as its
# first byte is an end-of-message with no TCODE bits: N-Trace 5.1) after the
# first 64 bytes.
head -c 64 "$t/s.nt" >"$t/bad.nt"; printf '\003\003' >>"$t/bad.nt"; tail -c +65 "$t/s.nt" >>"$t/bad.nt"
cp "$t/s.nt.attrs" "$t/bad.nt.attrs" 2>/dev/null
"$RVT_BIN" dump --json "$t/s.te" >"$t/te.json"
"$RVT_BIN" dump --json --addresses "$t/s.nt" >"$t/nt.json"
"$RVT_BIN" dump --json "$t/bad.nt" >"$t/ntbad.json" 2>/dev/null
"$RVT_BIN" dump --json "$t/s.rvi" >"$t/rvi.json"
"$RVT_BIN" dump --json "$t/s.tvt" >"$t/tvt.json" 2>/dev/null
"$RVT_BIN" decode --json --elf "$P" "$t/s.te" >"$t/dte.json" 2>/dev/null
"$RVT_BIN" decode --json --elf "$P" "$t/s.nt" >"$t/dnt.json" 2>/dev/null
"$RVT_BIN" decode --json --elf "$P" "$t/bad.nt" >"$t/dntbad.json" 2>/dev/null
python3 - "$t" <<'PY'
import json, sys
t = sys.argv[1]
# output: the kinds that must occur in it
outputs = {"te.json": {"te_inst", "te_data"}, "nt.json": {"ProgTraceSync"},
           "ntbad.json": {"error"}, "rvi.json": {"header", "blk", "end"},
           "tvt.json": set(), "dte.json": {"insn", "sync", "end"},
           "dnt.json": {"insn", "sync", "end"}, "dntbad.json": {"insn"}}
old_kind_keys = {"event", "op"}
int_keys = {"offset", "index", "records", "ICNT", "HIST", "off", "cause", "code", "lost", "tcode"}

def is_addr_key(k):
    k = k.lower()
    return "addr" in k or k == "pc" or k.endswith("pc")

bad = 0
def fail(name, why, line):
    global bad
    print(f"FAIL {name}: {why}: {line.strip()}"); bad += 1

for name, want in outputs.items():
    seen = set()
    n = 0
    for line in open(f"{t}/{name}"):
        try:
            o = json.loads(line, object_pairs_hook=lambda p: p)
        except ValueError as e:
            fail(name, f"not JSON ({e})", line); break
        n += 1
        keys = [k for k, _ in o]
        d = dict(o)
        first = keys[1] if keys[:1] == ["offset"] else keys[0] if keys else None
        if first != "kind" or not isinstance(d["kind"], str):
            fail(name, "\"kind\" is not the first key", line); break
        if old_kind_keys & d.keys() or ("msg" in d and d["msg"] in ("te_inst", "te_data")):
            fail(name, "an old kind key", line); break
        seen.add(d["kind"])
        for k, v in o:
            if is_addr_key(k) and not (isinstance(v, str) and v.startswith("0x")):
                fail(name, f"{k} is not a \"0x\" string", line); break
            if k in int_keys and not (isinstance(v, int) and not isinstance(v, bool)):
                fail(name, f"{k} is not an integer", line); break
        if "\t" in d.get("asm", ""):
            fail(name, "tab in asm", line); break
        if d["kind"] == "te_inst" and "name" not in d:
            fail(name, "te_inst without its packet name", line); break
        if bad:
            break
    if n == 0:
        print(f"FAIL {name}: empty"); bad += 1
    elif want - seen:
        print(f"FAIL {name}: no {sorted(want - seen)} among {sorted(seen)}"); bad += 1
    elif not bad:
        print(f"ok   {name}: {n} objects, kinds {len(seen)}")
sys.exit(1 if bad else 0)
PY
