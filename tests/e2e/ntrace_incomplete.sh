#!/usr/bin/env bash
# Issue #13 item 7: an N-Trace stream that stops without the encoder's end
# marker (the final ProgTraceCorrelation, 7.12) -- a truncated capture or an
# empty file -- decodes what it has, but says so: a warning "FILE: offset N:
# warning: incomplete trace" on stderr, N = where the last whole message
# ends, the listing's "-- incomplete trace" line and the JSON end event's
# "complete":false; exit 0, or 1 with --strict.  The complete stream has no
# warning and exits 0 with --strict.  N is derived from the message starts
# `rvtrace dump` lists: the largest message boundary <= the cut.
# Two sources (encode --ntrace A.rvi B.rvi): each must end with its own
# marker; --src N checks only source N.
set -u
: "${RVT_BIN:?}" "${RVT_SRC:?}" "${RVT_TMP:?}"
T="$RVT_TMP/ntrace_incomplete"
rm -rf "$T"; mkdir -p "$T"
elf="$RVT_SRC/programs/fptr.elf"
[ -f "$elf" ] || { echo "SKIP: no $elf"; exit 77; }
"$RVT_BIN" run "$elf" --ntrace "$T/g.nt" --ingress "$T/g.rvi" >/dev/null 2>&1
[ -s "$T/g.nt" ] || { echo "FAIL: run wrote no stream"; exit 1; }
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

"$RVT_BIN" decode --elf "$elf" "$T/g.nt" --strict --count >/dev/null 2>"$T/err" ||
    fail "complete stream: --strict exit $?"
[ -s "$T/err" ] && fail "complete stream: stderr: $(head -1 "$T/err")"

n=$(stat -c %s "$T/g.nt")
starts=$("$RVT_BIN" dump "$T/g.nt" | sed -n 's/^@\([0-9]*\) .*/\1/p')
boundary_le() {     # largest message boundary <= $1
  local best=0 s
  for s in $starts $n; do [ "$s" -le "$1" ] && best=$s; done
  echo "$best"
}

# cut at: nothing, inside the first message, after it, in the middle, one
# byte short of the end (inside the final ProgTraceCorrelation)
second=$(echo "$starts" | sed -n 2p)
for cut in 0 3 "$second" $((n / 2)) $((n - 1)); do
  f="$T/c$cut.nt"
  head -c "$cut" "$T/g.nt" >"$f"; cp "$T/g.nt.attrs" "$f.attrs"
  want=$(boundary_le "$cut")
  "$RVT_BIN" decode --elf "$elf" "$f" --count >/dev/null 2>"$T/err"
  rc=$?
  grep -q "c$cut.nt: offset $want: warning: incomplete trace" "$T/err" ||
      fail "cut $cut: no warning at offset $want: $(head -2 "$T/err")"
  # a cut inside a message is also a transport error (3.4): exit 1 anyway
  if [ "$cut" = "$want" ]; then
    [ $rc = 0 ] || fail "cut $cut: exit $rc without --strict"
  else
    [ $rc = 1 ] || fail "cut $cut: exit $rc for a message cut short"
  fi
  "$RVT_BIN" decode --elf "$elf" "$f" --count --strict >/dev/null 2>&1
  [ $? = 1 ] || fail "cut $cut: --strict does not exit 1"
  "$RVT_BIN" decode --elf "$elf" "$f" 2>/dev/null | tail -1 |
      grep -q "^-- incomplete trace" || fail "cut $cut: listing has no incomplete line"
  "$RVT_BIN" decode --elf "$elf" "$f" --json 2>/dev/null | tail -1 |
      grep -q "\"complete\":false,\"offset\":$want" || fail "cut $cut: JSON end event"
done

# Two harts: source 1's stream complete, source 0's end marker cut away.
cp "$T/g.rvi" "$T/h.rvi"
"$RVT_BIN" encode --ntrace "$T/g.rvi" "$T/h.rvi" -o "$T/m.nt" >/dev/null 2>&1 ||
    { echo "FAIL: encode two sources"; exit 1; }
"$RVT_BIN" decode --elf "$elf" "$T/m.nt" --count --strict >/dev/null 2>"$T/err" ||
    fail "two sources complete: exit $? $(head -1 "$T/err")"
last0=$("$RVT_BIN" dump "$T/m.nt" | grep 'SRC=0x0' | grep -c ProgTraceCorrelation)
[ "$last0" -ge 1 ] || fail "two sources: no correlation of source 0 in the dump"
# drop source 0's last message (its correlation): keep everything before it
# and everything after it
off0=$("$RVT_BIN" dump "$T/m.nt" | grep 'SRC=0x0' | tail -1 | sed -n 's/^@\([0-9]*\) .*/\1/p')
nxt=$("$RVT_BIN" dump "$T/m.nt" | sed -n 's/^@\([0-9]*\) .*/\1/p' | awk -v o="$off0" '$1 > o {print; exit}')
m=$(stat -c %s "$T/m.nt")
{ head -c "$off0" "$T/m.nt"; [ -n "$nxt" ] && tail -c $((m - nxt)) "$T/m.nt"; } >"$T/k.nt"
cp "$T/m.nt.attrs" "$T/k.nt.attrs"
"$RVT_BIN" decode --elf "$elf" "$T/k.nt" --count --strict >/dev/null 2>"$T/err"
[ $? = 1 ] || fail "source 0 without its marker: --strict exit not 1"
grep -q "warning: incomplete trace" "$T/err" || fail "source 0 without its marker: no warning"
"$RVT_BIN" decode --elf "$elf" "$T/k.nt" --count --strict --src 1 >/dev/null 2>"$T/err" ||
    fail "--src 1 (complete) on the same stream: exit $? $(head -1 "$T/err")"

[ $fails = 0 ] && echo "ntrace incomplete: ok"
exit $((fails > 0))
