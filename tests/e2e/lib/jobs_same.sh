# Sourced by the decode --jobs tests (decode_jobs.sh, decode_jobs_sources.sh).
# jobs_same DIR "N..." ARGS...: rvtrace decode ARGS once alone (0) and with
# --jobs N for each N of the list; stdout, stderr, exit status and the
# --pcs/--lcov/--coverage-listing/--lbr files (written in DIR) must match.
# jobs_pcl_same: the same with the PC lists alone (--pcs, --pcs-bin),
# which the pieces write themselves (docs/parallel.md "One writer, in
# order").
jobs_same() {
    local t=$1 jobs=$2; shift 2
    jobs_same_outs "$t" "$jobs" "pcs=pcs lcov=lcov cov=coverage-listing lbr=lbr" "$@"
}
jobs_pcl_same() {
    local t=$1 jobs=$2; shift 2
    jobs_same_outs "$t" "$jobs" "pcs=pcs pcb=pcs-bin" "$@"
}
# jobs_same_outs DIR "N..." "NAME=OPTION..." ARGS...: the files NAME.n
# written by --OPTION.
jobs_same_outs() {
    local t=$1 jobs=$2 outs=$3; shift 3
    local n o f
    for n in 0 $jobs; do
        local j=() w=(); [ "$n" = 0 ] || j=(--jobs "$n")
        for o in $outs; do w+=("--${o#*=}" "$t/${o%%=*}.$n"); done
        set +e
        "$RVT_BIN" decode "$@" "${j[@]}" "${w[@]}" > "$t/out.$n" 2> "$t/err.$n"
        echo $? > "$t/rc.$n"
        set -e
    done
    for n in $jobs; do
        for f in out err rc $(for o in $outs; do echo "${o%%=*}"; done); do
            cmp "$t/$f.0" "$t/$f.$n" || { echo "FAIL: decode $* --jobs $n: $f differs"; exit 1; }
        done
    done
}
