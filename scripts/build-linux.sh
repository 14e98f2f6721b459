#!/usr/bin/env bash
# `make linux`: builds the Linux kernel and the init programs that
# tests/e2e/boot_linux.sh boots, from Debian's linux-source-6.1 with
# gcc-riscv64-linux-gnu, and copies the results into programs/linux/
# (committed, so tests never need the cross toolchain):
#   init, hello   static user programs (nolibc from the kernel tree)
#   Image         the flat kernel image OpenSBI's fw_jump runs at 0x80200000,
#                 with the initramfs (init, hello, /dev/console) built in
#   vmlinux       the same kernel as an ELF, debug info stripped, symbols kept
# The kernel is configured from tinyconfig plus programs/linux/config.
# Build dir: $RVT_LINUX_BUILD (default ~/.cache/rvtrace-linux), outside the repo.
#
# `make linux-smp` (RVT_LINUX_VARIANT=smp): the same kernel with
# programs/linux/config-smp on top (CONFIG_SMP, up to 8 harts), its Image
# and vmlinux into programs/linux/smp/ (the same init and hello inside), for
# `rvtrace run --harts N` (tests/e2e/boot_linux_smp.sh).  Its own build dir
# ($RVT_LINUX_BUILD-smp): SMP changes most objects, and the one-hart kernel's
# tree stays as it was.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
src_tar=/usr/src/linux-source-6.1.tar.xz
variant=${RVT_LINUX_VARIANT:-}
build=${RVT_LINUX_BUILD:-$HOME/.cache/rvtrace-linux}
jobs=${RVT_LINUX_JOBS:-2}
cross=riscv64-linux-gnu-
out=$repo/programs/linux
kout=$out                # where Image and vmlinux go
fragments=("$out/config")
if [ "$variant" = smp ]; then
    build=$build-smp
    kout=$out/smp
    fragments+=("$out/config-smp")
elif [ -n "$variant" ]; then
    echo "build-linux: unknown RVT_LINUX_VARIANT '$variant' (smp or nothing)" >&2
    exit 2
fi
stamp=2026-01-01   # build date, version #1, user and host: a rebuild is byte-identical
kmake=(make -C "$build/linux-source-6.1" ARCH=riscv CROSS_COMPILE=$cross -j"$jobs")

RVT_SETUP_LINUX=1 "$repo/scripts/setup.sh"

unpack() {
    [ -f "$build/linux-source-6.1/Makefile" ] && return
    mkdir -p "$build"
    echo "build-linux: unpacking $src_tar into $build" >&2
    tar -xf "$src_tar" -C "$build"
}

# Static, freestanding, deterministic (no build id, source paths mapped).
# hello is linked 16 MiB up from init's 0x10000 so that a decode given
# every image for every address space finds one program at each address.
build_user() {
    local name=$1 ttext=$2
    ${cross}gcc -static -nostdlib -ffreestanding -Os -fno-math-errno \
        -fno-asynchronous-unwind-tables -fno-stack-protector \
        -march=rv64gc -mabi=lp64d -Wall -Wextra -Werror \
        -ffile-prefix-map="$out"=. -Wl,--build-id=none $ttext \
        -I "$build/linux-source-6.1/tools/include/nolibc" \
        -o "$build/$name" "$out/$name.c" -lgcc
    ${cross}strip --strip-debug "$build/$name"
    touch -d "$stamp" "$build/$name"     # the initramfs keeps file mtimes
}

# gen_init_cpio's list: the two programs and the console init's stdio needs.
initramfs_list() {
    cat > "$build/initramfs.list" <<LIST
dir /dev 0755 0 0
nod /dev/console 0600 0 0 c 5 1
file /init $build/init 0755 0 0
file /hello $build/hello 0755 0 0
LIST
}

configure() {
    local k=$build/linux-source-6.1
    "${kmake[@]}" tinyconfig >/dev/null
    (cd "$k" && ARCH=riscv CROSS_COMPILE=$cross \
        scripts/kconfig/merge_config.sh -m .config "${fragments[@]}" >/dev/null)
    "$k/scripts/config" --file "$k/.config" \
        --set-str INITRAMFS_SOURCE "$build/initramfs.list"
    "${kmake[@]}" olddefconfig >/dev/null
}

unpack
build_user init ""
build_user hello -Wl,-Ttext-segment=0x1000000
initramfs_list
configure
KBUILD_BUILD_TIMESTAMP=$stamp KBUILD_BUILD_VERSION=1 KBUILD_BUILD_USER=rvtrace \
    KBUILD_BUILD_HOST=rvtrace "${kmake[@]}" Image vmlinux
k=$build/linux-source-6.1
mkdir -p "$kout"
[ "$kout" = "$out" ] && cp "$build/init" "$build/hello" "$out/"
cp "$k/arch/riscv/boot/Image" "$kout/"
${cross}strip --strip-debug -o "$kout/vmlinux" "$k/vmlinux"
ls -l "$kout"
