# Sourced by the decode --jobs tests (decode_jobs.sh, decode_jobs_sources.sh).
# jobs_same DIR "N..." ARGS...: rvtrace decode ARGS once alone (0) and with
# --jobs N for each N of the list; stdout, stderr, exit status and the
# --pcs/--lcov/--coverage-listing/--lbr files (written in DIR) must match.
jobs_same() {
    local t=$1 jobs=$2; shift 2
    local n
    for n in 0 $jobs; do
        local j=(); [ "$n" = 0 ] || j=(--jobs "$n")
        set +e
        "$RVT_BIN" decode "$@" "${j[@]}" \
            --pcs "$t/pcs.$n" --lcov "$t/lcov.$n" --coverage-listing "$t/cov.$n" --lbr "$t/lbr.$n" \
            > "$t/out.$n" 2> "$t/err.$n"
        echo $? > "$t/rc.$n"
        set -e
    done
    for n in $jobs; do
        for f in out err rc pcs lcov cov lbr; do
            cmp "$t/$f.0" "$t/$f.$n" || { echo "FAIL: decode $* --jobs $n: $f differs"; exit 1; }
        done
    done
}
