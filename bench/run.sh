#!/usr/bin/env bash
# make bench: measure and write bench/RESULTS.md.
set -euo pipefail
BUILD=${1:-build}
cd "$(dirname "$0")/.."
if [ -x "$BUILD/rvtrace_bench" ]; then
  "$BUILD/rvtrace_bench" --rvtrace "$BUILD/rvtrace" --out bench/RESULTS.md
else
  echo "bench: no benchmark harness built yet" >&2
fi
