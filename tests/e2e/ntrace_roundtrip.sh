#!/bin/bash
# N-Trace round trip: for every workload, the hart's retired PCs must equal
# what `rvtrace decode` rebuilds from the N-Trace stream, for BTM and HTM x
# each option alone x all options x with/without periodic sync+timestamps.
# The hart runs once per program (ingress saved as .rvi, plus one direct
# `run --ntrace`); each configuration is then `rvtrace encode --ntrace`.
# The reference is `--pcs-traced` (what the trace holds): trigger*.elf
# switch their own trace off and on through the hart's trigger unit
# (docs/hart.md); for every other program it must equal `--pcs-retired`.
set -u
T="$RVT_TMP/ntrace_roundtrip"
mkdir -p "$T"
shopt -s nullglob
progs=("$RVT_SRC"/programs/*.elf)
[ ${#progs[@]} -gt 0 ] || { echo "no programs/*.elf yet: skipped"; exit 77; }
opts_alone=("" seq-jump implicit-return=3 implicit-return=2 repeat-history all-jumps
            no-addr-diff extend-msb context)
all="seq-jump,implicit-return=3,repeat-history,all-jumps,extend-msb,context"
fail=0; n=0
first_diff() {
    cmp "$1" "$2" | head -1
    local line; line=$(cmp "$1" "$2" 2>/dev/null | sed -n 's/.* line \([0-9]*\).*/\1/p')
    [ -n "$line" ] && echo "  instruction #$line: hart $(sed -n ${line}p "$1") decoded $(sed -n ${line}p "$2")"
}
for elf in "${progs[@]}"; do
    p=$(basename "$elf" .elf)
    case "$p" in long*|*_long*) continue ;; esac    # the 200M-instruction workload: bench only
    case "$p" in fpu*) continue ;; esac    # F/D workloads (1-2M instructions): tests/e2e/fpu_trace.sh
    if ! timeout 60 "$RVT_BIN" run "$elf" --pcs-traced "$T/$p.pcs" --pcs-retired "$T/$p.ret" \
            --ingress "$T/$p.rvi" \
            --ntrace "$T/$p.run.nt" --nt-opt htm,implicit-return=3,repeat-history >/dev/null 2>"$T/$p.runerr"; then
        grep -q "no 'run'\|unknown option" "$T/$p.runerr" && { echo "rvtrace run not available: skipped"; exit 77; }
        echo "FAIL run $p: $(head -1 "$T/$p.runerr")"; fail=1; continue
    fi
    case "$p" in
        trigger*) ;;
        *) cmp -s "$T/$p.pcs" "$T/$p.ret" || { echo "FAIL $p: --pcs-traced differs from --pcs-retired"; fail=1; } ;;
    esac
    "$RVT_BIN" decode --elf "$elf" "$T/$p.run.nt" --pcs "$T/dec.pcs" 2>/dev/null
    cmp -s "$T/$p.pcs" "$T/dec.pcs" || { echo "FAIL $p run --ntrace"; first_diff "$T/$p.pcs" "$T/dec.pcs"; fail=1; }
    # decode --count (no instruction events) counts the same instructions
    cnt=$("$RVT_BIN" decode --elf "$elf" "$T/$p.run.nt" --count 2>/dev/null)
    [ "$cnt" = "$(wc -l < "$T/$p.pcs") instructions" ] || { echo "FAIL $p decode --count: $cnt"; fail=1; }
    for mode in btm htm; do
        for o in "${opts_alone[@]}" "$all"; do
            for extra in "" ",sync=3:6,timestamps"; do
                cfg="$mode${o:+,$o}$extra"
                n=$((n + 1))
                if ! "$RVT_BIN" encode --ntrace "$T/$p.rvi" -o "$T/x.nt" --nt-opt "$cfg" 2>"$T/err"; then
                    echo "FAIL encode $p $cfg: $(head -1 "$T/err")"; fail=1; continue
                fi
                "$RVT_BIN" decode --elf "$elf" "$T/x.nt" --pcs "$T/dec.pcs" 2>"$T/err"
                if ! cmp -s "$T/$p.pcs" "$T/dec.pcs"; then
                    echo "FAIL $p --nt-opt $cfg"; first_diff "$T/$p.pcs" "$T/dec.pcs"; head -2 "$T/err"
                    fail=1
                fi
            done
        done
    done
done
echo "ntrace round trip: $n configurations checked"
exit $fail
