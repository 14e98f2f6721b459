#!/bin/bash
# Run the workload ELFs under QEMU and report pass/fail (not part of CTest).
#   programs/check.sh [-c] [NAME...]     default: every programs/*.elf
#   -c   also count executed instructions: lines "Trace" of
#        -singlestep -d exec,nochain (QEMU's reset ROM at 0x1000 included)
#        (slow: long.elf, about 240 million lines, takes 10-30 minutes)
# Needs qemu-system-riscv64 / qemu-system-riscv32 (Debian: qemu-system-misc).
cd "$(dirname "$0")" || exit 2
count=0
if [ "$1" = -c ]; then count=1; shift; fi
names=("$@")
if [ ${#names[@]} -eq 0 ]; then
    for f in *.elf; do names+=("${f%.elf}"); done
fi
fails=0
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
printf '%-14s %-5s %-4s %13s  %s\n' program class rc insns output
for n in "${names[@]}"; do
    elf=$n.elf
    # ELF header byte 4 (EI_CLASS): 1 = 32-bit, 2 = 64-bit
    class=$(od -An -tu1 -j4 -N1 "$elf" | tr -d ' ')
    if [ "$class" = 1 ]; then q=qemu-system-riscv32; c=rv32; else q=qemu-system-riscv64; c=rv64; fi
    args=(-machine virt -bios none -kernel "$elf" -nographic -monitor none)
    timeout 60 $q "${args[@]}" > "$tmp" 2>&1; rc=$?
    out=$(tr -d '\r' < "$tmp")
    insns=-
    if [ $count = 1 ]; then
        # the log goes to stderr, piped; the console output is dropped
        insns=$(timeout 1800 $q "${args[@]}" -singlestep -d exec,nochain \
                -D /dev/stderr 2>&1 >/dev/null | grep -c '^Trace')
    fi
    [ "$rc" = 0 ] && echo "$out" | grep -q ': PASS' || fails=$((fails + 1))
    printf '%-14s %-5s %-4s %13s  %s\n' "$n" $c "$rc" "$insns" "$(echo "$out" | head -n 3 | tr '\n' ' ')"
done
echo "$((${#names[@]} - fails)) passed, $fails failed"
[ $fails = 0 ]
