#!/usr/bin/env bash
# make bench: measure and write bench/RESULTS.md (see bench/bench.c).
set -euo pipefail
BUILD=${1:-build}
cd "$(dirname "$0")/.."
"$BUILD/bench/rvtrace_bench" --programs programs --out bench/RESULTS.md "${@:2}"
