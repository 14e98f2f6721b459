#!/usr/bin/env bash
# E-Trace command-line behaviour (issue #13): dump rejects unknown options
# (usage error, as the N-Trace dump); --te-opt all is every mode that makes
# the stream smaller, not full-address (3.2.2); --te-opt resync-max=N is the
# resync_max attribute; decode --count prints the instruction count; the
# help states the return stack size the sidecar records (log2); a stream
# cut short, or empty, decodes with a warning naming the file and the
# offset where its last complete packet ends, and exit 1 under --strict;
# a value too wide for its field stops the encoder (exit 1, named).
set -u
: "${RVT_BIN:?}" "${RVT_SRC:?}" "${RVT_TMP:?}"
T="$RVT_TMP/etrace_cli"
rm -rf "$T"; mkdir -p "$T"
elf="$RVT_SRC/programs/sort.elf"
[ -f "$elf" ] || { echo "SKIP: no $elf"; exit 77; }
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
attr() { sed -n "s/^$1=//p" "$2"; }

want=$("$RVT_BIN" run "$elf" --etrace "$T/s.te" 2>&1 |
       sed -n 's/^rvtrace: \([0-9,]*\) instructions retired.*/\1/p' | tr -d ,)
[ -n "$want" ] || { echo "FAIL: run"; exit 1; }

# dump: unknown option -> 2; known ones still work.
"$RVT_BIN" dump --bogus "$T/s.te" >/dev/null 2>"$T/err"; rc=$?
[ $rc = 2 ] || fail "dump --bogus: exit $rc, want 2"
grep -q -- '--bogus' "$T/err" || fail "dump --bogus: message does not name the option"
"$RVT_BIN" dump --json --te-attr version=1.1 "$T/s.te" >/dev/null || fail "dump --json --te-attr: exit $?"

# --te-opt all: options without full-address; resync-max=N.
"$RVT_BIN" run "$elf" --etrace "$T/a.te" --te-opt all,resync-max=3 >/dev/null 2>&1 || fail "run --te-opt all"
o=$(attr options "$T/a.te.attrs")
[ "$o" = "implicit-except,sijump,implicit-return,branch-prediction,jump-target-cache" ] ||
  fail "--te-opt all: options=$o"
[ "$(attr resync_max "$T/a.te.attrs")" = 3 ] || fail "--te-opt resync-max=3: resync_max=$(attr resync_max "$T/a.te.attrs")"
"$RVT_BIN" run "$elf" --etrace "$T/x.te" --te-attr resync_max=3 >/dev/null 2>&1 &&
  [ "$(attr resync_max "$T/x.te.attrs")" = 3 ] || fail "--te-attr resync_max=3 no longer taken"

# decode --count
n=$("$RVT_BIN" decode --elf "$elf" "$T/a.te" --count 2>"$T/err"); rc=$?
[ $rc = 0 ] || fail "decode --count: exit $rc: $(head -1 "$T/err")"
[ "$n" = "$want instructions" ] || fail "decode --count: '$n', want '$want instructions'"

# help: 32 entries is return_stack_size=5 (log2), what the sidecar says.
"$RVT_BIN" run "$elf" --etrace "$T/i.te" --te-opt implicit-return >/dev/null 2>&1
[ "$(attr return_stack_size "$T/i.te.attrs")" = 5 ] || fail "implicit-return default is not return_stack_size=5"
"$RVT_BIN" help run | tr -s ' \n' ' ' | grep -q '32-entry return stack (return_stack_size=5' ||
  fail "help does not say the 32-entry stack is return_stack_size=5"

