# Shared by the Linux boot tests (sourced; docs/hart.md "Booting Linux",
# "Several harts"): Debian's OpenSBI fw_jump.elf, the committed kernels
# and init programs ($L = programs/linux), the test's folder $t made anew,
# and digest, which compares lists of tens of millions of PCs without
# storing them.  Skips (77) without the opensbi package.
: "${RVT_SRC:?}" "${RVT_BIN:?}" "${RVT_TMP:?}"
fw=/usr/lib/riscv64-linux-gnu/opensbi/generic/fw_jump.elf
L=$RVT_SRC/programs/linux
t="$RVT_TMP/$1"
rm -rf "$t"; mkdir -p "$t"
[ -f "$fw" ] || { echo "skip: opensbi not installed"; exit 77; }

# digest FIFO OUT: a named pipe FIFO whose bytes' sha1 goes to OUT, read in
# the background (wait for it after the writer ends)
digest() {
    rm -f "$1"
    mkfifo "$1"
    sha1sum <"$1" >"$2" &
}
