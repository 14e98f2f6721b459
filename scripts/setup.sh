#!/usr/bin/env bash
# Installs what rvtrace needs from Debian packages, only where it is missing.
# Called by `make demo`, `make test`, `make asan`, `make bench` and `make fuzz`.
set -euo pipefail

need=()
have_cmd() { command -v "$1" >/dev/null 2>&1; }
have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }

have_cmd cmake || need+=(cmake)
have_cmd ninja || need+=(ninja-build)
have_cmd cc || need+=(gcc)
have_pkg libelf-dev || need+=(libelf-dev)
# The hart's device tree (src/hart/dtb.c) and its test (dtc).
have_pkg libfdt-dev || need+=(libfdt-dev)
have_cmd dtc || need+=(device-tree-compiler)
# --lcov reads DWARF line tables (libdw); genhtml checks its tracefiles.
have_pkg libdw-dev || need+=(libdw-dev)
have_cmd genhtml || need+=(lcov)
# script --lbr's AutoFDO check and the PGO loop (docs/coverage.md).
have_cmd /usr/lib/llvm-19/bin/llvm-profgen || need+=(llvm-19)
have_cmd clang-19 || need+=(clang-19)
have_cmd ld.lld || need+=(lld)
# rvtrace.pc and its test (tests/e2e/install.sh).
have_cmd pkg-config || need+=(pkgconf)
# The hart's external oracle (tests/e2e/qemu_conformance.sh).
have_cmd qemu-system-riscv64 || need+=(qemu-system-misc)
# report --html opened in a headless browser, report JSON/SVG checks (tests/e2e/report_*.sh).
have_cmd chromium || need+=(chromium)
have_cmd python3 || need+=(python3)
# The Python package and its tests (python/, tests/e2e/python.sh, docs/python.md).
for p in python3-cffi python3-pytest python3-numpy python3-dask python3-distributed; do
  have_pkg "$p" || need+=("$p")
done
# The man pages' check (tests/e2e/man_pages.sh).
have_cmd groff || need+=(groff)
# Firmware the boot tests run (tests/e2e/boot_uboot.sh): OpenSBI 1.1, U-Boot.
have_pkg opensbi || need+=(opensbi)
have_pkg u-boot-qemu || need+=(u-boot-qemu)
# `make linux` only (scripts/build-linux.sh): the kernel source and the
# cross compiler; tests use the committed programs/linux/ and never need them.
if [ "${RVT_SETUP_LINUX:-0}" = 1 ]; then
  have_pkg linux-source-6.1 || need+=(linux-source-6.1)
  have_cmd riscv64-linux-gnu-gcc || need+=(gcc-riscv64-linux-gnu)
  for t in flex bison bc cpio; do have_cmd $t || need+=($t); done
  have_pkg libssl-dev || need+=(libssl-dev)
fi
# Fuzz targets (make fuzz, .ci/run): libFuzzer comes with clang's runtime.
if [ "${RVT_SETUP_FUZZ:-0}" = 1 ]; then
  have_cmd clang || need+=(clang)
  ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1 \
    || need+=(libclang-rt-14-dev)
fi

[ ${#need[@]} -eq 0 ] && exit 0

echo "setup: installing ${need[*]}" >&2
SUDO=""
if [ "$(id -u)" != 0 ]; then
  if have_cmd sudo; then SUDO=sudo; else
    echo "setup: missing packages (${need[*]}) and not root: install them and retry" >&2
    exit 1
  fi
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
