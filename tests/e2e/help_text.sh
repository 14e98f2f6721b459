#!/bin/bash
# Help covers what the commands accept (issue #13 item 8): decode and dump
# list the --te-*/--nt-* options they take, the usage names --version, and
# docs/cli.md has a section for every command of `rvtrace help`.
set -u
: "${RVT_SRC:?}" "${RVT_BIN:?}"
fail=0
bad() { echo "FAIL $*"; fail=1; }
for cmd in decode dump; do
    h=$("$RVT_BIN" help $cmd)
    for opt in --te-opt --te-attr --nt-opt --nt-src --nt-attr; do
        grep -q -- "$opt" <<<"$h" || bad "help $cmd lacks $opt"
    done
done
"$RVT_BIN" help | grep -q -- "--version" || bad "usage lacks --version"
cmds=$("$RVT_BIN" help | awk '/^commands:/ {on = 1; next} on && /^  [a-z]/ {print $1} on && /^$/ {on = 0}')
[ "$(wc -w <<<"$cmds")" -ge 10 ] || bad "command list: $cmds"
for c in $cmds; do
    grep -q "^## rvtrace $c\$" "$RVT_SRC/docs/cli.md" || bad "docs/cli.md has no section for $c"
    "$RVT_BIN" help "$c" >/dev/null || bad "help $c fails"
done
exit $fail
