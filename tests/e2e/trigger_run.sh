#!/bin/bash
# The hart's trigger unit drives the traces (docs/hart.md "Trigger module",
# E-Trace 4.2.4 table 4.7): programs/trigger*.elf program trace-off early,
# trace-on at traced_fn's entry, trace-off at its exit, two trace-notify
# triggers and an action-0 breakpoint.  For retire widths 1 and 4:
# - the program passes (its own WARL, hit-bit and breakpoint checks);
# - E-Trace and N-Trace decode to exactly `--pcs-traced`, from the run's
#   own streams (the encoders see only the hart's pulses) and from
#   `encode` of the run's .rvi;
# - --pcs-traced is strictly shorter than --pcs-retired and is an ordered
#   subsequence of it, holding traced_fn's entry 6 times;
# - the E-Trace listing shows the trace stopping 7 times and restarting 6
#   times at traced_fn.
set -u
: "${RVT_SRC:?}" "${RVT_BIN:?}" "${RVT_TMP:?}"
T="$RVT_TMP/trigger_run"
mkdir -p "$T"
fail=0
bad() { echo "FAIL $*"; fail=1; }
for p in trigger trigger_rv32; do
    elf="$RVT_SRC/programs/$p.elf"
    [ -f "$elf" ] || { bad "$elf missing"; continue; }
    for w in 1 4; do
        tag="$p w=$w"
        if ! "$RVT_BIN" run "$elf" --retire-width $w --etrace "$T/t.te" --ntrace "$T/t.nt" \
                --pcs-traced "$T/traced.pcs" --pcs-retired "$T/retired.pcs" --ingress "$T/t.rvi" \
                >"$T/out" 2>"$T/err"; then
            bad "$tag: run: $(head -2 "$T/out" "$T/err")"; continue
        fi
        grep -q "^trigger: PASS" "$T/out" || bad "$tag: program output: $(head -2 "$T/out")"
        nt=$(wc -l <"$T/traced.pcs") nr=$(wc -l <"$T/retired.pcs")
        [ "$nt" -gt 0 ] && [ "$nt" -lt "$nr" ] || bad "$tag: traced $nt, retired $nr"
        # the traced PCs appear in the retired list in the same order
        awk 'NR == FNR { t[++n] = $0; next } i < n && $0 == t[i + 1] { i++ } END { exit i != n }' \
            "$T/traced.pcs" "$T/retired.pcs" || bad "$tag: --pcs-traced is not a subsequence of --pcs-retired"
        for s in te nt; do
            "$RVT_BIN" decode --elf "$elf" "$T/t.$s" --pcs "$T/dec.pcs" 2>"$T/err" ||
                bad "$tag: decode $s: $(head -1 "$T/err")"
            cmp -s "$T/traced.pcs" "$T/dec.pcs" || bad "$tag: run --${s/te/etrace} decodes to $(wc -l <"$T/dec.pcs") PCs, --pcs-traced has $nt"
        done
        "$RVT_BIN" encode --etrace "$T/t.rvi" -o "$T/x.te" --te-opt all --te-attr return_stack_size=4 &&
            "$RVT_BIN" decode --elf "$elf" "$T/x.te" --pcs "$T/dec.pcs" 2>/dev/null &&
            cmp -s "$T/traced.pcs" "$T/dec.pcs" || bad "$tag: encode --etrace of the .rvi"
        "$RVT_BIN" encode --ntrace "$T/t.rvi" -o "$T/x.nt" --nt-opt htm,repeat-history &&
            "$RVT_BIN" decode --elf "$elf" "$T/x.nt" --pcs "$T/dec.pcs" 2>/dev/null &&
            cmp -s "$T/traced.pcs" "$T/dec.pcs" || bad "$tag: encode --ntrace of the .rvi"
        # the listing shows each stop (the early trace-off and 6 at
        # traced_fn's exit) and each restart at traced_fn's entry
        "$RVT_BIN" decode --elf "$elf" "$T/t.te" >"$T/listing" 2>/dev/null
        stops=$(grep -c "^-- trace stopped after" "$T/listing")
        [ "$stops" -eq 7 ] || bad "$tag: listing shows $stops stops, want 7"
        entry=$(riscv64-unknown-elf-nm "$elf" 2>/dev/null | awk '$3 == "traced_fn" { sub(/^0+/, "", $1); print $1 }')
        if [ -n "$entry" ]; then
            starts=$(grep -c "^-- sync at $entry " "$T/listing")
            [ "$starts" -eq 6 ] || bad "$tag: listing shows $starts restarts at traced_fn ($entry), want 6"
            c=$(grep -cx "$entry" "$T/traced.pcs")
            [ "$c" -eq 6 ] || bad "$tag: traced_fn entry $entry traced $c times, want 6"
        fi
        echo "ok $tag: $nt of $nr retired instructions traced, $stops stops in the listing"
    done
done
exit $fail