# Cut after 22 bytes (whole packets: support, sync, branch maps) and
# empty: a warning with the offset; exit 0, 1 under --strict.
head -c 22 "$T/s.te" >"$T/h.te"; cp "$T/s.te.attrs" "$T/h.te.attrs"
: >"$T/e.te"; cp "$T/s.te.attrs" "$T/e.te.attrs"
for c in "h.te 22" "e.te 0"; do
  set -- $c
  "$RVT_BIN" decode --elf "$elf" "$T/$1" --pcs "$T/p" 2>"$T/err"; rc=$?
  [ $rc = 0 ] || fail "$1: exit $rc without --strict"
  grep -q "$1: offset $2: warning: incomplete trace" "$T/err" || fail "$1: no warning at offset $2: $(head -1 "$T/err")"
  "$RVT_BIN" decode --elf "$elf" "$T/$1" --strict --count >/dev/null 2>&1; rc=$?
  [ $rc = 1 ] || fail "$1: exit $rc with --strict, want 1"
  "$RVT_BIN" decode --elf "$elf" "$T/$1" --json 2>/dev/null | tail -1 | grep -q "\"complete\":false,\"offset\":$2" ||
    fail "$1: JSON end event not incomplete at $2"
  "$RVT_BIN" dump "$T/$1" >/dev/null 2>"$T/err" || fail "dump $1: exit $?"
  grep -q "$1: offset $2: warning: incomplete trace" "$T/err" || fail "dump $1: no warning at offset $2"
done
"$RVT_BIN" dump "$T/s.te" >/dev/null 2>"$T/err" && [ ! -s "$T/err" ] || fail "dump of a whole stream: $(head -1 "$T/err")"
"$RVT_BIN" decode --elf "$elf" "$T/s.te" --strict --count >/dev/null 2>"$T/err" || fail "whole stream: --strict exit $?"
[ -s "$T/err" ] && fail "whole stream: unexpected message $(head -1 "$T/err")"
# Values too wide for their fields: exit 1, the field and value named.
ecall="$RVT_SRC/programs/ecall.elf"
"$RVT_BIN" run "$ecall" --te-attr ecause_width=2 --etrace "$T/w.te" >/dev/null 2>"$T/err"; rc=$?
[ $rc = 1 ] || fail "ecause_width=2: exit $rc, want 1"
grep -q 'w.te: ecause 11 (0xb) does not fit ecause_width=2' "$T/err" || fail "ecause_width=2: $(tail -1 "$T/err")"
"$RVT_BIN" run "$elf" --te-attr iaddress_width=16 --etrace "$T/w.te" >/dev/null 2>"$T/err"; rc=$?
[ $rc = 1 ] || fail "iaddress_width=16: exit $rc, want 1"
grep -q 'w.te: address .* does not fit iaddress_width=16' "$T/err" || fail "iaddress_width=16: $(tail -1 "$T/err")"
# 1.1.1 6.3.1: tvalepc of an illegal instruction is its address (the
# listing calls it epc); 2.0's tval field is the trap value (the opcode).
ill="$RVT_SRC/programs/illegal.elf"
for v in 1.1 2.0; do
  "$RVT_BIN" run "$ill" --etrace "$T/il.te" --te-attr version=$v >/dev/null 2>&1
  "$RVT_BIN" decode --elf "$ill" "$T/il.te" >"$T/il.txt" 2>/dev/null
  first=$(grep -m1 -- '-- exception cause=2' "$T/il.txt")
  # the trapping instruction follows the last retired one (2 or 4 bytes)
  read -r pc word _ < <(grep -m1 -B1 -- '-- exception cause=2' "$T/il.txt" | head -1)
  epc=$(printf %x $((0x${pc%:} + ${#word} / 2)))
  if [ $v = 1.1 ]; then
    [ "$first" = "-- exception cause=2 epc=0x$epc" ] || fail "1.1 illegal: '$first', want epc=0x$epc"
  else
    case "$first" in "-- exception cause=2 tval=0x"*) ;; *) fail "2.0 illegal: '$first'" ;; esac
  fi
done
[ $fails = 0 ] && echo "etrace_cli: ok"
exit $((fails > 0))
