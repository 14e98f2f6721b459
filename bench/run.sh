#!/usr/bin/env bash
# make bench: measure and write bench/RESULTS.md (see bench/bench.c), keep the
# sections the slower Python benches wrote (bench/parallel.py: run it by
# hand), then measure the boots (bench/boots.py; skipped without the
# firmware packages).
set -euo pipefail
BUILD=${1:-build}
cd "$(dirname "$0")/.."
old=$(mktemp)
trap 'rm -f "$old"' EXIT
[ -f bench/RESULTS.md ] && cp bench/RESULTS.md "$old"
"$BUILD/bench/rvtrace_bench" --programs programs --out bench/RESULTS.md "${@:2}"
python3 bench/results_md.py carry "$old" bench/RESULTS.md
python3 bench/boots.py "$BUILD"
