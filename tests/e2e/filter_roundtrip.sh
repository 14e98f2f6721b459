#!/bin/bash
# Filtered trace round trip (docs/filter.md): for every workload and each
# filter/trigger configuration, the hart runs once through the filter stage
# (--ingress keeps the RVT_IREC_F_UNQUAL/TRIG_* flags, --pcs-traced lists
# the traced instructions); then E-Trace and N-Trace streams are encoded
# from the .rvi in two modes each, and `rvtrace decode --pcs` must give
# exactly the --pcs-traced list: no PC of an untraced block, none missing.
set -u
T="$RVT_TMP/filter_rt"
mkdir -p "$T"
shopt -s nullglob
progs=("$RVT_SRC"/programs/*.elf)
[ ${#progs[@]} -gt 0 ] || { echo "no programs/*.elf: skipped"; exit 77; }

# name|retire width|options (symbols every workload's runtime defines)
configs=(
    "on-off|1|--trace-on main --trace-off rt_report"
    "range|1|--trace-range rt_putc:rt_report"
    "user-super|1|--filter 0:priv=u+s"
    "handlers|1|--filter 0:exception --filter 1:interrupt"
    "latch-notify|1|--comparator 0:p=iaddr:eq:rt_putc,s=iaddr:gt:rt_putc,mode=latch --filter 0:comp=0 --trace-notify rt_puthex --comparator 1:p=iaddr:eq:memcpy,notify=p"
    "range-w4|4|--trace-range main:rt_exit --filter 1:priv=s"
)
# encoder|options
encs=(
    "etrace|--te-opt delta"
    "etrace|--te-opt all --te-attr return_stack_size=4"
    "ntrace|--nt-opt btm"
    "ntrace|--nt-opt htm,seq-jump,implicit-return=3,repeat-history"
)
fail=0 n=0 gaps=0
for elf in "${progs[@]}"; do
    p=$(basename "$elf" .elf)
    case "$p" in long*) continue ;; esac       # 240M instructions: bench only
    for c in "${configs[@]}"; do
        IFS='|' read -r cname w opts <<<"$c"
        # shellcheck disable=SC2086
        if ! "$RVT_BIN" run "$elf" --quiet --retire-width "$w" $opts --ingress "$T/r.rvi" \
                --pcs-traced "$T/want.pcs" --pcs-retired "$T/all.pcs" >/dev/null 2>"$T/err"; then
            echo "FAIL run $p $cname: $(head -1 "$T/err")"; fail=1; continue
        fi
        [ "$(wc -l <"$T/want.pcs")" -lt "$(wc -l <"$T/all.pcs")" ] && gaps=$((gaps + 1))
        for e in "${encs[@]}"; do
            IFS='|' read -r kind eopts <<<"$e"
            ext=te; [ "$kind" = ntrace ] && ext=nt
            n=$((n + 1))
            # shellcheck disable=SC2086
            if ! "$RVT_BIN" encode --$kind $eopts "$T/r.rvi" -o "$T/x.$ext" 2>"$T/err"; then
                echo "FAIL encode $p $cname $eopts: $(head -1 "$T/err")"; fail=1; continue
            fi
            "$RVT_BIN" decode --elf "$elf" "$T/x.$ext" --pcs "$T/got.pcs" 2>"$T/err"
            if ! cmp -s "$T/want.pcs" "$T/got.pcs"; then
                line=$(cmp "$T/want.pcs" "$T/got.pcs" 2>&1 | sed -n 's/.* line \([0-9]*\).*/\1/p')
                echo "FAIL $p $cname $eopts: $(wc -l <"$T/want.pcs") traced, $(wc -l <"$T/got.pcs") decoded;" \
                     "first difference at #${line:-end}: want $(sed -n "${line:-1}p" "$T/want.pcs") got $(sed -n "${line:-1}p" "$T/got.pcs"); $(head -1 "$T/err")"
                fail=1
            fi
        done
    done
done
# Data trace (dFilters, table 2.3): the te_data packets hold exactly the
# accesses the stage let through (the hart's --data-out is downstream of it).
dconfigs=(
    "--filter 0:dtype=store+amo-add+amo-swap,dsize=4+8,data"
    "--comparator 0:p=daddr:ge:0x80000d00,s=daddr:lt:0x80000d20,mode=and --filter 0:comp=0,data --filter 1:priv=m"
    "--trace-on main --trace-off rt_report --filter 2:dtype=load,data"
    # split loads (4.3): a response goes where its request went
    "--data-split 4 --trace-on main --trace-off rt_report --filter 2:dtype=load+amo-add,data"
)
for p in amo ecall csr privs; do
    elf="$RVT_SRC/programs/$p.elf"
    [ -f "$elf" ] || continue
    for opts in "${dconfigs[@]}"; do
        n=$((n + 1))
        # shellcheck disable=SC2086
        "$RVT_BIN" run "$elf" --quiet --te-data --etrace "$T/d.te" --data-out "$T/want.data" \
            --data --pcs-traced "$T/want.pcs" $opts >/dev/null 2>"$T/err" ||
            { echo "FAIL run $p $opts: $(head -1 "$T/err")"; fail=1; continue; }
        "$RVT_BIN" decode "$T/d.te" --data "$T/got.data" 2>"$T/err"
        rc=$?
        "$RVT_BIN" decode --elf "$elf" "$T/d.te" --pcs "$T/got.pcs" 2>>"$T/err"
        rc=$((rc + $?))
        # a clean decode too: e.g. no split request left without its response
        if [ $rc -ne 0 ] || ! cmp -s "$T/want.data" "$T/got.data" || ! cmp -s "$T/want.pcs" "$T/got.pcs"; then
            echo "FAIL data $p $opts: data $(wc -l <"$T/want.data")/$(wc -l <"$T/got.data")," \
                 "pcs $(wc -l <"$T/want.pcs")/$(wc -l <"$T/got.pcs"); $(head -1 "$T/err")"
            fail=1
        fi
    done
done
echo "filter round trip: $n streams checked, $gaps runs with untraced instructions"
# The configurations must leave instructions out somewhere, or the test
# would prove nothing.
[ "$gaps" -gt 0 ] || { echo "FAIL: no configuration filtered anything"; fail=1; }
exit $fail
