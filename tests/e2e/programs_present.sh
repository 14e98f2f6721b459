#!/bin/bash
# Every program listed in programs/README.md's table must exist as a
# committed ELF whose header matches the ISA column, and every
# programs/*.elf must be listed: the table and the files stay in sync.
#   ISA rv64* -> EI_CLASS 2, rv32* -> EI_CLASS 1   (ELF header byte 4)
#   ISA with "c" after the base letters -> e_flags bit 0 (EF_RISCV_RVC)
#   e_machine (bytes 18-19) = 243, EM_RISCV
set -u
src=${RVT_SRC:?RVT_SRC not set}
dir=$src/programs
readme=$dir/README.md
fail=0
err() { echo "programs_present: $*" >&2; fail=1; }

byte() { od -An -tu1 -j "$2" -N 1 "$1" | tr -d ' \n'; }

[ -f "$readme" ] || { echo "programs_present: no $readme" >&2; exit 1; }
# table rows: | `name.elf` | isa | ...
rows=$(grep -E '^\| `[A-Za-z0-9_]+\.elf` \| rv(32|64)[a-z]+ \|' "$readme" |
       sed -E 's/^\| `([^`]+)` \| ([a-z0-9]+) \|.*/\1 \2/')
[ -n "$rows" ] || err "no program rows in the README table"
count=0
while read -r elf isa; do
    [ -n "$elf" ] || continue
    count=$((count + 1))
    f=$dir/$elf
    if [ ! -f "$f" ]; then err "$elf listed but missing"; continue; fi
    if [ -d "$src/.git" ] || [ -f "$src/.git" ]; then
        git -C "$src" ls-files --error-unmatch "programs/$elf" >/dev/null 2>&1 ||
            err "$elf is not committed"
    fi
    magic=$(od -An -tx1 -N 4 "$f" | tr -d ' \n')
    [ "$magic" = 7f454c46 ] || { err "$elf: not an ELF file"; continue; }
    class=$(byte "$f" 4)
    case $isa in rv32*) want=1 ;; *) want=2 ;; esac
    [ "$class" = "$want" ] || err "$elf: ELF class $class, $isa wants $want"
    mach=$(od -An -tu2 -j 18 -N 2 "$f" | tr -d ' \n')
    [ "$mach" = 243 ] || err "$elf: e_machine $mach is not RISC-V (243)"
    # e_flags: offset 0x24 in ELF32, 0x30 in ELF64
    if [ "$class" = 1 ]; then off=36; else off=48; fi
    rvc=$(( $(byte "$f" $off) & 1 ))
    base=${isa#rv32}; base=${base#rv64}
    case $base in *c*) wrvc=1 ;; *) wrvc=0 ;; esac
    [ "$rvc" = "$wrvc" ] || err "$elf: EF_RISCV_RVC=$rvc but ISA is $isa"
done <<< "$rows"
for f in "$dir"/*.elf; do
    [ -e "$f" ] || continue
    n=$(basename "$f")
    grep -q "^| \`$n\` |" "$readme" || err "$n is not listed in README.md"
done
[ $fail = 0 ] && echo "programs_present: $count programs ok"
exit $fail
