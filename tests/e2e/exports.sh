#!/usr/bin/env bash
# Issue 14 "Exports", issue 18: librvtrace.so exports the public API and
# nothing else (cmake/exports.cmake).
#   1. every dynamic symbol librvtrace.so defines is declared in a public
#      header (an identifier of include/rvtrace/*.h after preprocessing, so
#      comments do not count);
#   2. every global symbol of librvtrace.a that a public header declares is
#      exported (nothing public was hidden);
#   3. known internals (te_enc_*, img_*, rvt_iblk_*) exist in librvtrace.a
#      but are not exported.
set -u
: "${RVT_BIN:?}" "${RVT_SRC:?}" "${RVT_TMP:?}"
BUILD=${RVT_BUILD:-$(dirname "$RVT_BIN")}   # rvtrace is built at the top of the build dir
CC=${CC:-cc}
for t in nm "$CC"; do
  command -v "$t" >/dev/null 2>&1 || { echo "SKIP: no $t"; exit 77; }
done
so=$BUILD/librvtrace.so a=$BUILD/librvtrace.a
[ -f "$so" ] && [ -f "$a" ] || { echo "FAIL: no $so or $a"; exit 1; }
T="$RVT_TMP/exports"; rm -rf "$T"; mkdir -p "$T"
fail=0
err() { echo "exports: $*" >&2; fail=1; }

# Identifiers of the public headers: preprocess them all, keep only the
# lines that come from include/rvtrace/ (line markers name the file).
inc=$RVT_SRC/include
for h in "$inc"/rvtrace/*.h; do echo "#include \"rvtrace/${h##*/}\""; done >"$T/all.c"
"$CC" -E -I"$inc" "$T/all.c" >"$T/all.i" || { echo "FAIL: cannot preprocess the headers"; exit 1; }
awk -v dir="$inc/rvtrace/" '
  /^# [0-9]+ "/ { f = $3; gsub(/"/, "", f); ours = index(f, dir) == 1; next }
  ours' "$T/all.i" | grep -oE '[A-Za-z_][A-Za-z0-9_]*' | sort -u >"$T/declared"

nm -D --defined-only "$so" | awk '{print $NF}' | sed 's/@.*//' | sort -u >"$T/exported"
nm -g --defined-only "$a" 2>/dev/null | awk 'NF == 3 {print $3}' | sort -u >"$T/archive"
[ -s "$T/exported" ] || err "librvtrace.so exports nothing"

# 1. exported => declared
comm -23 "$T/exported" "$T/declared" >"$T/undeclared"
[ -s "$T/undeclared" ] && err "exported but in no public header: $(head -20 "$T/undeclared" | tr '\n' ' ')"
# 2. declared and defined => exported
comm -12 "$T/archive" "$T/declared" | comm -23 - "$T/exported" >"$T/hidden"
[ -s "$T/hidden" ] && err "declared in a public header but not exported: $(head -20 "$T/hidden" | tr '\n' ' ')"
# 3. known internals: present in the archive, absent from the .so
for p in te_enc_ img_ rvt_iblk_; do
  grep -q "^$p" "$T/archive" || err "no ${p}* symbol in librvtrace.a (test out of date?)"
  grep "^$p" "$T/exported" | head -3 | while read -r s; do echo "exports: internal $s is exported" >&2; done
  grep -q "^$p" "$T/exported" && fail=1
done
# The API itself is there.
for s in rvt_version rvt_te_decoder_new rvt_nt_decoder_new rvt_image_load_elf rvt_out_new; do
  grep -qx "$s" "$T/exported" || err "$s is not exported"
done
[ $fail = 0 ] && echo "exports: $(wc -l <"$T/exported") symbols, all public"
exit $fail
