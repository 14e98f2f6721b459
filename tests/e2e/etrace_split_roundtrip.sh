#!/bin/bash
# E-Trace data trace over the split load interface (4.3; tables 7.4, 7.5,
# 7.9, 7.10): for every workload and split window N in 1, 4, 16, 32,
# `rvtrace run --te-data --data-split N --data-out` then
# `rvtrace decode --data` must list the same accesses in the same order
# (both at the response, docs/etrace.md "Split loads"); the same accesses
# as the unified run, in some order; the instruction trace must still
# decode to the traced PCs (--pcs-traced: the trigger workloads switch
# their own trace off; both runs go through the filter stage).  Then the split .rvi records re-encode to the
# same stream, and a stream missing a request or cut inside a response
# fails with byte offsets.  Runs stop at 300000 instructions (long.elf is
# a throughput workload).
set -u
MAX=(--max-instr 300000)
mkdir -p "$RVT_TMP"
T="$RVT_TMP/te_split"
mkdir -p "$T"
fail=0
runs=0
for elf in "$RVT_SRC"/programs/*.elf; do
    p=$(basename "$elf" .elf)
    "$RVT_BIN" run "$elf" "${MAX[@]}" --data-out "$T/u.txt" --pcs-traced "$T/u.pcs" --quiet > /dev/null 2>&1
    [ $? -le 1 ] || { echo "FAIL $p: unified run"; fail=1; continue; }
    sort "$T/u.txt" > "$T/u.sorted"
    for w in 1 4 16 32; do
        args=("${MAX[@]}" --etrace "$T/t.te" --te-data --data-split "$w" --data-out "$T/h.txt"
              --pcs-traced "$T/pcs.txt" --quiet)
        [ "$p" = sort ] && args+=(--retire-width 4)
        "$RVT_BIN" run "$elf" "${args[@]}" > /dev/null 2>&1
        rc=$?
        [ $rc -le 1 ] || { echo "FAIL $p [$w]: run rc=$rc"; fail=1; continue; }
        grep -q "^split_loads=1$" "$T/t.te.attrs" || { echo "FAIL $p [$w]: no split_loads"; fail=1; }
        "$RVT_BIN" decode "$T/t.te" --data "$T/d.txt" || { echo "FAIL $p [$w]: decode"; fail=1; }
        cmp -s "$T/h.txt" "$T/d.txt" ||
            { echo "FAIL $p [$w]: decoded accesses differ"; diff "$T/h.txt" "$T/d.txt" | head -5; fail=1; }
        sort "$T/h.txt" | cmp -s - "$T/u.sorted" || { echo "FAIL $p [$w]: not the unified accesses"; fail=1; }
        "$RVT_BIN" decode --elf "$elf" "$T/t.te" --pcs "$T/dpcs.txt" 2> /dev/null
        cmp -s "$T/pcs.txt" "$T/dpcs.txt" || { echo "FAIL $p [$w]: instruction trace differs"; fail=1; }
        runs=$((runs + 1))
    done
    n=$(wc -l < "$T/h.txt")
    loads=$(grep -c '^\(load\|amo_\)' "$T/h.txt")
    echo "ok $p: $n accesses ($loads split), windows 1 4 16 32"
done

# Responses really come out of order: with 16 IDs the decoded order is not
# the unified (request) order for a load-heavy workload.
"$RVT_BIN" run "$RVT_SRC/programs/sort.elf" --data-out "$T/su.txt" --quiet > /dev/null
"$RVT_BIN" run "$RVT_SRC/programs/sort.elf" --etrace "$T/s.te" --te-data --data-split 16 \
    --ingress "$T/s.rvi" --data-out "$T/sh.txt" --quiet > /dev/null
cmp -s "$T/su.txt" "$T/sh.txt" && { echo "FAIL sort: split order equals request order"; fail=1; }
"$RVT_BIN" dump "$T/s.te" > "$T/s.dump" || { echo "FAIL dump of a split stream"; fail=1; }
for f in split_load_aligned split_load_data; do
    grep -q "format=$f " "$T/s.dump" || { echo "FAIL dump: no $f packet"; fail=1; }
done
# The .rvi keeps the split phases (record 0x04): encoding it again gives
# the same bytes as the live run.
"$RVT_BIN" encode --etrace "$T/s.rvi" -o "$T/s2.te" --te-data --te-attr split_loads=1 \
    --te-attr index_width=4 2> "$T/enc.err" || { echo "FAIL encode .rvi"; cat "$T/enc.err"; fail=1; }
cmp -s "$T/s.te" "$T/s2.te" || { echo "FAIL .rvi re-encode differs"; fail=1; }
# The same split records into a unified encoder: unified packets at each
# response, the same access list.
"$RVT_BIN" encode --etrace "$T/s.rvi" -o "$T/s3.te" --te-data 2> /dev/null
"$RVT_BIN" decode "$T/s3.te" --data "$T/s3.txt" && cmp -s "$T/sh.txt" "$T/s3.txt" ||
    { echo "FAIL unified encoding of split records"; fail=1; }

# The hart's split records (.rvi 0x04, `rvtrace dump`): IDs below N, at
# most N outstanding, an ID requested again only after its response, every
# request answered, a response repeating its request, loads and atomics
# only, and some response out of request order (table 4.9, docs/hart.md).
for w in 1 4 16; do
    "$RVT_BIN" run "$RVT_SRC/programs/amo.elf" --ingress "$T/h$w.rvi" --data-split "$w" --quiet > /dev/null
    "$RVT_BIN" dump "$T/h$w.rvi" > "$T/h$w.dump" || { echo "FAIL dump h$w.rvi"; fail=1; }
    python3 - "$T/h$w.dump" "$w" <<'PY' || { echo "FAIL hart split model, N=$w"; fail=1; }
import sys
n = int(sys.argv[2])
out, order, bad, reqs, late = {}, [], [], 0, 0
for line in open(sys.argv[1]):
    if not line.startswith('data '):
        continue
    f = dict(kv.split('=') for kv in line.split()[1:])
    flags, dtype = int(f['flags'], 16), int(f['dtype'])
    if not flags & 6:
        if dtype == 0 or dtype >= 8:
            bad.append('unified load/atomic: ' + line)
        continue
    lrid = int(f['lrid'])
    key = (f['iaddr'], f['addr'], f['dtype'], f['dsize'])
    if lrid >= n:
        bad.append('lrid %d >= %d' % (lrid, n))
    if flags & 2:
        reqs += 1
        if lrid in out:
            bad.append('lrid %d reused while outstanding' % lrid)
        out[lrid] = (key, reqs)
        order.append(reqs)
    else:
        if lrid not in out or out[lrid][0] != key or f['lresp'] != '2':
            bad.append('response does not match: ' + line)
            continue
        if out[lrid][1] != min(v[1] for v in out.values()):
            late += 1      # an older request is still waiting
        del out[lrid]
    if len(out) > n:
        bad.append('%d outstanding' % len(out))
if out:
    bad.append('%d requests never answered' % len(out))
if n > 1 and late == 0:
    bad.append('responses all in request order')
if n == 1 and late:
    bad.append('out of order with one ID')
if bad:
    print('\n'.join(bad[:5]))
print('hart split N=%d: %d requests, %d answered before an older one' % (n, reqs, late))
sys.exit(1 if bad else 0)
PY
done

# Corrupt streams (amo: loads and atomics): an error with an offset, no crash.
"$RVT_BIN" run "$RVT_SRC/programs/amo.elf" --etrace "$T/c.te" --te-data --data-split 4 --quiet > /dev/null
for k in noreq cut; do cp "$T/c.te.attrs" "$T/$k.te.attrs"; done
want=$(python3 - "$T/c.te" "$T/noreq.te" "$T/cut.te" <<'PY'
import sys
b = bytes(open(sys.argv[1], 'rb').read())
frames = []
i = 0
while i < len(b):
    ln = b[i] & 31
    frames.append((i, (b[i] >> 5) & 3, b[i:i + 1 + ln]))
    i += 1 + ln
# te_data payload bits 2:0 = format (table 7.4 request 000/001, 7.5 response 100)
data = [(o, f) for o, t, f in frames if t == 3]
req = next((o, f) for o, f in data if f[1] & 7 in (0, 1))
# index: bits 5.. after format:3 size:2 (index_width 2)
idx = (req[1][1] >> 5) & 3
resp = next((o, f) for o, f in data if o > req[0] and f[1] & 7 == 4 and (f[1] >> 5) & 3 == idx)
out = b[:req[0]] + b[req[0] + len(req[1]):]
open(sys.argv[2], 'wb').write(out)
# the response moved back by the dropped request's length
print(resp[0] - len(req[1]), end=' ')
last = [(o, f) for o, f in data if f[1] & 7 == 4 and len(f) > 2][-1]
open(sys.argv[3], 'wb').write(b[:last[0] + 2])
print(last[0])
PY
)
set -- $want
"$RVT_BIN" decode "$T/noreq.te" --data "$T/noreq.txt" 2> "$T/noreq.err"
rc=$?
[ $rc -eq 1 ] && grep -q "offset $1: error: te_data: response for an unknown index" "$T/noreq.err" ||
    { echo "FAIL missing request: rc=$rc, want an error at $1"; cat "$T/noreq.err"; fail=1; }
"$RVT_BIN" decode "$T/cut.te" --data "$T/cut.txt" 2> "$T/cut.err"
rc=$?
[ $rc -eq 1 ] && grep -q "offset $2: error: .*stream ends inside a packet" "$T/cut.err" &&
    grep -q "split transfers without a response at the end" "$T/cut.err" ||
    { echo "FAIL cut response: rc=$rc, want an error at $2"; cat "$T/cut.err"; fail=1; }

# A window the hart does not model is a usage error.
"$RVT_BIN" run "$RVT_SRC/programs/amo.elf" --data-split 33 --quiet > /dev/null 2>&1
[ $? -eq 2 ] || { echo "FAIL --data-split 33 accepted"; fail=1; }
echo "$runs split runs"
exit $fail
