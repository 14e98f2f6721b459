#!/usr/bin/env bash
# Issue 18 "An installable library": install into a temporary DESTDIR, build
# docs/examples/decode_te.c and decode_trace.c (rvt_trace_open: any
# protocol, found with its sidecar) against the installed tree with
# pkg-config and run them on traces (E-Trace; decode_trace also N-Trace).
#   - cmake --install with DESTDIR and --prefix puts bin/rvtrace,
#     lib/librvtrace.so.V (soname librvtrace.so.MAJOR), lib/librvtrace.a,
#     include/rvtrace/*.h, lib/pkgconfig/rvtrace.pc (prefix = the
#     --prefix given at install time) and share/man/man1/rvtrace*.1 under
#     DESTDIR/PREFIX;
#   - the program built with `pkg-config --cflags --libs rvtrace` runs with
#     the installed librvtrace.so and counts exactly the instructions the
#     reference hart retired (run --pcs-retired: one line each);
#   - `pkg-config --static --libs` brings -lelf: with the shared library
#     gone, the program links with those flags (and not without -lelf) and
#     counts the same.
# PKG_CONFIG_PATH points into DESTDIR and --define-variable=prefix moves the
# .pc's prefix there (libdir and includedir follow ${prefix}).
set -u
: "${RVT_BIN:?}" "${RVT_SRC:?}" "${RVT_TMP:?}"
BUILD=${RVT_BUILD:-$(dirname "$RVT_BIN")}   # rvtrace is built at the top of the build dir
CC=${CC:-cc}
for t in cmake pkg-config "$CC"; do
  command -v "$t" >/dev/null 2>&1 || { echo "SKIP: no $t"; exit 77; }
done
elf=$RVT_SRC/programs/sort.elf
[ -f "$elf" ] || { echo "SKIP: no $elf"; exit 77; }
# An ASan/UBSan build's library needs the sanitizer runtime in the program
# too: a plain cc build of the example cannot use it.
grep -q '^RVT_SANITIZE:BOOL=ON' "$BUILD/CMakeCache.txt" 2>/dev/null &&
  { echo "SKIP: sanitizer build (make asan)"; exit 77; }
T="$RVT_TMP/install"; rm -rf "$T"; mkdir -p "$T"
fail=0
err() { echo "install: $*" >&2; fail=1; }
die() { echo "install: $*" >&2; exit 1; }

v=$(sed -nE 's/^project\(rvtrace VERSION ([0-9]+)\.([0-9]+)\.([0-9]+).*/\1.\2.\3/p' "$RVT_SRC/CMakeLists.txt")
major=${v%%.*}
prefix=/opt/rvtrace-test
D=$T/root P=$T/root$prefix
DESTDIR=$D cmake --install "$BUILD" --prefix "$prefix" >"$T/install.log" 2>&1 ||
  { cat "$T/install.log" >&2; die "cmake --install failed"; }

