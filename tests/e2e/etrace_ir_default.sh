#!/usr/bin/env bash
# `--te-opt implicit-return` without a size gets a 32-entry return stack
# (return_stack_size=5, docs/etrace.md); a size the user gives, in either
# option form ("--te-attr NAME=V" or "--te-attr=NAME=V"), is kept even when
# it is 0 (a call counter instead of a stack, 3.2.5; both 0 is the
# reference flow's implicit return with neither, which it cannot decode, so
# only its attributes are checked).  The others decode back to the hart's
# instruction count.
set -u
: "${RVT_BIN:?}" "${RVT_SRC:?}" "${RVT_TMP:?}"
T="$RVT_TMP/etrace_ir_default"
rm -rf "$T"; mkdir -p "$T"
elf="$RVT_SRC/programs/recurse.elf"
[ -f "$elf" ] || { echo "SKIP: no $elf"; exit 77; }
fails=0
want=$("$RVT_BIN" run "$elf" 2>&1 | sed -n 's/^rvtrace: \([0-9,]*\) instructions retired.*/\1/p' | tr -d ,)
[ -n "$want" ] || { echo "FAIL: no instruction count from run"; exit 1; }

# check LABEL WANT-STACK WANT-COUNTER OPTIONS...
check() {
  local label=$1 ws=$2 wc=$3; shift 3
  "$RVT_BIN" run "$elf" --etrace "$T/t.te" --te-opt implicit-return "$@" \
      >/dev/null 2>&1 || { echo "FAIL $label: run"; fails=$((fails + 1)); return; }
  local s c
  s=$(sed -n 's/^return_stack_size=//p' "$T/t.te.attrs")
  c=$(sed -n 's/^call_counter_size=//p' "$T/t.te.attrs")
  if [ "$s" != "$ws" ] || [ "$c" != "$wc" ]; then
    echo "FAIL $label: return_stack_size=$s call_counter_size=$c, want $ws/$wc"
    fails=$((fails + 1))
  fi
  [ "$ws$wc" = 00 ] && return
  local n
  "$RVT_BIN" decode --elf "$elf" "$T/t.te" --pcs "$T/t.pcs" >/dev/null 2>&1
  n=$(wc -l <"$T/t.pcs")
  [ "$n" = "$want" ] || { echo "FAIL $label: decoded $n instructions, want $want"; fails=$((fails + 1)); }
}

check default 5 0
check "stack 3" 3 0 --te-attr return_stack_size=3
check "stack 2, = form" 2 0 --te-attr=return_stack_size=2
check "counter, separate form" 0 4 --te-attr return_stack_size=0 --te-attr call_counter_size=4
check "both 0, = form" 0 0 --te-attr=return_stack_size=0
check "both 0, separate form" 0 0 --te-attr return_stack_size=0 --te-attr call_counter_size=0
[ $fails = 0 ] && echo "etrace_ir_default: 6 cases ok"
exit $((fails > 0))
