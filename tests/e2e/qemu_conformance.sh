#!/bin/bash
# The reference hart against QEMU (docs/conformance-hart.md): for every
# program, `rvtrace run --pcs` must list the same executed PCs as QEMU's
# `-singlestep -d exec,nochain` log (minus QEMU's 6-instruction reset ROM
# at 0x1000), print the same console output and exit with the same code.
# - Programs that take interrupts are compared up to the first one (QEMU's
#   timer follows the host clock, ours counts instructions).  Programs that
#   programs/README.md marks as interrupt-timing dependent are compared by
#   console and exit status only; those it lists above 50 million
#   instructions are skipped.
# - QEMU 7.2 executes misaligned loads without trapping; the hart traps.
#   Such programs are compared up to the divergence, which must be a
#   misaligned access, and their console output modulo that difference;
#   then again with `--misaligned emulate`, which must match QEMU fully.
# Skips (77) when QEMU or the programs are missing.
set -u
: "${RVT_SRC:?}" "${RVT_BIN:?}" "${RVT_TMP:?}"
command -v qemu-system-riscv64 >/dev/null || { echo "skip: no qemu-system-riscv64"; exit 77; }
objdump=$(command -v riscv64-unknown-elf-objdump || command -v riscv64-linux-gnu-objdump ||
          command -v llvm-objdump || echo false)
out="$RVT_TMP/qemu_conformance"
mkdir -p "$out"

progs=()
for d in "$RVT_SRC/programs" "$RVT_SRC/../shared/interop/programs"; do
    for p in "$d"/*.elf; do [ -f "$p" ] && progs+=("$p"); done
done
[ ${#progs[@]} -gt 0 ] || { echo "skip: no programs"; exit 77; }

# Console difference of programs with a misaligned load that QEMU executes
# without trapping (interop/programs/README.md: traps.S prints misaligned=2
# on a trapping platform, 1 on QEMU 7.2, and counts the extra trap).
misaligned_console_fix() { perl -pe 's/traps=(\d+) misaligned=1/"traps=".($1+1)." misaligned=2"/e'; }

qemu_pcs() {   # log -> one PC per line, lowercase hex, no 0x, no leading zeros
    sed -n 's/^Trace [0-9]*: 0x[0-9a-f]* \[[0-9a-f]*\/\([0-9a-f]*\)\/.*/\1/p' "$1" |
        sed 's/^0*\([0-9a-f]\)/\1/' |
        awk 'BEGIN{rom=1} rom && /^10(0|1)[0-9a-f]$/ {next} {rom=0; print}'
}