# The files, where GNUInstallDirs puts them (libdir: lib or lib64 or lib/<multiarch>).
pc=$(find "$P" -name rvtrace.pc -path '*/pkgconfig/*' | head -1)
[ -n "$pc" ] || die "no rvtrace.pc under $P"
pcdir=$(dirname "$pc"); libdir=$(dirname "$pcdir")
[ -x "$P/bin/rvtrace" ] || err "no bin/rvtrace"
[ -f "$libdir/librvtrace.so.$v" ] && [ ! -L "$libdir/librvtrace.so.$v" ] || err "no librvtrace.so.$v"
[ "$(readlink "$libdir/librvtrace.so.$major")" = "librvtrace.so.$v" ] || err "librvtrace.so.$major is not a link to librvtrace.so.$v"
[ -L "$libdir/librvtrace.so" ] || err "no librvtrace.so link"
[ -f "$libdir/librvtrace.a" ] || err "no librvtrace.a"
for h in "$RVT_SRC"/include/rvtrace/*.h; do
  cmp -s "$h" "$P/include/rvtrace/${h##*/}" || err "include/rvtrace/${h##*/} not installed"
done
[ ! -e "$P/include/rvtrace/version.h.in" ] || err "version.h.in installed"
# man pages (cmake/man.cmake): rvtrace.1 and one per command, as built
for m in "$BUILD"/man/*.1; do
  cmp -s "$m" "$P/share/man/man1/${m##*/}" || err "share/man/man1/${m##*/} not installed"
done
[ -f "$P/share/man/man1/rvtrace-decode.1" ] || err "no share/man/man1/rvtrace-decode.1"
grep -qx "prefix=$prefix" "$pc" || err "rvtrace.pc: prefix is not the install-time $prefix: $(grep ^prefix= "$pc")"
[ "$("$P/bin/rvtrace" --version)" = "rvtrace $v" ] || err "installed rvtrace --version is not 'rvtrace $v'"

pkc() { PKG_CONFIG_PATH=$pcdir pkg-config --define-variable=prefix="$P" "$@" rvtrace; }
[ "$(pkc --modversion)" = "$v" ] || err "pkg-config --modversion: $(pkc --modversion)"
cflags=$(pkc --cflags) libs=$(pkc --libs) slibs=$(pkc --static --libs) ||
  die "pkg-config cannot read $pc"
[[ " $slibs " == *" -lelf "* ]] || err "pkg-config --static --libs lacks -lelf: $slibs"

# Traces of the workload, made by the installed rvtrace; the hart's
# retired PCs are the expected instruction count.
"$P/bin/rvtrace" run "$elf" --etrace "$T/s.te" --ntrace "$T/s.nt" --pcs-retired "$T/hart.pcs" >/dev/null 2>&1 ||
  die "installed rvtrace could not run $elf"
want=$(wc -l <"$T/hart.pcs")
[ "$want" -gt 1000 ] || die "only $want instructions retired"

# The examples docs/api.md shows: what each prints for which trace.
examples="decode_te decode_trace"
traces_decode_te="s.te" lines_decode_te="instructions $want|events $want|errors 0"
traces_decode_trace="s.te s.nt" lines_decode_trace="instructions $want|losses 0"

check_run() {   # LABEL EXAMPLE BINARY [ENV...]
  local label=$1 ex=$2 bin=$3; shift 3
  local traces=traces_$ex lines=lines_$ex tr line
  for tr in ${!traces}; do
    env "$@" "$bin" "$elf" "$T/$tr" >"$T/$label.out" 2>"$T/$label.err" ||
      { err "$label $tr: exit status $? ($(head -3 "$T/$label.err"))"; continue; }
    IFS='|' read -ra want_lines <<<"librvtrace $v|${!lines}"
    for line in "${want_lines[@]}"; do
      grep -qx "$line" "$T/$label.out" || err "$label $tr: no '$line' in: $(tr '\n' ' ' <"$T/$label.out")"
    done
  done
}

# Shared: built with the plain flags, run with the installed library.
for ex in $examples; do
  src=$RVT_SRC/docs/examples/$ex.c
  if $CC -std=c11 -Wall -Wextra -Werror "$src" $cflags $libs -o "$T/dyn_$ex" 2>"$T/dyn.log"; then
    LD_LIBRARY_PATH=$libdir ldd "$T/dyn_$ex" | grep -q "librvtrace.so.$major => $libdir/" ||
      err "shared: librvtrace.so.$major does not come from $libdir"
    check_run "dyn $ex" "$ex" "$T/dyn_$ex" LD_LIBRARY_PATH="$libdir"
  else
    cat "$T/dyn.log" >&2; err "shared: $ex.c does not build with: $cflags $libs"
  fi
done

# Static: with no shared library to find, -lrvtrace is librvtrace.a, which
# needs libelf, so the --static flags link and the plain ones do not.
rm -f "$libdir"/librvtrace.so*
if $CC -std=c11 "$RVT_SRC/docs/examples/decode_te.c" $cflags $libs -o "$T/nolibelf" >/dev/null 2>&1; then
  err "static: linked without -lelf (did the test really use librvtrace.a?)"
fi
for ex in $examples; do
  src=$RVT_SRC/docs/examples/$ex.c
  if $CC -std=c11 -Wall -Wextra -Werror "$src" $cflags $slibs -o "$T/static_$ex" 2>"$T/static.log"; then
    ldd "$T/static_$ex" | grep -q librvtrace && err "static: still linked to a librvtrace.so"
    check_run "static $ex" "$ex" "$T/static_$ex"
  else
    cat "$T/static.log" >&2; err "static: $ex.c does not link with: $cflags $slibs"
  fi
done
[ $fail = 0 ] && echo "install: $prefix in DESTDIR ok; the examples count $want instructions (shared and static)"
exit $fail
