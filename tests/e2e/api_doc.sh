#!/usr/bin/env bash
# docs/api.md shows docs/examples/decode_trace.c (rvt_trace_open and a
# protocol's decoder; issue 18), a program tests/e2e/install.sh builds and
# runs against an installed librvtrace: the ```c block after the
# marker comment must be that file byte for byte, so the page cannot rot.
set -u
: "${RVT_SRC:?}" "${RVT_TMP:?}"
doc=$RVT_SRC/docs/api.md ex=$RVT_SRC/docs/examples/decode_trace.c
[ -f "$doc" ] && [ -f "$ex" ] || { echo "FAIL: no $doc or $ex"; exit 1; }
T="$RVT_TMP/api_doc"; rm -rf "$T"; mkdir -p "$T"
awk '/^<!-- The block below is docs\/examples\/decode_trace.c/ { m = 1; next }
     m == 1 && /^```c$/ { m = 2; next }
     m == 2 && /^```$/ { exit }
     m == 2' "$doc" >"$T/block.c"
[ -s "$T/block.c" ] || { echo "FAIL: docs/api.md has no example block after the marker"; exit 1; }
if ! cmp -s "$T/block.c" "$ex"; then
  echo "FAIL: the example in docs/api.md differs from docs/examples/decode_trace.c:" >&2
  diff -u "$ex" "$T/block.c" | head -20 >&2
  exit 1
fi
echo "api_doc: docs/api.md shows docs/examples/decode_trace.c ($(wc -l <"$ex") lines)"
