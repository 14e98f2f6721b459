#!/usr/bin/env bash
# Seed corpora for the fuzz targets: OUT/<target>/ for each target named.
# Streams come from rvtrace itself (the gcc build in build/, built if
# missing) running every workload of programs/ in every trace mode, plus the
# reference streams of ../shared/interop when present (read in place, never
# copied into the repository).  Missing pieces are skipped with a note.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=$1; shift
mkdir -p "$OUT"
for t in "$@"; do mkdir -p "$OUT/$t"; done
have() { for t in "$@"; do [ -d "$OUT/$t" ] && return 0; done; return 1; }
