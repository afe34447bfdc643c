# migrate_trace_lite: build a patched Linux 6.12, boot it in QEMU, run the
# demo (make run) or the tests (make check).  See README.md.

SHELL		:= /bin/bash
TOP		:= $(CURDIR)
B		:= $(TOP)/build
OUT		:= $(TOP)/out
H		:= $(TOP)/harness
ST		:= tools/testing/selftests/migrate_trace_lite
JOBS		?= $(shell nproc)
KMAKE		= $(MAKE) -s -C $(B)/linux ARCH=x86_64 -j$(JOBS)

# Guest time limits (seconds) before a hung guest is killed.
RUN_TIMEOUT	?= 900
CHECK_TIMEOUT	?= 1500

MIRROR		:= $(shell find Documentation fs include kernel lib scripts tools \
			MAINTAINERS.patch -type f 2>/dev/null)
GUEST_C		:= $(wildcard $(ST)/*.c)
GUEST_FILES	:= $(wildcard $(H)/guest/* $(ST)/*.sh) $(GUEST_C)

.PHONY: all run check deps tree kernel matrix kernel-debug initramfs report clean help \
	series bench bench-tools

all: kernel initramfs

help:
	@echo "make run     build, boot, run the demo workload, report (out/run/)"
	@echo "make check   every test; ends with prove's summary"
	@echo "make bench   kernel overhead against ftrace, record size, read-out (out/bench.txt)"
	@echo "make series  the git-am-able patch series with a cover letter (out/series/)"
	@echo "make bench-tools  speed and memory of the analysis tools"
	@echo "make clean   remove build/ and out/"

# Stamp files: deps once per machine state, the tree on any change.
deps: $(B)/.deps
$(B)/.deps: $(H)/deps.sh
	@mkdir -p $(B)
	@$(H)/deps.sh
	@touch $@

tree: $(B)/.tree
$(B)/.tree: $(B)/.deps $(MIRROR) $(H)/sync-tree.sh
	@$(H)/sync-tree.sh $(TOP) $(B)
	@touch $@

# The run/test kernel.
$(B)/kernel/.config: $(B)/.tree $(H)/kernel.config $(H)/configure.sh
	@echo "  CONFIG  build/kernel"
	@$(H)/configure.sh $(B)/linux $(B)/kernel $(H)/kernel.config

kernel: $(B)/kernel/.config
	@echo "  BUILD   build/kernel (bzImage)"
	@$(KMAKE) O=$(B)/kernel bzImage

# The objects the series touches, with W=1, with both options on, each
# alone, both off, and without SMP.
MATRIX		:= on trace stat off nosmp
matrix: $(B)/.tree $(H)/kernel.config $(H)/build-matrix.sh
	@$(H)/build-matrix.sh $(B)/linux $(B) $(OUT)/matrix $(H)/kernel.config $(MATRIX)

# make series: out/series/, the git-am-able patch series and its cover
# letter (the benchmark numbers come from out/bench.txt when there).
series: tree
	@perl $(H)/mkseries.pl $(TOP) $(B) $(OUT)/series

# The debug test kernel: lockdep, KASAN, UBSAN, atomic-sleep checks.
$(B)/kernel-debug/.config: $(B)/.tree $(H)/kernel.config $(H)/kernel-debug.config
	@echo "  CONFIG  build/kernel-debug"
	@$(H)/configure.sh $(B)/linux $(B)/kernel-debug $(H)/kernel.config \
		$(H)/kernel-debug.config

kernel-debug: $(B)/kernel-debug/.config
	@echo "  BUILD   build/kernel-debug (bzImage)"
	@$(KMAKE) O=$(B)/kernel-debug bzImage

initramfs: $(B)/initramfs.cpio
$(B)/initramfs.cpio: $(B)/.deps $(GUEST_FILES) $(H)/mkinitramfs.sh $(B)/.tree
	@echo "  GEN     build/initramfs.cpio"
	@$(H)/mkinitramfs.sh $(TOP) $(B)

# make run: demo workload under tracing, trace in out/run/, report.
run: kernel initramfs
	@$(H)/qemu-run.sh $(B) $(OUT)/run run $(RUN_TIMEOUT)
	@$(H)/report.sh $(OUT)/run

report:
	@$(H)/report.sh $(OUT)/run

# make check: host checks, both configurations, the guest suite on the
# test kernel and its focused pass on the debug kernel, one prove.
check: kernel matrix kernel-debug initramfs series
	@$(H)/qemu-run.sh $(B) $(OUT)/check check $(CHECK_TIMEOUT) || true
	@KERNEL=$(B)/kernel-debug $(H)/qemu-run.sh $(B) $(OUT)/check-debug debug \
		$(CHECK_TIMEOUT) || true
	@mkdir -p $(OUT)/check
	@echo "harness: prove -v t/ (full log: out/check/prove.log)"
	@MT_TOP=$(TOP) prove -v t/ >$(OUT)/check/prove.log 2>&1; rc=$$?; \
		$(H)/check-summary.pl $(OUT)/check/prove.log; exit $$rc

# make bench: the kernel benchmark against ftrace (2 vCPUs, interleaved
# rounds, medians) and the analysis tools' benchmark; out/bench.txt.
BENCH_TIMEOUT	?= 900
bench: kernel initramfs
	@$(H)/qemu-run.sh $(B) $(OUT)/bench bench $(BENCH_TIMEOUT) 2
	@$(H)/bench-report.pl $(OUT)/bench/bench.raw \
		"$$(nproc) x $$(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1)" \
		>$(OUT)/bench.txt
	@$(H)/bench-tools.sh $(OUT)/bench-tools.txt >/dev/null
	@{ echo; cat $(OUT)/bench-tools.txt; } >>$(OUT)/bench.txt
	@cat $(OUT)/bench.txt

# Speed and memory of the analysis tools on a generated 1M-event trace.
bench-tools: deps
	@mkdir -p $(OUT)
	@$(H)/bench-tools.sh $(OUT)/bench-tools.txt

clean:
	rm -rf $(B) $(OUT)
