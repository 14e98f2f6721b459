#!/bin/bash
# One JSON convention for every --json output (issue #13 item 10,
# docs/formats.md): each object parses and names its kind; addresses and
# PCs are "0x..." strings (N-Trace FADDR/UADDR too); asm has no tab.
set -u
: "${RVT_SRC:?}" "${RVT_BIN:?}" "${RVT_TMP:?}"
command -v python3 >/dev/null || { echo "no python3: skipped"; exit 77; }
t="$RVT_TMP/json_convention"
rm -rf "$t"; mkdir -p "$t"
P=$RVT_SRC/programs/sort.elf
"$RVT_BIN" run "$P" --quiet --max-instr 20000 --etrace "$t/s.te" --te-data --ntrace "$t/s.nt" \
    --ingress "$t/s.rvi" --tv "$t/s.tvt" >/dev/null 2>&1
[ -s "$t/s.te" ] && [ -s "$t/s.nt" ] || { echo "FAIL run"; exit 1; }
"$RVT_BIN" dump --json "$t/s.te" >"$t/te.json"
"$RVT_BIN" dump --json --addresses "$t/s.nt" >"$t/nt.json"
"$RVT_BIN" dump --json "$t/s.rvi" >"$t/rvi.json"
"$RVT_BIN" dump --json "$t/s.tvt" >"$t/tvt.json" 2>/dev/null
"$RVT_BIN" decode --json --elf "$P" "$t/s.te" >"$t/dte.json" 2>/dev/null
"$RVT_BIN" decode --json --elf "$P" "$t/s.nt" >"$t/dnt.json" 2>/dev/null
python3 - "$t" <<'PY'
import json, sys
t = sys.argv[1]
kinds = {"te.json": "msg", "nt.json": "msg", "rvi.json": "kind", "tvt.json": "op",
         "dte.json": "event", "dnt.json": "event"}
addr_keys = {"pc", "address", "FADDR", "UADDR", "iaddr", "addr"}
bad = 0
for name, kind in kinds.items():
    n = 0
    for line in open(f"{t}/{name}"):
        o = json.loads(line)
        n += 1
        if kind not in o:
            print(f"FAIL {name}: no {kind!r} in {line.strip()}"); bad += 1; break
        for k in addr_keys & o.keys():
            v = o[k]
            if not (isinstance(v, str) and v.startswith("0x")):
                print(f"FAIL {name}: {k} is not a hex string in {line.strip()}"); bad += 1; break
        if "\t" in o.get("asm", ""):
            print(f"FAIL {name}: tab in asm: {line.strip()}"); bad += 1; break
        if name == "te.json" and o.get("msg") == "te_inst" and "name" not in o:
            print(f"FAIL {name}: te_inst without its packet name"); bad += 1; break
    if n == 0:
        print(f"FAIL {name}: empty"); bad += 1
    elif not bad:
        print(f"ok   {name}: {n} objects")
sys.exit(1 if bad else 0)
PY
