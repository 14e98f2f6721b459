#!/bin/bash
# Exit statuses are 0 (success), 1 (input/output error, decode error, the
# program failed) and 2 (usage error), nothing else (issue #13 item 1):
# an unwritable sidecar fails the run on both trace paths; a bad --nt-opt
# is a usage error like a bad --te-opt, not a library status.
set -u
: "${RVT_SRC:?}" "${RVT_BIN:?}" "${RVT_TMP:?}"
t="$RVT_TMP/exit_status"
rm -rf "$t"; mkdir -p "$t"
P=$RVT_SRC/programs/sort.elf
. "$RVT_SRC/tests/e2e/lib/expect.sh"
# a directory where the sidecar should go: it cannot be written (even as root)
mkdir -p "$t/y.te.attrs" "$t/z.nt.attrs"
expect 1 "run --etrace, sidecar unwritable" -- "$RVT_BIN" run "$P" --quiet --etrace "$t/y.te"
grep -q "y.te.attrs" "$t/err" || { echo "FAIL sidecar error does not name y.te.attrs"; fail=1; }
expect 1 "run --ntrace, sidecar unwritable" -- "$RVT_BIN" run "$P" --quiet --ntrace "$t/z.nt"
expect 2 "run bad --nt-opt" -- "$RVT_BIN" run "$P" --quiet --ntrace "$t/n.nt" --nt-opt bogus
expect 2 "run bad --te-opt" -- "$RVT_BIN" run "$P" --quiet --etrace "$t/n.te" --te-opt bogus
expect 2 "run --nt-opt without --ntrace" -- "$RVT_BIN" run "$P" --quiet --nt-opt htm
expect 2 "run --te-opt without --etrace" -- "$RVT_BIN" run "$P" --quiet --te-opt sijump
expect 2 "encode bad --nt-opt" -- "$RVT_BIN" encode --ntrace x.rvi -o "$t/x.nt" --nt-opt bogus
expect 2 "unknown command" -- "$RVT_BIN" frobnicate
expect 0 "version" -- "$RVT_BIN" --version
exit $fail
