# Thin wrapper around CMake + Ninja.  `make demo` and `make test` are all the
# set-up a fresh Debian machine needs: both call scripts/setup.sh first.
BUILD      ?= build
ASAN_BUILD ?= build-asan
TSAN_BUILD ?= build-tsan
JOBS       ?= $(shell nproc 2>/dev/null || echo 2)
CTEST_ARGS ?=
# make install: where (PREFIX) and under which staging root (DESTDIR).
PREFIX     ?= /usr/local
DESTDIR    ?=

.PHONY: all setup build install demo test asan tsan bench fuzz programs clean riscv-tests qemu-tv linux linux-smp linux-qemu-compare

all: build

setup:
	@bash scripts/setup.sh

$(BUILD)/build.ninja:
	cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo

build: $(BUILD)/build.ninja
	cmake --build $(BUILD) -j $(JOBS)

# The library (.so with soname, .a), headers, rvtrace and rvtrace.pc
# (cmake/install.cmake; docs/api.md).
install: build
	DESTDIR="$(DESTDIR)" cmake --install $(BUILD) --prefix "$(PREFIX)"

demo: setup build
	@bash scripts/demo.sh $(BUILD)/rvtrace

test: setup build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS) $(CTEST_ARGS)

# Under ASan, the two comparisons whose time goes to QEMU's single-stepped
# log of millions of instructions are left out (the hart's side of both runs
# under ASan in boot_uboot and the other QEMU tests), and linux_trace, which
# encodes and decodes the 36 M-instruction Linux boot in both protocols (the
# boot itself runs under ASan in boot_linux, the trace paths in the round-trip
# matrices), and boot_linux_smp, the same for 58 M instructions on two harts
# (several harts' code and traces run under ASan in smp_harts, boot_smp and
# tci_harts).  The rest run with RVT_TEST_QUICK=1, which the sanitizer
# build sets: fewer of the like cases a test repeats, each code path still
# crossed (docs/architecture.md "Tests"; `make test` runs them all).
ASAN_SKIP ?= ^e2e\.(qemu_uboot|qemu_tv|linux_trace|boot_linux_smp)$$

$(ASAN_BUILD)/build.ninja:
	cmake -S . -B $(ASAN_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Debug -DRVT_SANITIZE=ON

asan: setup $(ASAN_BUILD)/build.ninja
	cmake --build $(ASAN_BUILD) -j $(JOBS)
	cd $(ASAN_BUILD) && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	  ctest --output-on-failure -j $(JOBS) -E '$(ASAN_SKIP)' $(CTEST_ARGS)

# ThreadSanitizer over the tests that decode on several threads (one
# rvt_mem shared by decoders on two threads, include/rvtrace/mem.h; the
# writer thread of decode --write-thread, tools/rvtrace/decode_pipe.c; the
# turns of decode --jobs' pieces writing the PC lists, jobs_pcl.c).
$(TSAN_BUILD)/build.ninja:
	cmake -S . -B $(TSAN_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DRVT_TSAN=ON

tsan: setup $(TSAN_BUILD)/build.ninja
	cmake --build $(TSAN_BUILD) -j $(JOBS) --target test_mem_threads test_mem test_jobs_pcl rvtrace
	cd $(TSAN_BUILD) && TSAN_OPTIONS="halt_on_error=1 exitcode=66" \
	  ctest --output-on-failure -R '^(unit[.]test_mem|unit[.]test_jobs_pcl$$|e2e[.]decode_write_thread$$)' $(CTEST_ARGS)

bench: setup build
	@bash bench/run.sh $(BUILD)

fuzz: setup
	@bash fuzz/run.sh

programs:
	@bash programs/build.sh

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(TSAN_BUILD) build-fuzz

# riscv-tests' ISA suite (rv64/rv32, -p and -v) on the hart, judged by
# tohost; fetches and builds the suite (not part of `make test`).
# RISCV_TESTS_DIR=DIR uses an existing checkout.
riscv-tests: build
	bash scripts/riscv-tests.sh --rvtrace $(BUILD)/rvtrace $(RISCV_TESTS_DIR)

# QEMU as the tandem-verification DUT, at length: every workload QEMU runs
# and 4000 random-instruction seeds of 400 instructions (tests/e2e/qemu_tv.sh;
# `make test` runs it with 3 workloads and 300 seeds of 150).
qemu-tv: build
	mkdir -p $(BUILD)/tests/tmp
	RVT_SRC=$(CURDIR) RVT_BIN=$(BUILD)/rvtrace RVT_TMP=$(CURDIR)/$(BUILD)/tests/tmp \
	RVT_QEMU_TV_PROGS=all RVT_QEMU_TV_SEEDS=4000 RVT_QEMU_TV_COUNT=400 RVT_QEMU_TV_PER=25 \
	bash tests/e2e/qemu_tv.sh

# The Linux kernel and init programs of programs/linux/ (Debian's
# linux-source-6.1 and gcc-riscv64-linux-gnu, which setup installs for this
# target only; programs/linux/README.md).  Not part of `make test`, which
# boots the committed images (tests/e2e/boot_linux.sh).
linux:
	@bash scripts/build-linux.sh

# The same kernel built for several harts (programs/linux/smp/, config-smp).
linux-smp:
	@RVT_LINUX_VARIANT=smp bash scripts/build-linux.sh

# The Linux boot's retired PCs against QEMU's up to the first difference
# (docs/hart.md "Booting Linux"); slow: QEMU logs every instruction.
linux-qemu-compare: build
	RVT_SRC=$(CURDIR) RVT_BIN=$(CURDIR)/$(BUILD)/rvtrace RVT_TMP=$(CURDIR)/$(BUILD)/linux-qemu \
	  bash scripts/linux-qemu-compare.sh
