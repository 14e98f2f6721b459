#!/bin/bash
# One model, two ways to program it (docs/tci.md): run --tci --etrace OUT
# has rvtrace program the Trace Control Interface as a driver would, its
# E-Trace settings turned into register values (resync_mode ->
# trTeInstSyncMode, resync_max -> trTeInstSyncMax, a 4-bit field: 20 reads
# back as 15; full-address / implicit-return -> trTeInstFeatures), and the
# encoder behind the registers takes them from there: OUT.attrs says what
# the registers held, OUT is the PIB sink's encapsulated stream, and it
# decodes to the hart's retired PCs.  --pib beside it is a usage error.
set -u
: "${RVT_SRC:?}" "${RVT_BIN:?}" "${RVT_TMP:?}"
T="$RVT_TMP/tci_etrace"
mkdir -p "$T"
fail=0
bad() { echo "FAIL: $*"; fail=1; }
elf="$RVT_SRC/programs/recurse.elf"
"$RVT_BIN" run "$elf" --quiet --tci --etrace "$T/a.te" --te-attr resync_mode=packets --te-attr resync_max=4 \
    --pcs-retired "$T/hart.pcs" >/dev/null || bad "run a"
grep -qx "resync_mode=packets" "$T/a.te.attrs" && grep -qx "resync_max=4" "$T/a.te.attrs" &&
    grep -qx "container=encap" "$T/a.te.attrs" || bad "a.te.attrs: $(grep -e resync -e container "$T/a.te.attrs")"
"$RVT_BIN" decode "$T/a.te" --elf "$elf" --pcs "$T/a.pcs" 2>/dev/null || bad "decode a"
cmp -s "$T/a.pcs" "$T/hart.pcs" || bad "a: PCs differ from the hart's"
"$RVT_BIN" run "$elf" --quiet --tci --etrace "$T/b.te" --te-attr options=full-address,implicit-return \
    --te-attr resync_max=20 >/dev/null || bad "run b"
grep -qx "resync_max=15" "$T/b.te.attrs" && grep -qx "options=full-address,implicit-return" "$T/b.te.attrs" ||
    bad "b.te.attrs: $(grep -e resync -e options "$T/b.te.attrs")"
"$RVT_BIN" decode "$T/b.te" --elf "$elf" --pcs "$T/b.pcs" 2>/dev/null || bad "decode b"
cmp -s "$T/b.pcs" "$T/hart.pcs" || bad "b: PCs differ from the hart's"
"$RVT_BIN" run "$elf" --quiet --tci --etrace "$T/c.te" --pib "$T/c.pib" >/dev/null 2>&1
[ $? = 2 ] || bad "--tci --etrace with --pib is not a usage error"
exit $fail
