#!/bin/bash
# Options mean the same in any order and each spelling one thing (issue #13
# item 7): decode's stdout output does not depend on where --pcs stands
# (E-Trace and N-Trace alike); a missing option value is one error; the
# new spellings (run --pcs-executed, --data-records, --verbose; decode
# --pcs-retired, --data-out) do what the old ones did.
set -u
: "${RVT_SRC:?}" "${RVT_BIN:?}" "${RVT_TMP:?}"
t="$RVT_TMP/option_order"
rm -rf "$t"; mkdir -p "$t"
P=$RVT_SRC/programs/sort.elf
fail=0
bad() { echo "FAIL $*"; fail=1; }
"$RVT_BIN" run "$P" --quiet --etrace "$t/s.te" --te-data --ntrace "$t/s.nt" --pcs-retired "$t/want.pcs" \
    --data-out "$t/want.data" >/dev/null || { echo "FAIL run"; exit 1; }
for tr in s.te s.nt; do
    d() { "$RVT_BIN" decode --elf "$P" "$t/$tr" "$@"; }
    d --json >"$t/json.ref" 2>/dev/null
    d --json --pcs "$t/a.pcs" >"$t/json.a" 2>/dev/null
    d --pcs "$t/b.pcs" --json >"$t/json.b" 2>/dev/null
    [ -s "$t/json.ref" ] || bad "$tr --json: no output"
    cmp -s "$t/json.ref" "$t/json.a" || bad "$tr: --json --pcs F differs from --json"
    cmp -s "$t/json.ref" "$t/json.b" || bad "$tr: --pcs F --json differs from --json"
    cmp -s "$t/want.pcs" "$t/a.pcs" && cmp -s "$t/want.pcs" "$t/b.pcs" || bad "$tr: --pcs differs"
    d >"$t/list.ref" 2>/dev/null
    d --pcs "$t/c.pcs" --listing >"$t/list.a" 2>/dev/null
    d --listing --pcs "$t/c.pcs" >"$t/list.b" 2>/dev/null
    [ -s "$t/list.ref" ] || bad "$tr: no listing"
    cmp -s "$t/list.ref" "$t/list.a" || bad "$tr: --pcs F --listing prints no listing"
    cmp -s "$t/list.ref" "$t/list.b" || bad "$tr: --listing --pcs F prints no listing"
    [ "$(d --pcs "$t/d.pcs" | wc -c)" -eq 0 ] || bad "$tr: --pcs alone writes to stdout"
    d --pcs-retired "$t/e.pcs" >/dev/null 2>&1; cmp -s "$t/want.pcs" "$t/e.pcs" || bad "$tr: --pcs-retired"
    d --json --listing >/dev/null 2>"$t/err"; rc=$?
    [ $rc -eq 2 ] || bad "$tr: --json --listing: status $rc, want 2"
    echo "ok   $tr"
done
# a missing value: one line, status 2
for args in "run $P --etrace" "decode $t/s.te --elf" "dump $t/s.nt --nt-opt" "import pcs x -o"; do
    "$RVT_BIN" $args >/dev/null 2>"$t/err"; rc=$?
    [ $rc -eq 2 ] || bad "'$args': status $rc, want 2"
    [ "$(wc -l <"$t/err")" -eq 1 ] || bad "'$args': $(wc -l <"$t/err") error lines: $(tr '\n' '|' <"$t/err")"
done
# spellings
"$RVT_BIN" run "$P" --quiet --pcs "$t/x1" >/dev/null && "$RVT_BIN" run "$P" --quiet --pcs-executed "$t/x2" >/dev/null &&
    [ -s "$t/x1" ] && cmp -s "$t/x1" "$t/x2" ||
    bad "run --pcs-executed differs from --pcs"
"$RVT_BIN" decode "$t/s.te" --data-out "$t/d1" && "$RVT_BIN" decode "$t/s.te" --data "$t/d2" &&
    cmp -s "$t/want.data" "$t/d1" && cmp -s "$t/d1" "$t/d2" || bad "decode --data-out / --data"
"$RVT_BIN" run "$P" --verbose >/dev/null 2>"$t/v"; "$RVT_BIN" run "$P" --stats >/dev/null 2>"$t/s"
grep -q "cycles" "$t/v" && grep -q "cycles" "$t/s" || bad "run --verbose / --stats: no long summary"
"$RVT_BIN" run "$P" --quiet --data-records --ingress "$t/r1.rvi" >/dev/null &&
    "$RVT_BIN" run "$P" --quiet --data --ingress "$t/r2.rvi" >/dev/null && cmp -s "$t/r1.rvi" "$t/r2.rvi" ||
    bad "run --data-records differs from --data"
exit $fail
