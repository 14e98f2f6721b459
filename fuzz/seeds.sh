#!/usr/bin/env bash
# Seed corpora for the fuzz targets: OUT/<target>/ for each target named.
#   bash fuzz/seeds.sh OUT target...
# Streams come from rvtrace itself (the gcc build in build/, built here if
# missing) running the workloads of programs/ in every trace mode, plus the
# reference streams of ../shared/interop when present (read in place, never
# copied into the repository).  Packet/flow seeds get the setting bytes the
# targets read (build-fuzz/mkseed).  Pieces that are missing or fail are
# skipped; the count of seeds per target is printed.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=$1; shift
FZ=$(dirname "$OUT")
want() { for t in $TARGETS; do [ "$t" = "$1" ] && return 0; done; return 1; }
TARGETS="$*"
for t in $TARGETS; do mkdir -p "$OUT/$t"; done
INTEROP=${RVT_INTEROP:-../shared/interop}   # override: RVT_INTEROP=DIR
W="$FZ/seedwork"; rm -rf "$W"; mkdir -p "$W"
MKSEED="$FZ/mkseed"

# The CLI, from the normal build.
if [ ! -x build/rvtrace ]; then
  (cmake -S . -B build -G Ninja >/dev/null && nice -n 10 cmake --build build -j 2 >/dev/null) \
    || echo "seeds: cannot build build/rvtrace; streams from rvtrace skipped" >&2
fi
RVT=build/rvtrace

# Trace modes: every option the encoders take (docs/format-te.md, format-nt.md).
TE_MODES=(
  "" "--te-opt full-address" "--te-opt implicit-return" "--te-opt implicit-except"
  "--te-opt sijump" "--te-opt branch-prediction --te-attr bpred_size=3"
  "--te-opt jump-target-cache --te-attr cache_size=3" "--te-opt all --te-attr bpred_size=3 --te-attr cache_size=3"
  "--te-attr version=1.1" "--te-attr notime=0 --te-attr time_width=16"
  "--te-attr resync_mode=packets --te-attr resync_max=0"
  "--te-attr return_stack_size=3 --te-opt implicit-return"
  "--te-attr call_counter_size=4 --te-opt implicit-return"
  "--te-attr nocontext=0 --te-attr context_width=8"
  "--comparator 0:p=iaddr:ge:main,notify=p"
)
NT_MODES=(
  "" "--nt-opt btm" "--nt-opt seq-jump" "--nt-opt implicit-return=1" "--nt-opt implicit-return=2"
  "--nt-opt repeat-history" "--nt-opt all-jumps" "--nt-opt no-addr-diff" "--nt-opt no-trap-addr"
  "--nt-opt timestamps" "--nt-opt context" "--nt-opt sync=1:0" "--nt-opt extend-msb"
  "--nt-src 4:3" "--nt-opt btm,implicit-return=3" "--nt-opt port=4" "--nt-opt icnt-bits=10"
  "--comparator 0:p=iaddr:ge:main,notify=p" "--nt-opt btm --comparator 0:p=iaddr:ge:main,notify=p"
)

# Regenerate only when the CLI changed since the last generation.
STAMP="$OUT/.stamp"
fresh=1
for t in $TARGETS; do [ -n "$(ls "$OUT/$t")" ] || fresh=0; done   # a new target
if [ $fresh = 1 ] && [ -f "$STAMP" ] && [ -x "$RVT" ] && [ "$STAMP" -nt "$RVT" ] && [ "$STAMP" -nt "$MKSEED" ]; then
  for t in $TARGETS; do echo "seeds: $t: $(ls "$OUT/$t" | wc -l) (cached)"; done
  exit 0
fi

# pump_pcs (fuzz/targets/pump_pcs.c): a flow target's seed (mkseed te|nt)
# after a byte whose bit 0 picks the protocol (SEL 0 E-Trace, 1 N-Trace).
pump_seed() {   # PROTO SEL PROG STREAM I
  want pump_pcs || return 0
  $MKSEED "$1" "$3" "$4" "$W/pump.pkt" "$W/pump.flow" "$4.attrs" 2>/dev/null || return 0
  [ -s "$W/pump.flow" ] && { printf "\\x0$2"; cat "$W/pump.flow"; } >"$OUT/pump_pcs/$1-$3-$5"
  rm -f "$W/pump.flow"
}

