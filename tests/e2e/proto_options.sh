#!/bin/bash
# Issue 14 "The CLI": dump, decode and encode share one option table
# (tools/rvtrace/cli_opts.c); an option the trace's protocol cannot honour is
# a usage error (exit 2) in one line naming the option and the protocol, and
# `rvtrace help CMD` lists every option of the table the command takes.
set -u
: "${RVT_SRC:?}" "${RVT_BIN:?}" "${RVT_TMP:?}"
t="$RVT_TMP/proto_options"
rm -rf "$t"; mkdir -p "$t"
P=$RVT_SRC/programs/sort.elf
[ -f "$P" ] || { echo "SKIP: no $P"; exit 77; }
fail=0
bad() { echo "FAIL $*"; fail=1; }
"$RVT_BIN" run "$P" --quiet --etrace "$t/s.te" --ntrace "$t/s.nt" --ingress "$t/s.rvi" >/dev/null ||
    { echo "FAIL run"; exit 1; }

refused() {   # refused OPTION PROTOCOL -- command...
    local opt=$1 proto=$2; shift 3
    "$@" >"$t/out" 2>"$t/err"
    local rc=$?
    [ $rc -eq 2 ] || { bad "$opt with $proto: status $rc, want 2"; return; }
    [ "$(wc -l <"$t/err")" -eq 1 ] || bad "$opt with $proto: $(wc -l <"$t/err") error lines"
    grep -q -- "option $opt cannot be used with $proto" "$t/err" ||
        bad "$opt with $proto: '$(head -1 "$t/err")'"
    [ -s "$t/out" ] && bad "$opt with $proto: wrote to stdout"
    echo "ok   $opt refused for $proto"
}
refused --addresses E-Trace -- "$RVT_BIN" dump --addresses "$t/s.te"
refused --summary "tandem verification" -- "$RVT_BIN" dump --tv --summary "$t/s.te"
refused --container N-Trace -- "$RVT_BIN" decode --elf "$P" --container encap "$t/s.nt"
# (--image/--raw FILE@ADDR serves both protocols since issue 15: image_map.sh)
refused --spike-reset-vector N-Trace -- "$RVT_BIN" decode --elf "$P" --spike-reset-vector "$t/s.nt"
refused --data-out N-Trace -- "$RVT_BIN" decode --elf "$P" --data-out "$t/d" "$t/s.nt"
# (--src selects an encapsulation srcID of E-Trace since issue 16: encap_sources.sh)
refused --nt-src E-Trace -- "$RVT_BIN" decode --elf "$P" --nt-src 1:0 "$t/s.te"
refused --nt-opt E-Trace -- "$RVT_BIN" encode --etrace --nt-opt btm "$t/s.rvi" -o "$t/x.te"
refused --te-attr N-Trace -- "$RVT_BIN" encode --ntrace --te-attr version=2.0 "$t/s.rvi" -o "$t/x.nt"
[ -e "$t/x.te" ] || [ -e "$t/x.nt" ] && bad "a refused encode left an output"

# help CMD: every option of the table rows that name CMD (D dump, X decode,
# E encode), its alias too; each is then accepted (no "unknown option").
cd "$t" || exit 1            # the probes below write nothing, but here if they did
table=$RVT_SRC/tools/rvtrace/cli_opts.c
[ -f "$table" ] || { echo "FAIL: no $table"; exit 1; }
for c in dump:D decode:X encode:E; do
    cmd=${c%:*} bit=${c#*:}
    help=$("$RVT_BIN" help "$cmd")
    opts=$(grep -E '^    \{ O_[A-Z_]+,' "$table" | grep -E "[ |]$bit[ |,]" |
           sed -E 's/^    \{ O_[A-Z_]+, "([^"]*)", (NULL|"([^"]*)"),.*/\1 \3/')
    [ -n "$opts" ] || { bad "no table rows for $cmd"; continue; }
    n=0
    for o in $opts; do
        n=$((n + 1))
        grep -q -- "$o" <<<"$help" || bad "help $cmd lacks $o"
        "$RVT_BIN" "$cmd" "$o" x y z >/dev/null 2>"$t/err"
        grep -q "unknown option" "$t/err" && bad "$cmd does not accept $o (listed in the table)"
    done
    echo "ok   help $cmd lists the table's $n options"
done
exit $fail
