# Shared by the exit-status tests (sourced after $t, the test's folder, is
# made): expect STATUS DESCRIPTION -- COMMAND... runs COMMAND with its
# stdout in $t/out and stderr in $t/err and prints "ok   DESCRIPTION", or
# a FAIL line with the status it got and the first lines of stderr, and
# then sets fail=1 (the script's exit status at its end).
fail=0
expect() {
    local want=$1 what=$2; shift 3
    "$@" >"$t/out" 2>"$t/err"
    local rc=$?
    if [ $rc -ne "$want" ]; then echo "FAIL $what: status $rc, want $want: $(head -5 "$t/err")"; fail=1
    else echo "ok   $what"; fi
}
