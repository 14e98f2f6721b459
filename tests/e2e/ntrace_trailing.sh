#!/usr/bin/env bash
# Issue #7: `rvtrace decode` of an N-Trace stream with bytes after its last
# complete message.  N-Trace 3.1: a message ends with MSEO 11; only 0xFF
# bytes (MSEO 11 + MDO 111111) are idle between or after messages.  So a
# partial message (MSEO 00/01 bytes with no MSEO 11 end), a lone MSEO 11 byte
# that is not 0xFF, or MSEO 10 (reserved) after the last message is damage:
# decode must exit 1 with "FILE: offset N: error:" where N is the first
# junk byte (the E-Trace decoder's wording), while 0xFF padding decodes
# cleanly (exit 0, same instructions as without it).
set -u
: "${RVT_BIN:?}" "${RVT_SRC:?}" "${RVT_TMP:?}"
T="$RVT_TMP/ntrace_trailing"
rm -rf "$T"; mkdir -p "$T"
elf="$RVT_SRC/programs/sort.elf"
[ -f "$elf" ] || { echo "SKIP: no $elf"; exit 77; }
"$RVT_BIN" run "$elf" --max-instr 3000 --ntrace "$T/g.nt" >/dev/null 2>&1
[ -s "$T/g.nt" ] || { echo "FAIL: run wrote no stream"; exit 1; }
"$RVT_BIN" decode --elf "$elf" "$T/g.nt" --pcs "$T/g.pcs" || { echo "FAIL: pristine decode"; exit 1; }
n=$(stat -c %s "$T/g.nt")
fails=0 cases=0

# case LABEL EXPECT(0|1) BYTES(printf escapes) [IDLE BYTES BEFORE THE JUNK]
case_() {
  local label=$1 want=$2 bytes=$3 at=$((n + ${4:-0})) f="$T/j.nt"
  cases=$((cases + 1))
  cp "$T/g.nt" "$f"; cp "$T/g.nt.attrs" "$f.attrs"
  printf "$bytes" >>"$f"
  "$RVT_BIN" decode --elf "$elf" "$f" --pcs "$T/j.pcs" 2>"$T/err"
  local rc=$?
  if [ "$rc" != "$want" ]; then
    echo "FAIL: $label: exit $rc, want $want"; sed 's/^/    /' "$T/err"; fails=$((fails + 1)); return
  fi
  if [ "$want" = 1 ] && ! grep -qF "$f: offset $at: error:" "$T/err"; then
    echo "FAIL: $label: no '$f: offset $at: error:' in:"; sed 's/^/    /' "$T/err"; fails=$((fails + 1)); return
  fi
  if ! cmp -s "$T/g.pcs" "$T/j.pcs"; then
    echo "FAIL: $label: the instructions before the junk differ"; fails=$((fails + 1))
  fi
}

case_ "idle padding"                 0 '\xff\xff\xff\xff\xff\xff\xff\xff'
case_ "partial message"              1 '\x00\x04'
case_ "one MSEO-00 byte"             1 '\x00'
case_ "variable-field end, no end"   1 '\x00\x05'
case_ "MSEO 11 outside a message"    1 '\x03'
case_ "MSEO 01 outside a message"    1 '\x01'
case_ "reserved MSEO 10"             1 '\x02'
case_ "idle, then a partial message" 1 '\xff\xff\x00\x04\x04' 2
echo "ntrace_trailing: $cases cases, $fails failures"
[ $fails -eq 0 ]
