#!/bin/bash
# decode --count for both trace kinds (issue 18): the hart's number of
# retired instructions, from E-Trace and N-Trace alike; beside the listing
# on stdout it comes after the whole listing (the listing's buffer is
# written out at the end of the trace, before the count is printed).
set -eu
T="$RVT_TMP/decode_count"; mkdir -p "$T"
P="$RVT_SRC/programs/ecall.elf"
"$RVT_BIN" run "$P" --quiet --etrace "$T/e.te" --ntrace "$T/e.nt" --pcs-retired "$T/hart.pcs" > /dev/null
n=$(wc -l < "$T/hart.pcs")
for k in te nt; do
    got=$("$RVT_BIN" decode --elf "$P" "$T/e.$k" --count)
    [ "$got" = "$n instructions" ] || { echo "$k: --count said '$got', the hart retired $n"; exit 1; }
    "$RVT_BIN" decode --elf "$P" "$T/e.$k" --listing > "$T/$k.listing"
    "$RVT_BIN" decode --elf "$P" "$T/e.$k" --listing --count > "$T/$k.both"
    { cat "$T/$k.listing"; echo "$n instructions"; } | cmp - "$T/$k.both" ||
        { echo "$k: --listing --count is not the listing followed by the count"; exit 1; }
done
echo "decode --count: ok ($n instructions)"