fail=0
for p in "${progs[@]}"; do
    n=$(basename "$p" .elf)
    # The 200M+-instruction workload would write a multi-gigabyte exec log;
    # it checks its own result, and every code path it uses is compared here
    # in the smaller programs.
    case "$n" in long*) echo "skip $n: too long for QEMU's single-step log"; continue ;; esac
    case "$n" in ctr*|pmu*) echo "skip $n: Smctr/Sscofpmf/SBI PMU are rvtrace-only (not in QEMU 7.2)"; continue ;; esac
    # QEMU 7.2's trigger module predates Debug spec 1.0 (tinfo without a
    # version, no trace actions): trigger*.elf checks the 1.0 behaviour
    case "$n" in trigger*) echo "skip $n: Sdtrig 1.0 trace actions are rvtrace-only (not in QEMU 7.2)"; continue ;; esac
    case "$(od -An -tx1 -j4 -N1 "$p" | tr -d ' ')" in
        01) qemu=qemu-system-riscv32 ;;
        *) qemu=qemu-system-riscv64 ;;
    esac
    command -v $qemu >/dev/null || { echo "$n: skipped (no $qemu)"; continue; }
    # programs/README.md's table: instruction count and interrupt timing
    row=""
    [ "$p" = "$RVT_SRC/programs/$n.elf" ] &&
        row=$(grep "^| \`$n.elf\` |" "$RVT_SRC/programs/README.md" 2>/dev/null)
    insns=$(printf '%s' "$row" | awk -F'|' '{gsub(/[^0-9]/, "", $6); print $6}')
    if [ -n "$insns" ] && [ "$insns" -gt 50000000 ]; then
        echo "skip $n: $insns instructions, beyond this test's budget"
        continue
    fi
    if printf '%s' "$row" | grep -q '| yes |$'; then
        # where interrupts land differs (QEMU: host clock; hart: instret),
        # and QEMU logs a PC twice when a CLINT write raises an interrupt:
        # only the console and the exit status must agree
        timeout 60 $qemu -machine virt -bios none -kernel "$p" -nographic -monitor none \
            </dev/null >"$out/$n.qout" 2>/dev/null
        qrc=$?
        "$RVT_BIN" run "$p" --quiet --max-instr 50000000 >"$out/$n.out" 2>"$out/$n.err"
        rc=$?
        if cmp -s "$out/$n.qout" "$out/$n.out" && [ "$rc" -eq "$qrc" ]; then
            echo "ok   $n: console and exit status (interrupt timing dependent)"
        else
            echo "FAIL $n: console or exit status differs from QEMU"
            fail=1
        fi
        continue
    fi
    timeout 60 $qemu -machine virt -bios none -kernel "$p" -nographic -monitor none \
        -singlestep -d exec,nochain,int -D "$out/$n.qlog" </dev/null >"$out/$n.qout" 2>/dev/null
    qrc=$?
    "$RVT_BIN" run "$p" --quiet --max-instr 50000000 --pcs "$out/$n.pcs" >"$out/$n.out" 2>"$out/$n.err"
    rc=$?
    qemu_pcs "$out/$n.qlog" >"$out/$n.qpcs"
    # interrupts: compare up to the first one QEMU took
    nint=$(awk '/^Trace/ {n++} /async:1/ {print n; exit}' "$out/$n.qlog")
    qn=$(wc -l <"$out/$n.qpcs")
    limit=${nint:+$((nint - 6))}
    [ -n "$limit" ] || limit=$qn
    head -n "$limit" "$out/$n.qpcs" >"$out/$n.q.cmp"
    head -n "$limit" "$out/$n.pcs" >"$out/$n.r.cmp"
    first=$(cmp "$out/$n.q.cmp" "$out/$n.r.cmp" 2>/dev/null | sed -n 's/.* line \([0-9]*\).*/\1/p')
    note=""
    cons_q="$out/$n.qout"
    if [ -n "$first" ]; then
        # allowed only when the hart trapped on a misaligned access QEMU did
        # not trap on: the PC before is a load, and QEMU simply went on
        pc=$(sed -n "${first}p" "$out/$n.q.cmp")
        prev=$(sed -n "$((first - 1))p" "$out/$n.q.cmp")
        insn=$($objdump -d "$p" 2>/dev/null | grep -i "^ *${prev}:" | head -1)
        if printf '%s\n' "$insn" | grep -Pq '\t(c\.)?(lw|lh|lhu|lwu|ld|sw|sh|sd|flw|fld|fsw|fsd)\t'; then
            note=" (compared up to the misaligned access at $prev, which QEMU 7.2 does not trap)"
            misaligned_console_fix <"$out/$n.qout" >"$out/$n.qout.fixed"
            cons_q="$out/$n.qout.fixed"
            # with --misaligned emulate the hart performs them as QEMU does:
            # then the whole PC stream (up to an interrupt) and the console match
            "$RVT_BIN" run "$p" --quiet --max-instr 50000000 --misaligned emulate \
                --pcs "$out/$n.em.pcs" >"$out/$n.em.out" 2>/dev/null
            if ! cmp -s "$out/$n.q.cmp" <(head -n "$limit" "$out/$n.em.pcs") ||
               { [ -z "$nint" ] && ! cmp -s "$out/$n.qout" "$out/$n.em.out"; }; then
                echo "FAIL $n: with --misaligned emulate the PC stream or console differs from QEMU"
                fail=1
                continue
            fi
            note="$note; with --misaligned emulate: all equal"
        else
            echo "FAIL $n: PC streams differ at line $first: qemu $pc, rvtrace $(sed -n "${first}p" "$out/$n.r.cmp")"
            fail=1
            continue
        fi
    elif [ -z "$nint" ] && [ "$(wc -l <"$out/$n.pcs")" -ne "$qn" ]; then
        echo "FAIL $n: $qn PCs in QEMU, $(wc -l <"$out/$n.pcs") in rvtrace"
        fail=1
        continue
    fi
    if ! cmp -s "$cons_q" "$out/$n.out"; then
        echo "FAIL $n: console output differs (see $out/$n.out, $cons_q)"
        fail=1
        continue
    fi
    if [ "$rc" -ne "$qrc" ]; then
        echo "FAIL $n: exit status $rc, QEMU $qrc"
        fail=1
        continue
    fi
    [ -n "$nint" ] && note="$note (compared up to the first interrupt, PC $limit)"
    [ -n "$first" ] && limit="$((first - 1)) of $limit"
    echo "ok   $n: $limit PCs$note"
done
exit $fail
