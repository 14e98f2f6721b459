#!/usr/bin/env bash
# make fuzz: build every libFuzzer target with clang into build-fuzz/ and run
# each for FUZZ_SECONDS (default 60), one process at a time at nice 10.
#
#   FUZZ_SECONDS=N     time per target (libFuzzer -max_total_time)
#   FUZZ_TARGETS="a b" only these targets (names of fuzz/targets/*.c)
#   FUZZ_TIMEOUT=N     per-input timeout in seconds (default 10)
#   FUZZ_BUILD=DIR     build directory (default build-fuzz)
#   FUZZ_JOBS=N        build parallelism (default 2)
#
# Build: CMake project fuzz/CMakeLists.txt with CMAKE_C_COMPILER=clang; the
# library sources are compiled with -fsanitize=fuzzer-no-link,address,undefined.
# Seeds: fuzz/seeds.sh writes build-fuzz/seeds/<target>/ from rvtrace's own
# output on the workloads plus ../shared/interop when present.  The corpus a
# target grows is kept in build-fuzz/corpus/<target>/ across runs.
# Limits on every run: -rss_limit_mb=512 -malloc_limit_mb=256.  ASan's
# quarantine of freed blocks is cut to 64 MiB (ASAN_OPTIONS, before any of
# the caller's): its default 256 MiB counts in the RSS, and a fast target
# that frees many small blocks (perfdata, ~300k inputs/s) reached 542 MiB
# on a CI machine with no leak and 24 MiB live.  With 64 MiB it peaks at
# about 150 MiB; use-after-free is still caught for the last 64 MiB freed.
# Each run appends "date target seconds execs cov ft corpus status" to
# build-fuzz/campaign.tsv (fuzz/summary.sh totals it).
# A crash, leak, timeout or OOM: the input is minimised into
# tests/regress/<target>/ (replayed by `make test`) and the script exits 1.
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
OUT=${FUZZ_BUILD:-build-fuzz}
SECS=${FUZZ_SECONDS:-60}
TMO=${FUZZ_TIMEOUT:-10}
JOBS=${FUZZ_JOBS:-2}
NICE="nice -n 10"
export ASAN_OPTIONS="quarantine_size_mb=64${ASAN_OPTIONS:+:$ASAN_OPTIONS}"

if ! command -v clang >/dev/null 2>&1; then
  echo "fuzz: clang not found: run RVT_SETUP_FUZZ=1 bash scripts/setup.sh" >&2
  exit 1
fi

mkdir -p "$OUT"
cmake -S fuzz -B "$OUT" -G Ninja -DCMAKE_C_COMPILER=clang >"$OUT/cmake.log" 2>&1 \
  || { cat "$OUT/cmake.log" >&2; echo "fuzz: configure failed" >&2; exit 1; }
$NICE cmake --build "$OUT" -j "$JOBS" || { echo "fuzz: build failed" >&2; exit 1; }

targets=${FUZZ_TARGETS:-$(ls fuzz/targets/*.c 2>/dev/null | xargs -n1 basename 2>/dev/null | sed 's/\.c$//')}
if [ -z "$targets" ]; then
  echo "fuzz: no targets in fuzz/targets/"; exit 0
fi

bash fuzz/seeds.sh "$OUT/seeds" $targets || echo "fuzz: seed generation incomplete (continuing)" >&2

# Extra libFuzzer flags of a target: its source's "FUZZ_ARGS:" line.
target_args() { sed -n 's/.*FUZZ_ARGS:\(.*\)\*\/.*/\1/p;s/.*FUZZ_ARGS:\(.*\)$/\1/p' "fuzz/targets/$1.c" | head -1; }

fail=0
printf '%-16s %8s %14s %8s %8s %8s %8s  %s\n' target seconds executions exec/s cov ft rss_mb status
for t in $targets; do
  bin="$OUT/fuzz_$t"
  [ -x "$bin" ] || { echo "fuzz: $bin missing" >&2; fail=1; continue; }
  corpus="$OUT/corpus/$t"; arts="$OUT/artifacts/$t"; log="$OUT/logs/$t.log"
  mkdir -p "$corpus" "$arts" "$OUT/logs" "$OUT/seeds/$t"
  rm -f "$arts"/*
  # Dictionary: fuzz/dict/<target>.dict, else the one of its format
  # (the name before "_": etrace_flow uses etrace.dict).
  dict=""
  for d in "fuzz/dict/$t.dict" "fuzz/dict/${t%%_*}.dict"; do
    [ -f "$d" ] && { dict="-dict=$d"; break; }
  done
  # shellcheck disable=SC2046
  $NICE "$bin" -max_total_time="$SECS" -timeout="$TMO" -rss_limit_mb=512 \
      -malloc_limit_mb=256 -print_final_stats=1 -artifact_prefix="$arts/" \
      $dict $(target_args "$t") "$corpus" "$OUT/seeds/$t" >"$log" 2>&1
  rc=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  last=$(grep -E '^#[0-9]+.*cov: ' "$log" | tail -1)
  cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last"); ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
  ncorp=$(ls "$corpus" | wc -l)
  status=ok
  if [ $rc -ne 0 ] || ls "$arts"/* >/dev/null 2>&1; then
    status="FAIL(rc=$rc)"; fail=1
    mkdir -p "tests/regress/$t"
    for a in "$arts"/*; do
      [ -f "$a" ] || continue
      base=$(basename "$a"); keep="tests/regress/$t/$base"
      # Minimise (crash/leak/timeout alike) into a scratch file; keep the
      # minimised input only if it still fails, else the raw one.
      min="$OUT/min/$base"; mkdir -p "$OUT/min"; rm -f "$min"
      $NICE "$bin" -minimize_crash=1 -max_total_time=60 -timeout="$TMO" -rss_limit_mb=512 \
          -malloc_limit_mb=256 -exact_artifact_path="$min" "$a" >"$log.min" 2>&1
      if [ -f "$min" ] && ! $NICE "$bin" -timeout="$TMO" -rss_limit_mb=512 -malloc_limit_mb=256 \
           -runs=1 "$min" >/dev/null 2>&1; then cp "$min" "$keep"; else cp "$a" "$keep"; fi
      echo "fuzz: $t: $base kept as $keep (log: $log)" >&2
    done
    grep -m1 -A12 -E 'ERROR: |runtime error|fuzz invariant|ALARM|out-of-memory|leak' "$log" >&2
  fi
  execs=${execs:-0}
  rss=$(sed -n 's/^stat::peak_rss_mb: *//p' "$log" | tail -1)
  printf '%-16s %8s %14s %8s %8s %8s %8s  %s\n' "$t" "$SECS" "$execs" "$(( execs / (SECS > 0 ? SECS : 1) ))" "${cov:-?}" "${ft:-?}" "${rss:-?}" "$status"
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%FT%TZ)" "$t" "$SECS" "$execs" "${cov:-}" "${ft:-}" "$ncorp" "$status" >>"$OUT/campaign.tsv"
done
[ $fail -eq 0 ] && echo "fuzz: all targets clean" || echo "fuzz: FAILURES (inputs kept under tests/regress/)" >&2
exit $fail
