#!/bin/bash
# `make linux-qemu-compare`: the Linux boot (tests/e2e/boot_linux.sh) on the
# hart and on QEMU 7.2, executed PC by executed PC, up to the first
# difference that is not OpenSBI's pmpaddr16 probe (docs/hart.md "Booting
# Linux" says where it is and why).
# Same firmware, kernel and device tree for both (scripts/qemu-boot.sh),
# QEMU with -icount shift=0.  Prints the first differing stretches
# (RVT_LINUX_QEMU_SHOW, default 3) with the PCs before them and symbols.
#   RVT_LINUX_QEMU_INSNS   how many PCs to compare (default 400M: all of it)
set -u
: "${RVT_SRC:?}" "${RVT_BIN:?}" "${RVT_TMP:?}"
fw=/usr/lib/riscv64-linux-gnu/opensbi/generic/fw_jump.elf
L=$RVT_SRC/programs/linux
n=${RVT_LINUX_QEMU_INSNS:-400000000}
t=$RVT_TMP
for c in qemu-system-riscv64 python3; do
    command -v $c >/dev/null || { echo "linux-qemu-compare: no $c" >&2; exit 1; }
done
[ -f "$fw" ] || { echo "linux-qemu-compare: no $fw (Debian's opensbi)" >&2; exit 1; }
rm -rf "$t"; mkdir -p "$t"
. "$RVT_SRC/scripts/qemu-boot.sh"
qemu_boot_cmd "$fw" "$L/Image"
qemu_boot_dtb "$RVT_BIN" "$t" --bios "$fw" --kernel "$L/Image" --append "console=ttyS0 earlycon" ||
    { echo "linux-qemu-compare: no device tree from QEMU's RAM" >&2; exit 1; }
"$RVT_BIN" run --bios "$fw" --kernel "$L/Image" --dtb "$t/boot.dtb" --pcs-executed "$t/hart.pcs" \
    --max-instr "$n" >"$t/hart.out" 2>"$t/hart.err"
QEMU_BOOT_TIMEOUT=${QEMU_BOOT_TIMEOUT:-7200} qemu_boot_pcs "$t" "$n"
echo "hart: $(wc -l <"$t/hart.pcs") PCs, QEMU: $(wc -l <"$t/qemu.pcs") PCs"

# Every stretch that differs (pc_resync.py resynchronises after each); the
# first is OpenSBI's pmpaddr16 probe, as in the U-Boot boot
# (docs/conformance-hart.md), the next one is where the runs part.
python3 "$RVT_SRC/tests/e2e/pc_resync.py" "$t/qemu.pcs" "$t/hart.pcs" 1000000000 >"$t/cmp"
nm=$(command -v riscv64-linux-gnu-nm || command -v riscv64-unknown-elf-nm || echo true)
for f in "$L/vmlinux" "$fw" "$L/init" "$L/hello"; do
    $nm -n "$f" 2>/dev/null | sed -n "s|^\([0-9a-f]*\) [tTwW] \(.*\)|\1 \2 $(basename "$f")|p"
done >"$t/syms"
python3 - "$t" "${RVT_LINUX_QEMU_SHOW:-3}" "$(stat -c %s "$L/Image")" <<'PY'
# The first SHOW stretches: the hart's 4 PCs before each, then each side's
# first PC of the stretch (QEMU's line is the hart's plus what earlier
# stretches added: "qemu +A hart +B"), with symbols.
import bisect, re, sys
t, show = sys.argv[1], int(sys.argv[2])
syms = sorted((int(a, 16), n, f) for a, n, f in (l.split() for l in open(f"{t}/syms")))
keys = [s[0] for s in syms]
image_end = 0x80200000 + int(sys.argv[3])
def sym(pc):
    a = int(pc, 16)
    if 0x80200000 <= a < image_end:          # the Image before Sv39: vmlinux's
        a += 0xffffffff80000000 - 0x80200000  # code 0x80200000 - its base lower
    i = bisect.bisect_right(keys, a) - 1      # Debian's OpenSBI has no symbols:
    if i < 0 or a - syms[i][0] >= 0x10000:    # no guess far from one
        return ""
    return f"{syms[i][1]}+{a - syms[i][0]:#x} ({syms[i][2]})"
diffs, off = [], 0
for l in open(f"{t}/cmp"):
    m = re.match(r"diff at hart line (\d+) pc \w+: qemu \+(\d+) hart \+(\d+)", l)
    if m:
        h = int(m[1]); diffs.append((h, h + off, l.strip())); off += int(m[2]) - int(m[3])
print(f"differing stretches: {len(diffs)}")
def lines(path, want):
    got, want = {}, set(want)
    for n, l in enumerate(open(path), 1):
        if n in want: got[n] = l.strip()
        if n >= max(want, default=0): break
    return got
diffs = diffs[:show]
hl = lines(f"{t}/hart.pcs", [h - k for h, _, _ in diffs for k in range(5)])
ql = lines(f"{t}/qemu.pcs", [q for _, q, _ in diffs])
for h, q, text in diffs:
    print(text)
    for k in range(4, 0, -1):
        if h - k in hl: print(f"    {hl[h - k]} {sym(hl[h - k])}")
    print(f"  hart: {hl[h]} {sym(hl[h])}")
    print(f"  QEMU: {ql.get(q, '(end)')} {sym(ql[q]) if q in ql else ''}")
PY
tail -1 "$t/cmp"
