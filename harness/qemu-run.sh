#!/bin/bash
# Boot build/kernel in QEMU (TCG, 4 CPUs, serial console) to run one guest
# job; unpack the results the guest wrote into OUTDIR.  A guest that has
# not powered off after TIMEOUT seconds is killed.
#
#   [KERNEL=DIR] [INITRD=FILE] [QEMU=...] [MEM=...] [QEMU_OPTS=...] [APPEND=...] \
#	qemu-run.sh BUILD OUTDIR JOB TIMEOUT [SMP]
#
# KERNEL is the kernel build directory (default BUILD/kernel), INITRD the
# initramfs (default BUILD/initramfs.cpio), QEMU the emulator (default
# qemu-system-x86_64), MEM the memory (1G); QEMU_OPTS and APPEND add to its
# options and to the kernel's command line (NUMA nodes, a dump on oops).
# A job that ends in a panic on purpose writes its results first.
set -uo pipefail
build=$1 out=$2 job=$3 limit=$4 smp=${5:-4}
# Named after OUTDIR, which each guest target has its own of: two guests
# of one job (guest-only and guest-topo-only) may run at once.
img=$build/results-$(basename "$out").img
rm -rf "$out"
mkdir -p "$out"
rm -f "$img"
truncate -s 512M "$img"

# thread=single: QEMU 7.2's multi-threaded TCG can run a stale copy of
# code another vCPU has just patched; a static key flip then meets an int3
# the kernel already removed ("Oops: int3").  One TCG thread for all vCPUs
# keeps patched code coherent.
# tsc=reliable: under TCG the emulated TSC drifts against the HPET when
# the host is loaded, the clocksource watchdog then marks it unstable and
# sched_clock turns per-CPU; the trace's cross-CPU order needs it global.
# no_timer_check: on a loaded host the boot's check that the IO-APIC
# timer ticks can time out under TCG and panic ("IO-APIC + timer doesn't
# work!"), once seen in some 200 boots.
echo "harness: booting the guest for '$job' (log: $out/console.log, limit ${limit}s)"
SECONDS=0
timeout --foreground -k 10 "$limit" \
	${QEMU:-qemu-system-x86_64} -accel tcg,thread=single -smp "$smp" -m "${MEM:-1G}" -nodefaults \
		-display none -no-reboot -monitor none -serial stdio \
		-kernel "${KERNEL:-$build/kernel}/arch/x86/boot/bzImage" \
		-initrd "${INITRD:-$build/initramfs.cpio}" \
		-drive "file=$img,format=raw,if=virtio" ${QEMU_OPTS:-} \
		-append "console=ttyS0 panic=-1 quiet loglevel=4 tsc=reliable no_timer_check mtjob=$job ${APPEND:-}" \
		</dev/null >"$out/console.log" 2>&1
rc=$?
if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
	echo "harness: the guest hung: killed after ${limit}s; see $out/console.log" >&2
	# A job that ended before the guest hung (a reboot stuck behind a
	# CPU bring-up that never ended) wrote its results: keep them.
	if tar -xf "$img" -C "$out" 2>/dev/null && [ -f "$out/job.rc" ]; then
		echo "harness: its job had ended (exit $(cat "$out/job.rc")); results in $out" >&2
	fi
	exit 1
fi
if ! tar -xf "$img" -C "$out" 2>/dev/null || [ ! -f "$out/job.rc" ]; then
	echo "harness: the guest returned no results (qemu exit $rc, ${SECONDS}s); see $out/console.log" >&2
	tail -20 "$out/console.log" >&2
	exit 1
fi
rm -f "$img"
echo "harness: guest job '$job' finished (exit $(cat "$out/job.rc"), ${SECONDS}s); results in $out"
