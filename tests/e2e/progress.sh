#!/usr/bin/env bash
# Progress lines on a terminal (cli_progress.c): `run`, both `decode`s and `encode`
# print "\rrvtrace: ..." lines on stderr when it is a terminal (here a
# pseudo-terminal from script(1)) and RVTRACE_PROGRESS seconds have passed
# (0: at every check: run checks every 20 M instructions, the decoders
# every 2^20); never when stderr is not a terminal.
set -u
: "${RVT_BIN:?}" "${RVT_SRC:?}" "${RVT_TMP:?}"
command -v script >/dev/null 2>&1 || { echo "SKIP: no script(1)"; exit 77; }
T="$RVT_TMP/progress"; rm -rf "$T"; mkdir -p "$T"
elf="$RVT_SRC/programs/long.elf"
[ -f "$elf" ] || { echo "SKIP: no long.elf"; exit 77; }
fails=0
# on_tty NAME PATTERN CMD...: CMD under a pseudo-terminal prints PATTERN.
on_tty() {
  local name=$1 pat=$2; shift 2
  RVTRACE_PROGRESS=0 script -qec "$(printf '%q ' "$@")" /dev/null </dev/null | tr '\r' '\n' >"$T/$name.tty"
  grep -qE "$pat" "$T/$name.tty" || { echo "FAIL: $name: no line matching '$pat':"; head -5 "$T/$name.tty"; fails=$((fails + 1)); }
}
"$RVT_BIN" run "$elf" --max-instr 3000000 --etrace "$T/l.te" --ntrace "$T/l.nt" >/dev/null 2>&1
"$RVT_BIN" run "$elf" --max-instr 1500000 --ingress "$T/l.rvi" >/dev/null 2>&1
on_tty run '^rvtrace: [0-9,]+ instructions, [0-9]+ s' "$RVT_BIN" run "$elf" --max-instr 45000000
on_tty te '^rvtrace: .*l\.te: [0-9]+% of [0-9]+ bytes, [0-9,]+ instructions' \
  "$RVT_BIN" decode --elf "$elf" "$T/l.te" --pcs "$T/te.pcs"
on_tty nt '^rvtrace: .*l\.nt: [0-9]+% of [0-9]+ bytes, [0-9,]+ instructions' \
  "$RVT_BIN" decode --elf "$elf" "$T/l.nt" --pcs "$T/nt.pcs"
for k in etrace:te ntrace:nt; do
  on_tty "encode-${k##*:}" '^rvtrace: .*l\.rvi: [0-9,]+ instructions' \
    "$RVT_BIN" encode --${k%%:*} "$T/l.rvi" -o "$T/e.${k##*:}"
done
# The count is exact: 2^21 instructions, so the last batch (block or
# piece) crosses 2^21 and the last line shows the whole count, which a
# count off by a block would not (too few: no line at 2^21; too many:
# another number).  Every path that counts: the outputs' batches
# (--pcs-bin, the file writers, on a second thread), the pieces' PC lists,
# the replay of --jobs.
"$RVT_BIN" run "$elf" --max-instr 2097152 --etrace "$T/c.te" --ntrace "$T/c.nt" >/dev/null 2>&1
# last_line NAME CMD...: CMD's last progress line ends in "2,097,152 instructions".
last_line() {
  local name=$1; shift
  RVTRACE_PROGRESS=0 script -qec "$(printf '%q ' "$@")" /dev/null </dev/null | tr '\r' '\n' >"$T/$name.tty"
  grep -E '^rvtrace: ' "$T/$name.tty" | tail -1 | grep -qE ' 2,097,152 instructions, [0-9]+ s' ||
    { echo "FAIL: $name: last line not 2,097,152 instructions:"; grep -E '^rvtrace: ' "$T/$name.tty" | tail -2; fails=$((fails + 1)); }
}
for p in te nt; do
  n=$("$RVT_BIN" decode --elf "$elf" "$T/c.$p" --count)
  [ "$n" = "2097152 instructions" ] || { echo "FAIL: count-$p: $n"; fails=$((fails + 1)); }
  last_line "count-$p-bin" "$RVT_BIN" decode --elf "$elf" "$T/c.$p" --pcs-bin "$T/c.bin"
  last_line "count-$p-lcov" "$RVT_BIN" decode --elf "$elf" "$T/c.$p" --lcov "$T/c.lcov"
  last_line "count-$p-thread" "$RVT_BIN" decode --elf "$elf" "$T/c.$p" --pcs "$T/c.pcs" --write-thread
  last_line "count-$p-jobs" "$RVT_BIN" decode --elf "$elf" "$T/c.$p" --pcs-bin "$T/c.bin" --jobs 2
  last_line "count-$p-jobs-lcov" "$RVT_BIN" decode --elf "$elf" "$T/c.$p" --lcov "$T/c.lcov" --jobs 2
done
# Not a terminal: nothing but the summary.
RVTRACE_PROGRESS=0 "$RVT_BIN" decode --elf "$elf" "$T/l.te" --pcs "$T/te.pcs" 2>"$T/err"
[ ! -s "$T/err" ] || { echo "FAIL: progress without a terminal:"; head -3 "$T/err"; fails=$((fails + 1)); }
rm -f "$T/l.rvi"    # 18 MB
echo "progress: $fails failures"
[ $fails -eq 0 ]
