#!/usr/bin/env bash
# Issue 18: the public headers are the API contract, so each one compiles on
# its own: a translation unit that includes only that header, with -Wall
# -Wextra -Werror -pedantic, as C11 and (when a C++ compiler is present) as
# C++ (extern "C", no C-only constructs).  A header that leans on another
# being included first, or on a private one, fails here.
set -u
: "${RVT_SRC:?}" "${RVT_TMP:?}"
CC=${CC:-cc} CXX=${CXX:-c++}
command -v "$CC" >/dev/null 2>&1 || { echo "SKIP: no $CC"; exit 77; }
have_cxx=0; command -v "$CXX" >/dev/null 2>&1 && have_cxx=1
T="$RVT_TMP/headers"; rm -rf "$T"; mkdir -p "$T"
inc=$RVT_SRC/include
flags="-Wall -Wextra -Werror -pedantic -I$inc -c"
fail=0 n=0
for h in "$inc"/rvtrace/*.h; do
  name=${h##*/}; n=$((n + 1))
  printf '#include "rvtrace/%s"\nint rvt_header_test_%s;\n' "$name" "${name%.h}" >"$T/$name.c"
  "$CC" -std=c11 $flags "$T/$name.c" -o "$T/$name.o" 2>"$T/$name.c.err" ||
    { echo "headers: $name does not compile alone as C:" >&2; head -5 "$T/$name.c.err" >&2; fail=1; }
  if [ $have_cxx = 1 ]; then
    cp "$T/$name.c" "$T/$name.cc"
    "$CXX" -std=c++11 $flags "$T/$name.cc" -o "$T/$name.oo" 2>"$T/$name.cc.err" ||
      { echo "headers: $name does not compile alone as C++:" >&2; head -5 "$T/$name.cc.err" >&2; fail=1; }
  fi
done
[ $n -gt 0 ] || { echo "FAIL: no headers in $inc/rvtrace"; exit 1; }
[ $fail = 0 ] && echo "headers: $n public headers compile alone (C11$([ $have_cxx = 1 ] && echo ', C++11'))"
exit $fail
