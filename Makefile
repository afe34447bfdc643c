# migrate_trace_lite: build a patched Linux 6.12, boot it in QEMU, run the
# demo (make run) or the tests (make check).  See README.md.

SHELL		:= /bin/bash
TOP		:= $(CURDIR)
B		:= $(TOP)/build
OUT		:= $(TOP)/out
H		:= $(TOP)/harness
ST		:= tools/testing/selftests/migrate_trace_lite
JOBS		?= $(shell nproc)
# The kernel builds set their own -j: they leave make check's jobserver
# (and its warnings about it) to the targets it runs side by side.
KMAKE		= env -u MAKEFLAGS -u MFLAGS $(MAKE) -s -C $(B)/linux ARCH=x86_64 -j$(JOBS)
KMAKE32		= env -u MAKEFLAGS -u MFLAGS $(MAKE) -s -C $(B)/linux ARCH=i386 -j$(JOBS)

# Guest time limits (seconds) before a hung guest is killed.
RUN_TIMEOUT	?= 900
CHECK_TIMEOUT	?= 1500

MIRROR		:= $(shell find Documentation fs include kernel lib samples scripts tools \
			MAINTAINERS.patch -type f 2>/dev/null)
GUEST_C		:= $(wildcard $(ST)/*.c $(ST)/*.h)
GUEST_FILES	:= $(wildcard $(H)/guest/* $(ST)/*.sh kernel/migrate_trace_lite*.c \
			samples/migrate_trace_lite/*) $(GUEST_C)

.PHONY: all run check deps tree kernel matrix kernel-debug kernel-kcsan kernel-i386 \
	initramfs report clean help series bench bench-tools guests hook-sites mutants \
	guest-check guest-debug guest-kcsan guest-i386 guest-topo guest-peers guest-only \
	guest-topo-only mutants-kernel sample guest-hotplug kernel-part1 guest-part1 \
	bench-scale check-scale guest-scale

all: kernel initramfs

help:
	@echo "make run     build, boot, run the demo workload, report (out/run/)"
	@echo "make check   every test; ends with prove's summary"
	@echo "make bench   kernel overhead against ftrace, record size, read-out (out/bench.txt)"
	@echo "make bench-scale  make bench's scale series alone: 4, 16, 64 CPUs (out/bench-scale.txt)"
	@echo "make check-scale  the 64-CPU guest's tests (not part of make check)"
	@echo "make hook-sites  the disabled hooks' machine code, on against off (out/hook-sites.txt)"
	@echo "make series  the git-am-able patch series with a cover letter (out/series/)"
	@echo "make bench-tools  speed and memory of the analysis tools"
	@echo "make mutants  mutation testing of the analysis tools' tests (out/mutants.txt)"
	@echo "make sample  doc/sample/: a small trace and stat cut from make run's out/run/"
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

# The run/test kernel; it is make bench's too: kernel-test.config adds
# what its selftests need (schedstats), kernel-bench.config only enables
# what the peers (perf, trace-cmd, bpftrace) need in the guest.
$(B)/kernel/.config: $(B)/.tree $(H)/kernel.config $(H)/kernel-test.config \
		$(H)/kernel-bench.config $(H)/configure.sh
	@echo "  CONFIG  build/kernel"
	@$(H)/configure.sh $(B)/linux $(B)/kernel $(H)/kernel.config $(H)/kernel-test.config \
		$(H)/kernel-bench.config

# Its modules: the in-kernel API's sample (samples/migrate_trace_lite/),
# which the initramfs carries for mt_sample.sh.
kernel: $(B)/kernel/.config
	@echo "  BUILD   build/kernel (bzImage, modules)"
	@$(KMAKE) O=$(B)/kernel bzImage modules

# The objects the series touches, with W=1, with both options on, each
# alone, both off, without SMP, and from the pristine tree configured as
# off (t/07: "off" must be instruction-identical to it).
MATRIX		:= on trace stat off nosmp full i386 pristine
matrix: $(B)/.tree $(H)/kernel.config $(H)/build-matrix.sh
	@$(H)/build-matrix.sh $(B)/linux $(B) $(OUT)/matrix $(H)/kernel.config $(MATRIX)

# make hook-sites: every hook site of the "on" matrix build is a jump-label
# NOP that adds nothing to the fall-through path of its function against
# the "off" build (harness/check-hook-sites.pl); out/hook-sites.txt is the
# table, and its summary goes into make bench's section 5.  It builds
# only those two configurations, logs in out/hook-sites/ (make check's
# t/07-hook-sites.t runs the same check on the whole matrix).
hook-sites: $(B)/.tree $(H)/kernel.config $(H)/build-matrix.sh
	@rm -f $(OUT)/hook-sites.txt
	@$(H)/build-matrix.sh $(B)/linux $(B) $(OUT)/hook-sites $(H)/kernel.config on off
	@perl $(H)/check-hook-sites.pl --off $(B)/matrix-off --accept $(H)/hook-sites-accepted \
		--table $(OUT)/hook-sites.txt $(B)/matrix-on $$(cat $(OUT)/hook-sites/on.objs) \
		>$(OUT)/hook-sites/check.tap; rc=$$?; \
		grep '^not ok' $(OUT)/hook-sites/check.tap; sed -n '/^off:/,$$p' $(OUT)/hook-sites.txt; \
		exit $$rc

# make series: out/series/, the git-am-able patch series and its cover
# letter (the benchmark numbers come from out/bench.txt when there).
series: tree
	@perl $(H)/mkseries.pl $(TOP) $(B) $(OUT)/series

# The series' first part alone (the annotations and the trace event, no
# mt, no mstat), built as the test kernel with the hooks alone.
kernel-part1: series
	@echo "  BUILD   build/kernel-part1 (bzImage: the series' first part)"
	@$(H)/part1.sh $(B) $(OUT)/series

# The debug test kernel: lockdep, KASAN, UBSAN, atomic-sleep checks.
$(B)/kernel-debug/.config: $(B)/.tree $(H)/kernel.config $(H)/kernel-debug.config
	@echo "  CONFIG  build/kernel-debug"
	@$(H)/configure.sh $(B)/linux $(B)/kernel-debug $(H)/kernel.config \
		$(H)/kernel-debug.config

kernel-debug: $(B)/kernel-debug/.config
	@echo "  BUILD   build/kernel-debug (bzImage)"
	@$(KMAKE) O=$(B)/kernel-debug bzImage

# The KCSAN test kernel: the data race detector (it excludes KASAN).
$(B)/kernel-kcsan/.config: $(B)/.tree $(H)/kernel.config $(H)/kernel-kcsan.config
	@echo "  CONFIG  build/kernel-kcsan"
	@$(H)/configure.sh $(B)/linux $(B)/kernel-kcsan $(H)/kernel.config \
		$(H)/kernel-kcsan.config

kernel-kcsan: $(B)/kernel-kcsan/.config
	@echo "  BUILD   build/kernel-kcsan (bzImage)"
	@$(KMAKE) O=$(B)/kernel-kcsan bzImage

# The 32-bit test kernel (i386, SMP).
$(B)/kernel-i386/.config: $(B)/.tree $(H)/kernel.config $(H)/kernel-i386.config
	@echo "  CONFIG  build/kernel-i386"
	@ARCH=i386 $(H)/configure.sh $(B)/linux $(B)/kernel-i386 $(H)/kernel.config \
		$(H)/kernel-i386.config

kernel-i386: $(B)/kernel-i386/.config
	@echo "  BUILD   build/kernel-i386 (bzImage)"
	@$(KMAKE32) O=$(B)/kernel-i386 bzImage

initramfs: $(B)/initramfs.cpio $(B)/initramfs-i386.cpio
# The test kernel first: the initramfs carries its sample module.
$(B)/initramfs.cpio: $(B)/.deps $(GUEST_FILES) $(H)/mkinitramfs.sh scripts/migrate_record $(B)/.tree \
		| kernel
	@echo "  GEN     build/initramfs.cpio"
	@$(H)/mkinitramfs.sh $(TOP) $(B) $@
$(B)/initramfs-i386.cpio: $(B)/.deps $(GUEST_FILES) $(H)/mkinitramfs.sh scripts/migrate_record $(B)/.tree
	@echo "  GEN     build/initramfs-i386.cpio"
	@ARCH=i386 $(H)/mkinitramfs.sh $(TOP) $(B) $@
# The bench initramfs: the test one, then Debian's perf, trace-cmd and
# bpftrace with their libraries (bpftrace brings LLVM) and the test
# kernel's headers (bpftrace compiles with them): about 300 MB.
$(B)/initramfs-bench.cpio: $(B)/initramfs.cpio $(H)/mkinitramfs-peers.sh $(H)/deps.txt \
		$(B)/kernel/.config | kernel
	@echo "  GEN     build/initramfs-bench.cpio"
	@$(H)/mkinitramfs-peers.sh $(TOP) $(B) $(B)/kernel $(B)/initramfs.cpio $@

# make run: demo workload under tracing, trace in out/run/, report.
run: kernel $(B)/initramfs.cpio
	@$(H)/qemu-run.sh $(B) $(OUT)/run run $(RUN_TIMEOUT)
	@$(H)/report.sh $(OUT)/run

report:
	@$(H)/report.sh $(OUT)/run

# The guest runs of make check, each on its kernel and machine: the whole
# suite on the test kernel (4 CPUs); a focused pass on the debug kernel
# (lockdep, KASAN, UBSAN) and on the KCSAN kernel; the 32-bit kernel; and
# a 32-CPU machine of 2 NUMA nodes with SMT threads, which ends in a panic
# on purpose for the dump on oops.
TOPO_SMP	:= 32,sockets=2,cores=8,threads=2
TOPO_QEMU	:= -object memory-backend-ram,id=m0,size=512M \
		   -object memory-backend-ram,id=m1,size=512M \
		   -numa node,nodeid=0,cpus=0-15,memdev=m0 \
		   -numa node,nodeid=1,cpus=16-31,memdev=m1
# The 64-CPU machine of make check-scale and of make bench's scale series:
# 2 NUMA nodes of 2 LLCs (QEMU's dies: with an Intel vendor, QEMU shares
# the L3 of its CPUID leaf 4 per die) of 8 cores of 2 SMT threads.
SCALE_SMP	:= 64,sockets=2,dies=2,cores=8,threads=2
SCALE_NUMA	:= -object memory-backend-ram,id=m0,size=1G \
		   -object memory-backend-ram,id=m1,size=1G \
		   -numa node,nodeid=0,cpus=0-31,memdev=m0 \
		   -numa node,nodeid=1,cpus=32-63,memdev=m1
SCALE_CPU	:= -cpu qemu64,vendor=GenuineIntel
# make guest-only TESTS="mt_pipe mt_alloc": just those selftests on the
# test kernel, results in out/only/ (development; not part of make check).
guest-only: kernel $(B)/initramfs.cpio
	@APPEND="mttests=$$(echo $(TESTS) | tr ' ' ,)" \
		$(H)/qemu-run.sh $(B) $(OUT)/only only $(CHECK_TIMEOUT)
	@grep -h '^not ok\|^# Totals' $(OUT)/only/*.tap || true

guest-check: kernel $(B)/initramfs.cpio
	@$(H)/qemu-run.sh $(B) $(OUT)/check check $(CHECK_TIMEOUT) || true
# acpi=noirq: on a busy host, ACPI's _PRT method (PCI interrupt routing)
# runs past the AML interpreter's 30 s loop limit under KASAN, lockdep and
# TCG, and the boot hangs; the guest routes no PCI interrupt (virtio uses
# MSI-X), so the debug guest boots without it.
guest-debug: kernel-debug $(B)/initramfs.cpio
	@KERNEL=$(B)/kernel-debug APPEND="acpi=noirq" $(H)/qemu-run.sh $(B) \
		$(OUT)/check-debug debug $(CHECK_TIMEOUT) || true
guest-kcsan: kernel-kcsan $(B)/initramfs.cpio
	@KERNEL=$(B)/kernel-kcsan $(H)/qemu-run.sh $(B) $(OUT)/check-kcsan kcsan \
		$(CHECK_TIMEOUT) || true
guest-i386: kernel-i386 $(B)/initramfs-i386.cpio
	@KERNEL=$(B)/kernel-i386 INITRD=$(B)/initramfs-i386.cpio QEMU=qemu-system-i386 \
		MEM=512M $(H)/qemu-run.sh $(B) $(OUT)/check-i386 i386 $(CHECK_TIMEOUT) || true
guest-topo: kernel $(B)/initramfs.cpio
	@QEMU_OPTS="$(TOPO_QEMU)" APPEND="mt_dump_on_oops=40" \
		$(H)/qemu-run.sh $(B) $(OUT)/check-topo topo \
		$(CHECK_TIMEOUT) $(TOPO_SMP) || true
# make guest-topo-only TESTS="mt_smt": chosen selftests on the topology
# guest, results in out/topo-only/ (development; not part of make check).
guest-topo-only: kernel $(B)/initramfs.cpio
	@QEMU_OPTS="$(TOPO_QEMU)" APPEND="mttests=$$(echo $(TESTS) | tr ' ' ,)" \
		$(H)/qemu-run.sh $(B) $(OUT)/topo-only only $(CHECK_TIMEOUT) $(TOPO_SMP)
	@grep -h '^not ok\|^# Totals' $(OUT)/topo-only/*.tap || true
# The bench initramfs on the test kernel: perf, trace-cmd and bpftrace
# run once each (the peers of make bench); 2 CPUs as make bench.
guest-peers: kernel $(B)/initramfs-bench.cpio
	@INITRD=$(B)/initramfs-bench.cpio MEM=$(BENCH_MEM) $(H)/qemu-run.sh $(B) \
		$(OUT)/check-peers peers $(CHECK_TIMEOUT) 2 || true
# 4 CPUs of which 2 are online at boot (maxcpus=2): the buffers follow
# the online CPUs, and one comes online under a running trace
# (mt_hotplug); KUnit is left to the other guests.  About 15 s, so it
# waits for no other guest (make guest-hotplug runs it alone).
# nohz=off: a CPU's first bring-up calibrates its delay loop (QEMU's CPU
# has no constant TSC to take CPU 0's from); under TCG the direct method
# fails and the fallback waits for jiffies to move with interrupts off.
# With CPUs 0 and 1 idle and their ticks stopped, nothing moves jiffies,
# and the new CPU spins until some timer wakes one: 30 s to forever on a
# loaded host.  A periodic tick keeps jiffies going.
guest-hotplug: kernel $(B)/initramfs.cpio
	@APPEND="maxcpus=2 nohz=off kunit.enable=0" $(H)/qemu-run.sh $(B) $(OUT)/check-hotplug \
		hotplug $(CHECK_TIMEOUT) || true
# The series' first part: the event alone, no mt and no mstat (mt_event's
# checks that need neither); KUnit is the trace's, not built here.
guest-part1: kernel-part1 $(B)/initramfs.cpio
	@KERNEL=$(B)/kernel-part1 APPEND="kunit.enable=0 mttests=mt_event" \
		$(H)/qemu-run.sh $(B) $(OUT)/check-part1 only $(CHECK_TIMEOUT) || true
guests: guest-check guest-debug guest-kcsan guest-i386 guest-topo guest-peers \
	guest-hotplug guest-part1

# The builds run one after the other at full speed, in the order the
# guests need them; each guest (one QEMU thread) boots as soon as its
# kernel is there, beside the next build.
kernel-debug: | kernel
kernel-kcsan: | kernel-debug
kernel-i386: | kernel-kcsan
matrix: | kernel-i386
series: | matrix
guest-debug: | guest-check
guest-i386: | guest-kcsan
guest-peers: | guest-topo

# make check-scale: the 64-CPU guest (SCALE_SMP) runs the topology tests,
# mt_stress's storm, mt_pipe and mt_dump, then panics on purpose for the
# dump on oops; prove reads it with t/scale/*.t.  Not part of make check
# (its budget), nor of CI: about 10 minutes on 2 cores once the test
# kernel is built.  KUnit is left to make check's guests.
guest-scale: kernel $(B)/initramfs.cpio
	@QEMU_OPTS="$(SCALE_CPU) $(SCALE_NUMA)" MEM=2G APPEND="kunit.enable=0 mt_dump_on_oops=40" \
		$(H)/qemu-run.sh $(B) $(OUT)/check-scale scale-check $(CHECK_TIMEOUT) $(SCALE_SMP) || true
check-scale: guest-scale
	@MT_TOP=$(TOP) prove -v --timer t/scale/ >$(OUT)/check-scale/prove.log 2>&1; rc=$$?; \
		$(H)/check-summary.pl $(OUT)/check-scale/prove.log; exit $$rc

# make mutants-kernel [MUTANTS="a b"]: each mutant of
# harness/mutants-kernel.list (a hook naming a wrong cause or reason)
# applied to build/linux alone, the test kernel rebuilt, its guest booted
# with the tests that must fail; out/mutants-kernel.txt has the score.
# On demand only, not part of make check; about 15 minutes on 2 cores.
mutants-kernel: kernel $(B)/initramfs.cpio
	@JOBS=$(JOBS) CHECK_TIMEOUT=$(CHECK_TIMEOUT) TOPO_QEMU="$(TOPO_QEMU)" \
		TOPO_SMP="$(TOPO_SMP)" $(H)/mutants-kernel.sh $(TOP) $(MUTANTS)

# make sample: doc/sample/trace and doc/sample/stat, the data the README's
# commands try the tools on: the first 3 s (at most 256 KiB) of a make run
# guest's out/run/trace and out/run/stat, each line as the kernel wrote
# it (harness/mksample.pl).  It needs only those two files: run make run
# first, then commit doc/sample/.
sample:
	@perl $(H)/mksample.pl --seconds 3 --max_kib 256 $(OUT)/run/trace $(OUT)/run/stat $(TOP)/doc/sample

# make check: host checks, every configuration, the guest runs, one prove.
# Each line of the builds and guests is stamped with the seconds since
# they started: where the time goes, on any host.
check:
	@mkdir -p $(OUT)/check
	@start=$$(date +%s); \
		{ $(MAKE) --no-print-directory -j3 matrix series guests; echo $$? >$(OUT)/check-builds.rc; } 2>&1 | \
		perl -ne 'BEGIN { $$| = 1; $$t0 = time } printf "[%5d s] %s", time - $$t0, $$_'; \
		rc=$$(cat $(OUT)/check-builds.rc); \
		echo "harness: builds and guests took $$(( $$(date +%s) - start ))s"; exit $$rc
	@echo "harness: prove -j$(JOBS) -v --timer t/ (full log: out/check/prove.log)"
	@MT_TOP=$(TOP) prove -j$(JOBS) -v --timer t/ >$(OUT)/check/prove.log 2>&1; rc=$$?; \
		$(H)/check-summary.pl $(OUT)/check/prove.log; exit $$rc

# make bench: the kernel benchmark against ftrace and the peers (2 vCPUs,
# interleaved rounds, medians) and the analysis tools' benchmark;
# out/bench.txt.
# The per-event part runs a second time under -icount, where a guest
# nanosecond is one guest instruction: exact counts, whatever the host.
# Section 5 (the disabled cost) comes from make hook-sites, run first so
# that it describes the sources benchmarked; a failed check is reported
# in the table, not fatal here.
# The guests boot the bench initramfs: the peers (perf, trace-cmd,
# bpftrace) are measured in the same rounds, and checked once.
BENCH_TIMEOUT	?= 1800
# The bench initramfs needs more memory than the test one (about 300 MB
# unpacked, then bpftrace's LLVM at work).
BENCH_MEM	?= 2G
bench: kernel $(B)/initramfs-bench.cpio
	@$(MAKE) -s hook-sites || true
	@INITRD=$(B)/initramfs-bench.cpio MEM=$(BENCH_MEM) \
		$(H)/qemu-run.sh $(B) $(OUT)/bench bench $(BENCH_TIMEOUT) 2
	@INITRD=$(B)/initramfs-bench.cpio MEM=$(BENCH_MEM) QEMU_OPTS="-icount shift=0" \
		APPEND="MT_BENCH_PARTS=events MT_BENCH_ROUNDS=3" \
		$(H)/qemu-run.sh $(B) $(OUT)/bench-icount bench $(BENCH_TIMEOUT) 2
	@$(H)/bench-report.pl $(OUT)/bench/bench.raw \
		"$$(nproc) x $$(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1)" \
		$(OUT)/hook-sites.txt $(OUT)/bench-icount/bench.raw >$(OUT)/bench.txt
	@$(MAKE) -s bench-scale >/dev/null || true
	@cat $(OUT)/bench-scale.txt >>$(OUT)/bench.txt
	@$(H)/bench-tools.sh $(OUT)/bench-tools.txt >/dev/null
	@{ echo; cat $(OUT)/bench-tools.txt; } >>$(OUT)/bench.txt
	@cat $(OUT)/bench.txt

# make bench's scale series (section 9, harness/guest/scale.sh): the same
# measurements on 4, 16 and 64 CPUs under -icount (instruction counts),
# one guest each, then the 64-CPU storm without -icount;
# harness/bench-scale.pl judges them (out/bench-scale.txt): a guest that
# returns nothing is a MISS there that names it.  Every scale
# guest has the same CPU model (SCALE_CPU), the 64-CPU ones make
# check-scale's machine.  About 4 minutes on 2 cores.
SCALE_RUN	= INITRD=$(B)/initramfs.cpio MEM=2G $(H)/qemu-run.sh $(B)
bench-scale: kernel $(B)/initramfs.cpio
	@rm -f $(OUT)/bench-scale.txt
	@QEMU_OPTS="$(SCALE_CPU) -icount shift=0,sleep=off" APPEND="kunit.enable=0 MT_SCALE_PARTS=icount" \
		$(SCALE_RUN) $(OUT)/scale-4 scale $(BENCH_TIMEOUT) 4,sockets=1,cores=2,threads=2 || true
	@QEMU_OPTS="$(SCALE_CPU) -icount shift=0,sleep=off" APPEND="kunit.enable=0 MT_SCALE_PARTS=icount" \
		$(SCALE_RUN) $(OUT)/scale-16 scale $(BENCH_TIMEOUT) 16,sockets=1,cores=8,threads=2 || true
	@QEMU_OPTS="$(SCALE_CPU) $(SCALE_NUMA) -icount shift=0,sleep=off" \
		APPEND="kunit.enable=0 MT_SCALE_PARTS=icount" \
		$(SCALE_RUN) $(OUT)/scale-64 scale $(BENCH_TIMEOUT) $(SCALE_SMP) || true
	@QEMU_OPTS="$(SCALE_CPU) $(SCALE_NUMA)" APPEND="kunit.enable=0 MT_SCALE_PARTS=storm" \
		$(SCALE_RUN) $(OUT)/scale-storm scale $(BENCH_TIMEOUT) $(SCALE_SMP) || true
	@$(H)/bench-scale.pl $(OUT)/scale-4/scale.raw $(OUT)/scale-16/scale.raw \
		$(OUT)/scale-64/scale.raw $(OUT)/scale-storm/scale.raw >$(OUT)/bench-scale.txt; \
		rc=$$?; cat $(OUT)/bench-scale.txt; exit $$rc

# Speed and memory of the analysis tools on a generated 1M-event trace.
bench-tools: deps
	@mkdir -p $(OUT)
	@$(H)/bench-tools.sh $(OUT)/bench-tools.txt

# Mutation testing of the tools' tests: each mutant of harness/mutants.txt
# in a scratch copy (build/mutants/), its tests run there, 2 at a time;
# the score and the survivors in out/mutants.txt.  Host only, not part
# of make check.
mutants: deps
	@perl $(H)/mutants.pl --jobs 2 --out $(OUT)/mutants.txt --scratch $(B)/mutants

clean:
	rm -rf $(B) $(OUT)
