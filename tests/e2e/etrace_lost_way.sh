#!/usr/bin/env bash
# Implicit return the stream cannot carry (E-Trace 3.2.5): with neither a
# return stack nor a call counter every return is left out, and with a
# counter alone returns to changed return addresses are; the encoder says
# so (a warning naming the settings and the code it cannot follow) but
# still writes the stream (the reference flow's itype4_call_stack
# configuration).  The decoder that loses its way in such a stream must
# not emit instructions until the next synchronisation packet, and its
# summary says how much was lost.
set -u
: "${RVT_BIN:?}" "${RVT_SRC:?}" "${RVT_TMP:?}"
T="$RVT_TMP/etrace_lost_way"
rm -rf "$T"; mkdir -p "$T"
elf="$RVT_SRC/programs/recurse.elf"
[ -f "$elf" ] || { echo "SKIP: no $elf"; exit 77; }
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# warn LABEL PATTERN|- ATTRS...: the run succeeds and warns (or not).
warn() {
  local label=$1 pat=$2; shift 2
  "$RVT_BIN" run "$elf" --etrace "$T/t.te" --te-opt implicit-return "$@" >/dev/null 2>"$T/err" ||
    fail "$label: run failed"
  if [ "$pat" = - ]; then
    grep -q warning "$T/err" && fail "$label: unexpected warning: $(grep warning "$T/err")"
  else
    grep -q "warning: .*$pat" "$T/err" || fail "$label: no warning matching '$pat'"
  fi
}
warn "stack" - --te-attr return_stack_size=3
warn "counter only" "setjmp" --te-attr return_stack_size=0 --te-attr call_counter_size=4
warn "neither" "return_stack_size=0, call_counter_size=0" --te-attr return_stack_size=0 --te-attr call_counter_size=0

# The last stream (neither) loses the decoder at a return: after each
# error event, no instruction before a sync event; exit 1 and a summary.
"$RVT_BIN" decode --elf "$elf" "$T/t.te" --json >"$T/ev.json" 2>"$T/err"
rc=$?
[ $rc = 1 ] || fail "decode exit $rc, want 1"
grep -q '"kind":"error"' "$T/ev.json" || fail "no error event"
bad=$(awk '/"kind":"error"/ {lost = 1} /"kind":"sync"/ {lost = 0}
           /"kind":"insn"/ && lost {n++} END {print n + 0}' "$T/ev.json")
[ "$bad" = 0 ] || fail "$bad instructions emitted between an error and the next sync"
grep -q 'decode errors: .* instructions decoded; .* packets skipped' "$T/err" ||
  fail "no loss summary: $(tail -1 "$T/err")"
[ $fails = 0 ] && echo "etrace_lost_way: ok"
exit $((fails > 0))