# Every trace mode on the flow targets' images (fuzz/fuzz_images.h); the
# default mode only on the other workloads.
IMAGES=" $(sed -n '/rvt_fuzz_image_names\[\] = {/,/};/p' fuzz/fuzz_images.h | grep -o '"[a-z0-9_]*"' | tr -d '"' | tr '\n' ' ') "
progs=$(ls programs/*.elf 2>/dev/null)
for elf in $progs; do
  p=$(basename "$elf" .elf)
  case $IMAGES in *" $p "*) nte=${#TE_MODES[@]}; nnt=${#NT_MODES[@]};; *) nte=1; nnt=1;; esac
  if [ -x "$RVT" ]; then
    if want rvi || want import; then
      timeout 60 $RVT run "$elf" --ingress "$W/$p.rvi" --pcs "$W/$p.pcs" >/dev/null 2>&1 || true
      [ -s "$W/$p.rvi" ] && want rvi && head -c 8192 "$W/$p.rvi" >"$OUT/rvi/$p.rvi"
      [ -s "$W/$p.pcs" ] && want import && { printf '\x03'; head -200 "$W/$p.pcs"; } >"$OUT/import/pcs-$p"
    fi
    if [ -x "$MKSEED" ]; then
      for ((i = 0; i < nte; i++)); do
        f="$W/$p-te$i.te"
        # shellcheck disable=SC2086
        timeout 60 $RVT run "$elf" --etrace "$f" ${TE_MODES[$i]} >/dev/null 2>&1 || continue
        $MKSEED te "$p" "$f" "$OUT/etrace_pkt/$p-$i" "$OUT/etrace_flow/$p-$i" "$f.attrs" 2>/dev/null
        pump_seed te 0 "$p" "$f" "$i"
        [ -f "$f.attrs" ] && want attrs && { printf '\x00'; cat "$f.attrs"; } >"$OUT/attrs/te-$p-$i"
      done
      for ((i = 0; i < nnt; i++)); do
        f="$W/$p-nt$i.nt"
        # shellcheck disable=SC2086
        timeout 60 $RVT run "$elf" --ntrace "$f" ${NT_MODES[$i]} >/dev/null 2>&1 || continue
        $MKSEED nt "$p" "$f" "$OUT/ntrace_msg/$p-$i" "$OUT/ntrace_flow/$p-$i" "$f.attrs" 2>/dev/null
        pump_seed nt 1 "$p" "$f" "$i"
        [ -f "$f.attrs" ] && want attrs && { printf '\x01'; cat "$f.attrs"; } >"$OUT/attrs/nt-$p-$i"
      done
    fi
  fi
  want elf && cp "$elf" "$OUT/elf/$p.elf"
done

# Tandem-verification traces (fuzz/targets/tv.c): the verifier's programs
# (amo RV64, crc_rv32 RV32) in every item mix, the verifier on (0x20) and
# off, chunked reads; byte 0 = parameters, then the first 2 KB of the .tvt.
if want tv && [ -x "$RVT" ]; then
  for pe in amo:0 crc_rv32:1; do
    p=${pe%%:*} x=${pe#*:}
    for mode in "" "--tv-eaddr" "--tv-mem" "--tv-eaddr --tv-mem"; do
      f="$W/$p-tv.tvt"; rm -f "$f"
      # shellcheck disable=SC2086
      timeout 60 $RVT run "programs/$p.elf" --max-instr 300 --tv "$f" $mode >/dev/null 2>&1
      [ -s "$f" ] || continue
      m=$(echo "$mode" | tr -d ' -'); m=${m:-plain}
      for sel in $((x | 0x20)) $((x | 0x20 | 0x40)) $((x | 0xc0)); do
        { printf "\\x$(printf %02x "$sel")"; head -c 2047 "$f"; } >"$OUT/tv/$p-$m-$sel"
      done
    done
  done
fi

# Data trace (fuzz/targets/etrace_data.c): te_inst + te_data streams of the
# programs with loads/stores, atomics, CSR accesses and misaligned accesses,
# in every data option (table 2.2); the first 4 KB of each (te_inst sync
# packets included: they restart the compression state).
DATA_PROGS="sort amo csr csr_rv32 crc_rv32 sort_rv32 misalign"
DATA_MODES=(
  "" "--te-attr data_compress=0" "--te-attr data_compress=1" "--te-attr data_compress=2"
  "--te-attr no_address=1" "--te-attr no_address=1 --te-attr data_compress=1"
  "--te-attr no_data=1" "--te-attr data_width=32"
)
if want etrace_data && [ -x "$RVT" ] && [ -x "$MKSEED" ]; then
  for p in $DATA_PROGS; do
    [ -f "programs/$p.elf" ] || continue
    for ((i = 0; i < ${#DATA_MODES[@]}; i++)); do
      f="$W/$p-ted$i.te"
      # shellcheck disable=SC2086
      timeout 60 $RVT run "programs/$p.elf" --max-instr 3000 --etrace "$f" --te-data \
        ${DATA_MODES[$i]} >/dev/null 2>&1   # exit 1 at --max-instr
      [ -s "$f" ] && [ -f "$f.attrs" ] || continue
      $MKSEED ted - "$f" "$OUT/etrace_data/$p-$i" /dev/null "$f.attrs" 2>/dev/null
    done
  done
fi

# Model targets (fuzz/targets/ctr.c, pmu.c): operations from what the hart
# did (build-fuzz/mkops).  ctr: ctr.elf programs CTR itself (CSR writes,
# miselect/mireg reads); other workloads run with CTR recording from reset
# in several configurations (M+S+U, depth 256, RASEMU, not-taken branches).
# pmu: the SBI PMU calls of pmu.elf (from its tandem-verification trace:
# a0..a7 at each ecall), as RV64, as RV32 and with the tally on.
MKOPS="$FZ/mkops"
if want ctr && [ -x "$RVT" ] && [ -x "$MKOPS" ]; then
  CTR_RUNS=("ctr:0x0" "sort:0x7" "recurse:0xF0007" "recurse:0x407" "coswap:0x407"
            "ecall:0x7" "fptr:0x1000000007" "sort_rv32:0x30007" "privs:0x1807")
  for pc in "${CTR_RUNS[@]}"; do
    p=${pc%%:*} c=${pc#*:}
    [ -f "programs/$p.elf" ] || continue
    f="$W/$p-ctr.rvi"; rm -f "$f"
    timeout 60 $RVT run "programs/$p.elf" --max-instr 20000 --ctr-control "$c" \
      --ingress "$f" --data-out /dev/null >/dev/null 2>&1
    [ -s "$f" ] && $MKOPS ctr "$f" "$c" "$OUT/ctr/$p-$c" 2>/dev/null
  done
fi
if want pmu && [ -x "$RVT" ] && [ -x "$MKOPS" ] && [ -f programs/pmu.elf ]; then
  f="$W/pmu.tvt"
  timeout 60 $RVT run programs/pmu.elf --tv "$f" >/dev/null 2>&1
  [ -s "$f" ] && $MKOPS pmu "$f" 64 "$OUT/pmu/pmu" 2>/dev/null
  for s in "$OUT"/pmu/pmu-*; do
    [ -f "$s" ] || continue
    { printf '\x01'; tail -c +2 "$s"; } >"$s.rv32"
    { printf '\x02'; tail -c +2 "$s"; } >"$s.tally"
  done
fi

# Reference streams (../shared/interop): packet-level seeds only (their
# programs are not the flow targets' images).
if [ -d "$INTEROP" ]; then
  if [ -x "$MKSEED" ]; then
    for f in "$INTEROP"/etrace-refflow/*/*.te_inst_raw; do
      [ -f "$f" ] || continue
      s=$(basename "$(dirname "$f")"); p=$(basename "$f" .te_inst_raw)
      kv=(version=2.0 iaddress_lsb=1)
      case $s in *debug*) kv+=(iaddress_lsb=0);; esac
      case $p in rv32mix) kv+=(iaddress_width=32);; esac
      $MKSEED te - "$f" "$OUT/etrace_pkt/ref-$s-$p" /dev/null - "${kv[@]}" 2>/dev/null
    done
    for f in "$INTEROP"/ntrace-refcode/*/*.nt; do
      [ -f "$f" ] || continue
      s=$(basename "$(dirname "$f")"); p=$(basename "$f" .nt)
      kv=(); case $s in btm*) kv+=(trTeInstMode=3);; esac
      $MKSEED nt - "$f" "$OUT/ntrace_msg/ref-$s-$p" /dev/null - "${kv[@]}" 2>/dev/null
    done
  fi
  if want import; then
    for f in "$INTEROP"/etrace-refflow/inputs/*.encoder_input.*.csv.gz; do
      b=$(basename "$f" .csv.gz); sel='\x00'; case $b in *itype3*) sel='\x04';; esac
      { printf "$sel"; zcat "$f" | head -150; } >"$OUT/import/refcsv-$b"
    done
    for f in "$INTEROP"/etrace-refflow/inputs/*.spike_pc_trace.gz; do
      { printf '\x01'; zcat "$f" | head -150; } >"$OUT/import/spikecsv-$(basename "$f" .gz)"
    done
  fi
  want elf && for f in "$INTEROP"/programs/*.elf; do cp "$f" "$OUT/elf/ref-$(basename "$f")"; done
fi

# Hand-written seeds for formats no tool here writes.
if want import; then
  printf '\x02core   0: 0x0000000080000000 (0x00000297) auipc   t0, 0x0\ncore   0: 3 0x0000000080000000 (0x00000297) x5  0x0000000080000000\ncore   0: 0x0000000080000004 (0x02028593) addi    a1, t0, 32\ncore   0: 3 0x0000000080000004 (0x02028593) x11 0x0000000080000020\ncore   0: exception trap_illegal_instruction, epc 0x0000000080000008\ncore   0:           tval 0x0000000000000000\n' >"$OUT/import/spikelog-hand"
fi
if want attrs; then
  printf '\x00# te\nversion=2.0\niaddress_width=64\niaddress_lsb=1\n' >"$OUT/attrs/te-hand"
  printf '\x01# nt\ntrTeInstMode=3\n' >"$OUT/attrs/nt-hand"
fi
if want filter; then
  # Each filter/trigger form of docs/filter.md, followed by random records.
  i=0
  for spec in 'c0:p=iaddr:ge:main,s=iaddr:lt:main+0x400,mode=and\nf0:comp=0' \
              'c1:p=iaddr:eq:f,s=iaddr:gt:f,mode=latch,notify=ps\nf2:comp=1,priv=m+u' \
              'c2:p=daddr:ge:0x80000800,s=iaddr:mask:0xff00\nf1:comp=2,dtype=load+store,dsize=4+8,data' \
              'f3:ecause=2+3+8,exception\nf4:interrupt\nf5:impdef=1/1' \
              'c3:p=tval:ne:0,mode=nand,s=context:le:7\nf0:comp=3,inst,data' \
              '2main\n3f+0x40\n4main+8\n2f'; do
    { printf "$spec\n\0"; head -c 720 /dev/urandom; } >"$OUT/filter/spec-$i"
    i=$((i + 1))
  done
  cp tests/regress/filter/* "$OUT/filter/" 2>/dev/null
fi

# Encoders: the hand-made record sequences kept as regression inputs
# (a loop with a call and a trap, flag and privilege changes, random).
if want encoders; then
  cp tests/regress/encoders/* "$OUT/encoders/" 2>/dev/null
fi

for t in $TARGETS; do n=$(ls "$OUT/$t" | wc -l); echo "seeds: $t: $n"; done
rm -rf "$W"
touch "$STAMP"
