#!/bin/bash
# bench/results_md.py: the Python benches (boots.py, parallel.py) each
# replace their own "## " section of bench/RESULTS.md, and bench/run.sh
# carries those sections over the C harness's rewrite of the file -- only
# those: a section the harness dropped or renamed must not come back.
set -u
: "${RVT_SRC:?}" "${RVT_TMP:?}"
command -v python3 >/dev/null || { echo "skip: no python3"; exit 77; }
t="$RVT_TMP/bench_results"
rm -rf "$t"; mkdir -p "$t"
cat >"$t/old.md" <<'MD'
# rvtrace benchmark results

## Long workload (old figures)

| a | 1 |

## Parallel decoding (decode --jobs, docs/parallel.md)

parallel figures

## Booting real software

### U-Boot

boot figures
MD
cat >"$t/new.md" <<'MD'
# rvtrace benchmark results

## Long workload (new figures)

| a | 2 |
MD
python3 "$RVT_SRC/bench/results_md.py" carry "$t/old.md" "$t/new.md" || { echo "FAIL carry"; exit 1; }
want='# rvtrace benchmark results

## Long workload (new figures)

| a | 2 |

## Parallel decoding (decode --jobs, docs/parallel.md)

parallel figures

## Booting real software

### U-Boot

boot figures'
if [ "$(cat "$t/new.md")" = "$want" ]; then echo "ok   carry keeps the Python sections, drops the old harness one"
else echo "FAIL carry:"; diff <(echo "$want") "$t/new.md"; exit 1; fi
# Replacing a section in the middle leaves the others as they were.
python3 - "$RVT_SRC/bench" "$t/new.md" <<'PY' || { echo "FAIL write_section"; exit 1; }
import sys
sys.path.insert(0, sys.argv[1])
import results_md
results_md.write_section(sys.argv[2], "Parallel decoding", "## Parallel decoding (x)\n\nnew parallel\n")
PY
grep -qx "new parallel" "$t/new.md" && ! grep -q "^parallel figures" "$t/new.md" &&
    grep -qx "boot figures" "$t/new.md" && grep -qx "| a | 2 |" "$t/new.md" &&
    [ "$(grep -c '^## ' "$t/new.md")" = 3 ] ||
    { echo "FAIL write_section:"; cat "$t/new.md"; exit 1; }
echo "ok   write_section replaces one section in place"
# The C harness's row filters replace their rows in an existing results
# file; a file not there yet gets the rows as printed (it failed before).
if [ -n "${RVT_BIN:-}" ]; then
    "$RVT_BIN" bench --decoders-only --programs "$RVT_SRC/programs" --long crc.elf --out "$t/fresh.md" \
        >"$t/rows.txt" 2>/dev/null || { echo "FAIL --decoders-only into a new file"; exit 1; }
    cmp -s "$t/rows.txt" "$t/fresh.md" && [ "$(grep -c 'decoder' "$t/fresh.md")" = 4 ] ||
        { echo "FAIL --decoders-only rows:"; cat "$t/fresh.md"; exit 1; }
    "$RVT_BIN" bench --decoders-only --programs "$RVT_SRC/programs" --long crc.elf --out "$t/fresh.md" \
        >/dev/null 2>&1 && [ "$(grep -c 'decoder' "$t/fresh.md")" = 4 ] ||
        { echo "FAIL --decoders-only again: rows not replaced in place"; cat "$t/fresh.md"; exit 1; }
    echo "ok   a row filter writes a results file that is not there yet, then replaces its rows"
    # never renamed over something that is not a regular file (a device: /dev/null once was)
    mkdir -p "$t/dir.md"
    "$RVT_BIN" bench --decoders-only --programs "$RVT_SRC/programs" --long crc.elf --out "$t/dir.md" \
        >/dev/null 2>"$t/err.txt"
    rc=$?
    [ "$rc" = 2 ] && grep -q "not a regular file" "$t/err.txt" && [ -d "$t/dir.md" ] ||
        { echo "FAIL --out DIR: rc $rc"; cat "$t/err.txt"; exit 1; }
    echo "ok   --out that is not a regular file is refused (exit 2)"
fi
