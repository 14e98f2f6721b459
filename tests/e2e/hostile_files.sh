#!/usr/bin/env bash
# Hostile files given to every CLI entry point that reads a file: a zero-length
# file, a directory, a FIFO with no writer, a missing path, and a file of
# random bytes, each named like every format rvtrace reads (.elf .te .nt .rvi
# .csv .log .pcs).  Each must end (timeout) with a clear error naming the
# path, never a crash or sanitizer report.  docs/reliability.md.
set -u
: "${RVT_BIN:?}" "${RVT_SRC:?}" "${RVT_TMP:?}"
T="$RVT_TMP/hostile_files"
rm -rf "$T"; mkdir -p "$T"
fails=0; cases=0

elf=$(ls "$RVT_SRC"/programs/*.elf 2>/dev/null | head -1)

# check EXPECT LABEL PATH -- CMD...: EXPECT is "err" (must exit 1 or 2 and
# name PATH) or "any" (exit 0/1/2).  Exit 124 = hang, >=128 = signal.
check() {
  local expect=$1 label=$2 path=$3; shift 4
  cases=$((cases + 1))
  timeout 10 "$@" >"$T/out" 2>"$T/err" </dev/null
  local rc=$?
  local why=""
  if [ $rc -eq 124 ]; then why="hangs"
  elif [ $rc -gt 2 ]; then why="exit $rc (crash?)"
  elif grep -qE 'Sanitizer|runtime error' "$T/err"; then why="sanitizer report"
  elif [ "$expect" = err ] && [ $rc -eq 0 ]; then why="accepted"
  elif [ $rc -ne 0 ] && ! grep -qF -- "$path" "$T/err"; then why="error does not name $path"
  fi
  if [ -n "$why" ]; then
    fails=$((fails + 1))
    echo "FAIL: $label: $* -> $why"; sed 's/^/    /' "$T/err" | head -8
  fi
}

# A command is probed only when this build implements it (the placeholder
# CLI answers "this build has no ...").
implemented() { ! "$RVT_BIN" "$@" 2>&1 | grep -qE "this build (has no|cannot)"; }

head -c 4096 /dev/urandom >"$T/random.bin" 2>/dev/null || dd if=/dev/urandom of="$T/random.bin" bs=4096 count=1 2>/dev/null
for ext in elf te nt rvi csv log pcs; do
  : >"$T/empty.$ext"
  mkdir -p "$T/dir.$ext"
  mkfifo "$T/fifo.$ext"
  cp "$T/random.bin" "$T/random.$ext"
done

probe() {   # probe EXT CMD-TEMPLATE... ({} = the hostile path)
  local ext=$1; shift
  for kind in empty dir fifo missing random; do
    local p="$T/$kind.$ext"
    local expect=err
    [ "$kind" = empty ] || [ "$kind" = random ] && expect=any
    local cmd=(); for a in "$@"; do cmd+=("${a//\{\}/$p}"); done
    check $expect "$kind .$ext" "$p" -- "${cmd[@]}"
  done
}

if implemented run "$T/empty.elf"; then probe elf "$RVT_BIN" run {}; else echo "SKIP run"; fi
for ext in te nt rvi; do
  if implemented dump "$T/empty.$ext"; then probe $ext "$RVT_BIN" dump {}; else echo "SKIP dump .$ext"; fi
done
if [ -n "$elf" ]; then
  for ext in te nt; do
    if implemented decode --elf "$elf" "$T/empty.$ext"; then
      probe $ext "$RVT_BIN" decode --elf "$elf" {}
      probe elf "$RVT_BIN" decode --elf {} "$T/empty.$ext"
    else echo "SKIP decode .$ext"; fi
  done
fi
# import FORMAT IN -o OUT: one probe per importer (pcs needs the image).
for fe in refcsv:csv spikecsv:csv spikelog:log pcs:pcs; do
  fmt=${fe%%:*} ext=${fe#*:}
  extra=()
  [ "$fmt" = pcs ] && [ -n "$elf" ] && extra=(--elf "$elf")
  if implemented import "$fmt" "$T/empty.$ext" "${extra[@]}" -o "$T/o.rvi"; then
    probe $ext "$RVT_BIN" import "$fmt" {} "${extra[@]}" -o "$T/o.rvi"
  else echo "SKIP import $fmt"; fi
done

# Garbage read byte by byte: the first error is printed with its offset,
# its repeats at the following offsets fold into one line, and
# RVTRACE_MAX_ERRORS caps the lines (docs/cli.md "Diagnostics").
head -c 40 /dev/zero | tr '\0' '\377' >"$T/ff.te"
diag() {
  cases=$((cases + 1))
  if ! grep -qxF -- "$2" "$T/err"; then
    fails=$((fails + 1)); echo "FAIL: $1: no line '$2' in:"; sed 's/^/    /' "$T/err"
  fi
}
env -u RVTRACE_MAX_ERRORS "$RVT_BIN" dump "$T/ff.te" >/dev/null 2>"$T/err"
diag fold "rvtrace: $T/ff.te: offset 0: error: bad packet (corrupt or malformed data)"
diag fold "rvtrace: $T/ff.te: offsets 1-39: the same error 39 more times"
[ "$(wc -l <"$T/err")" -eq 2 ] || { fails=$((fails + 1)); echo "FAIL: fold: more than 2 lines"; cat "$T/err"; }
RVTRACE_MAX_ERRORS=1 "$RVT_BIN" dump "$T/ff.te" >/dev/null 2>"$T/err"
diag cap "rvtrace: 1 more diagnostic line not shown (RVTRACE_MAX_ERRORS=0 shows all)"

echo "hostile_files: $cases cases, $fails failures"
[ $cases -eq 0 ] && exit 77
[ $fails -eq 0 ]
