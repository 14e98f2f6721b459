#!/bin/bash
# Issue 18 "An installable library": every command `rvtrace help` lists has
# a man page (scripts/gen-man.sh: rvtrace.1, rvtrace-CMD.1) whose
# DESCRIPTION, rendered by groff (or man -l), is its --help text line for
# line; groff finds nothing to warn about and mandoc -T lint (when
# installed) nothing to complain about.  The build's own pages (BUILD/man,
# what make install puts into share/man/man1) are the ones checked.
# Skips (77) without groff and man.
set -u
: "${RVT_BIN:?}" "${RVT_SRC:?}" "${RVT_TMP:?}"
BUILD=$(cd "$(dirname "$RVT_BIN")" && pwd)
T=$RVT_TMP/man_pages; rm -rf "$T"; mkdir -p "$T"
render() {   # PAGE: plain text, no overstrike, lines not broken
  if command -v groff >/dev/null 2>&1; then
    groff -man -Tascii -P-cbou -rLL=250n "$1" 2>"$T/groff.err"
  else
    MANWIDTH=250 MAN_KEEP_FORMATTING= man -l "$1" 2>/dev/null | col -bx
  fi
}
command -v groff >/dev/null 2>&1 || command -v man >/dev/null 2>&1 || { echo "SKIP: no groff or man"; exit 77; }
fail=0
err() { echo "man_pages: $*" >&2; fail=1; }

# the pages the build made are today's: the generator run now agrees
bash "$RVT_SRC/scripts/gen-man.sh" "$RVT_BIN" "$T/gen" || exit 1
[ -d "$BUILD/man" ] || err "no $BUILD/man (the build makes the man pages)"
diff -r "$BUILD/man" "$T/gen" >/dev/null || err "$BUILD/man differs from what gen-man.sh makes now"

check() {   # PAGE HELP-ARGS...
  local page=$1; shift
  [ -f "$page" ] || { err "no page $page"; return; }
  "$RVT_BIN" "$@" >"$T/want" 2>&1
  render "$page" | awk '/^DESCRIPTION$/ { f = 1; next } /^SEE ALSO$/ { f = 0 } f' \
    | sed -e 's/^       //' -e 's/[[:space:]]*$//' >"$T/got"
  sed -e 's/[[:space:]]*$//' "$T/want" >"$T/want.trim"
  # both without trailing blank lines
  for f in "$T/got" "$T/want.trim"; do sed -i -e :a -e '/^\n*$/{$d;N;ba' -e '}' "$f"; done
  diff -u "$T/want.trim" "$T/got" >"$T/diff" || { err "$page does not show '$*':"; head -20 "$T/diff" >&2; }
  if command -v groff >/dev/null 2>&1; then
    groff -man -z -ww "$page" 2>"$T/warn"
    [ -s "$T/warn" ] && { err "$page: groff warns:"; cat "$T/warn" >&2; }
  fi
  if command -v mandoc >/dev/null 2>&1; then
    mandoc -T lint -W warning "$page" >"$T/lint" 2>&1 || { err "$page: mandoc -T lint:"; cat "$T/lint" >&2; }
  fi
}
check "$T/gen/rvtrace.1" help
n=0
for cmd in $(bash "$RVT_SRC/scripts/cli-commands.sh" "$RVT_BIN"); do
  check "$T/gen/rvtrace-$cmd.1" help "$cmd"
  # --help prints the same text as help CMD
  "$RVT_BIN" "$cmd" --help >"$T/h1" 2>&1; "$RVT_BIN" help "$cmd" >"$T/h2" 2>&1
  cmp -s "$T/h1" "$T/h2" || err "rvtrace $cmd --help differs from rvtrace help $cmd"
  n=$((n + 1))
done
[ "$n" -ge 10 ] || err "only $n commands listed by rvtrace help"
[ "$(ls "$T/gen" | wc -l)" -eq $((n + 1)) ] || err "pages other than rvtrace.1 and one per command"
[ $fail = 0 ] && echo "man_pages: rvtrace.1 and $n command pages match the help texts"
exit $fail
