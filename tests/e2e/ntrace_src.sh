#!/usr/bin/env bash
# Issue #13 item 8: `decode --src N` takes a strict number 0..4095 (table 8:
# SRC has at most 12 bits); "abc", "-1", "1x", "" and 4096 are usage errors
# (exit 2), not source 0.  A source the stream never has is an error
# (exit 1, "no message from source N"), not an empty success.
set -u
: "${RVT_BIN:?}" "${RVT_SRC:?}" "${RVT_TMP:?}"
T="$RVT_TMP/ntrace_src"
rm -rf "$T"; mkdir -p "$T"
elf="$RVT_SRC/programs/fptr.elf"
[ -f "$elf" ] || { echo "SKIP: no $elf"; exit 77; }
"$RVT_BIN" run "$elf" --max-instr 2000 --ingress "$T/a.rvi" >/dev/null 2>&1
"$RVT_BIN" encode --ntrace "$T/a.rvi" "$T/a.rvi" -o "$T/m.nt" >/dev/null 2>&1 ||
    { echo "FAIL: encode"; exit 1; }
fails=0
expect() {   # WANT-RC ARGS...
  local want=$1; shift
  "$RVT_BIN" decode --elf "$elf" "$T/m.nt" --count "$@" >"$T/out" 2>"$T/err"
  local rc=$?
  [ $rc = "$want" ] || { echo "FAIL: $* -> exit $rc, want $want: $(head -1 "$T/err")"; fails=$((fails + 1)); }
}
for bad in abc -1 1x "" 4096 0x1000; do expect 2 --src "$bad"; done
expect 0 --src 0
expect 0 --src 1
expect 0 --src 0x1
expect 1 --src 2
grep -q "m.nt: no message from source 2" "$T/err" || { echo "FAIL: --src 2 message: $(cat "$T/err")"; fails=$((fails + 1)); }
[ $fails = 0 ] && echo "ntrace --src: ok"
exit $((fails > 0))
