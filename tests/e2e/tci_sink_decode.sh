#!/bin/bash
# A Trace RAM Sink's buffer (FILE + FILE.attrs sink_* keys; TCI 1.0 "Trace
# RAM Sink", docs/tci.md) decodes with the ELF: a wrapped one from the
# first synchronisation point after the oldest byte (the byte at trRamWP),
# saying how many bytes were lost before it, and its PCs are the hart's
# last ones; one stopped on wrap decodes whole from its start; one whose
# size does not fit its addresses is an error (exit 1).
set -u
: "${RVT_SRC:?}" "${RVT_BIN:?}" "${RVT_TMP:?}"
T="$RVT_TMP/tci_sink_decode"
mkdir -p "$T"
fail=0
bad() { echo "FAIL: $*"; fail=1; }
elf="$RVT_SRC/programs/recurse.elf"
"$RVT_BIN" run "$elf" --quiet --ingress "$T/r.rvi" --pcs-retired "$T/hart.pcs" >/dev/null || bad "run"
# a te_inst sync packet (E-Trace 8.2) every 64 packets, so a wrapped
# buffer holds one after its first encapsulation sync point
"$RVT_BIN" encode --etrace "$T/r.rvi" -o "$T/s.te" --container encap --encap-sync-interval 256 \
    --te-attr resync_mode=packets --te-attr resync_interval=64 || bad "encode"
L=$(stat -c %s "$T/s.te")
R=1024                       # the ring: [0x80100000, 0x801003fc]
[ "$L" -gt $((2 * R)) ] || bad "stream of $L bytes too short to wrap"
WP=$((L % R))
# The sink after the stream went round: offsets [0, WP) hold its last WP
# bytes, [WP, R) the R - WP bytes before those.
tail -c $R "$T/s.te" >"$T/tail"
{ tail -c "$WP" "$T/tail"; head -c $((R - WP)) "$T/tail"; } >"$T/ring.bin"
attrs() {   # wp wrap stop
    grep -v '^#' "$T/s.te.attrs"
    printf 'sink_start=0x80100000\nsink_limit=0x801003fc\nsink_wp=%s\nsink_wrap=%s\nsink_stop_on_wrap=%s\n' "$@"
}
attrs "$(printf 0x%x $((0x80100000 + WP)))" 1 0 >"$T/ring.bin.attrs"
"$RVT_BIN" decode --elf "$elf" "$T/ring.bin" --pcs "$T/w.pcs" 2>"$T/err" || bad "decode wrapped: $(cat "$T/err")"
lost=$(sed -n 's/.*sink buffer wrapped (trRamWP 0x[0-9a-f]*): \([0-9]*\) bytes before the first synchronisation point lost.*/\1/p' "$T/err")
[ -n "$lost" ] || bad "wrapped: loss not reported: $(cat "$T/err")"
# a sync sequence (32 nulls) at least every 256 bytes + one packet
[ -n "$lost" ] && [ "$lost" -lt $((256 + 32 + 32 + 32)) ] || bad "wrapped: $lost bytes lost"
n=$(wc -l <"$T/w.pcs")
[ "$n" -gt 10 ] || bad "wrapped: only $n PCs"
tail -n "$n" "$T/hart.pcs" | cmp -s - "$T/w.pcs" || bad "wrapped: PCs are not the hart's last $n"
# --container naming the container does not hide the sink's state
"$RVT_BIN" decode --container encap --elf "$elf" "$T/ring.bin" --pcs "$T/w2.pcs" 2>"$T/err" ||
    bad "decode --container encap: $(cat "$T/err")"
grep -q "bytes before the first synchronisation point lost" "$T/err" || bad "--container encap: no loss said"
cmp -s "$T/w.pcs" "$T/w2.pcs" || bad "--container encap: other PCs"

# Stopped on wrap: the first R bytes, trRamWP back at trRamStart.
head -c $R "$T/s.te" >"$T/stop.bin"
attrs 0x80100000 1 1 >"$T/stop.bin.attrs"
"$RVT_BIN" decode --elf "$elf" "$T/stop.bin" --pcs "$T/s.pcs" 2>"$T/err"
grep -q "stopped on wrap: read whole" "$T/err" || bad "stopped: not said: $(cat "$T/err")"
n=$(wc -l <"$T/s.pcs")
[ "$n" -gt 10 ] || bad "stopped: only $n PCs"
head -n "$n" "$T/hart.pcs" | cmp -s - "$T/s.pcs" || bad "stopped: PCs are not the hart's first $n"

# A buffer whose size is not limit - start + 4
head -c 1000 "$T/s.te" >"$T/short.bin"
attrs 0x80100000 1 0 >"$T/short.bin.attrs"
"$RVT_BIN" decode --elf "$elf" "$T/short.bin" >/dev/null 2>"$T/err"
rc=$?
[ $rc = 1 ] || bad "short buffer: exit $rc, want 1"
grep -q "short.bin: sink buffer of 1000 bytes does not fit" "$T/err" || bad "short: $(cat "$T/err")"
exit $fail
