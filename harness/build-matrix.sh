#!/bin/bash
# Compile, with W=1, the objects the series touches in each configuration
# of the matrix; one log per configuration in OUTDIR.  Warnings are
# judged by t/03-build-matrix.t.
#
#   build-matrix.sh TREE BUILD OUTDIR BASE-FRAGMENT [CONFIG...]
#
# CONFIG: on (both options), trace, stat, off (neither), nosmp, full
# (on, with core scheduling, NUMA balancing and sched_ext), i386 (on,
# 32-bit), pristine (the unpatched tree BUILD/pristine, configured as off).
# trace, full and i386 also have loadable modules and build the kernel
# API's sample module (samples/migrate_trace_lite/, OUTDIR/CONFIG.samples);
# on, off and pristine, which t/07 compares instruction by instruction,
# are configured without them, as the base fragment is.
set -uo pipefail
# The builds below set their own -j: make's jobserver, which a recipe
# without '+' does not pass on, must not be looked for (its warning would
# read as a compiler warning to t/02).
unset MAKEFLAGS MFLAGS MAKELEVEL
tree=$(realpath "$1") build=$(realpath "$2") out=$(realpath -m "$3") base=$(realpath "$4")
shift 4
configs=${*:-on trace stat off nosmp full i386 pristine}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
objs="kernel/sched/core.o kernel/sched/fair.o kernel/sched/build_policy.o
      kernel/fork.o fs/exec.o"

fragment() {
	# Without SMP, drop what only SMP kernels have (and our options too).
	case $1 in
	nosmp)	grep -v -e SNSC_ -e CONFIG_SMP= -e CONFIG_NR_CPUS -e CONFIG_HOTPLUG_CPU \
		    -e CONFIG_SCHED_SMT -e CONFIG_SCHED_CORE -e NUMA "$base" ;;
	i386)	grep -v -e SNSC_ -e CONFIG_64BIT -e NUMA -e CONFIG_NR_CPUS "$base" ;;
	*)	grep -v SNSC_ "$base" ;;
	esac
	case $1 in
	on|full|i386)
		printf '%s\n' CONFIG_SNSC_LITE_MIGRATION_TRACE=y \
			CONFIG_SNSC_LITE_MIGRATION_STAT=y CONFIG_SNSC_LITE_MIGRATION_BENCH=y \
			CONFIG_SNSC_LITE_MIGRATION_TRACE_KUNIT_TEST=y ;;
	trace)	printf '%s\n' CONFIG_SNSC_LITE_MIGRATION_TRACE=y \
			'# CONFIG_SNSC_LITE_MIGRATION_STAT is not set' \
			CONFIG_SNSC_LITE_MIGRATION_TRACE_KUNIT_TEST=y ;;
	stat)	printf '%s\n' '# CONFIG_SNSC_LITE_MIGRATION_TRACE is not set' \
			CONFIG_SNSC_LITE_MIGRATION_STAT=y ;;
	off|pristine)
		printf '%s\n' '# CONFIG_SNSC_LITE_MIGRATION_TRACE is not set' \
			'# CONFIG_SNSC_LITE_MIGRATION_STAT is not set' ;;
	nosmp)	printf '%s\n' '# CONFIG_SMP is not set' ;;
	esac
	case $1 in
	trace|full|i386)
		printf '%s\n' CONFIG_MODULES=y CONFIG_SAMPLES=y \
			CONFIG_SAMPLE_MIGRATE_TRACE_LITE=m ;;
	esac
	case $1 in
	# Every hunk compiled: core scheduling, NUMA balancing, sched_ext.
	full)	printf '%s\n' CONFIG_SCHED_SMT=y CONFIG_SCHED_CORE=y CONFIG_NUMA=y \
			CONFIG_NUMA_BALANCING=y CONFIG_BPF_SYSCALL=y CONFIG_BPF_JIT=y \
			CONFIG_DEBUG_INFO_DWARF_TOOLCHAIN_DEFAULT=y CONFIG_DEBUG_INFO_BTF=y \
			CONFIG_SCHED_CLASS_EXT=y ;;
	i386)	printf '%s\n' '# CONFIG_64BIT is not set' ;;
	esac
}

status=0
for c in $configs; do
	dir=$build/matrix-$c
	log=$out/$c.log
	fragment "$c" >"$build/matrix-$c.config"
	arch=x86_64
	[ "$c" = i386 ] && arch=i386
	src=$tree
	[ "$c" = pristine ] && src=$build/pristine
	if ! ARCH=$arch "$here/configure.sh" "$src" "$dir" "$build/matrix-$c.config" >"$log" 2>&1; then
		echo "harness: the $c configuration does not configure; see $log" >&2
		status=1
	fi
	want="$objs $("$here/our-objects.sh" "$src" "$dir/.config")"
	# The sample module, where the configuration has it (not a hook site).
	samples=
	grep -qx 'CONFIG_SAMPLE_MIGRATE_TRACE_LITE=m' "$dir/.config" &&
		samples=samples/migrate_trace_lite/migrate_trace_lite_sample.o
	echo "  MATRIX  $c: $(echo $want $samples | wc -w) objects, W=1"
	if ! make -s -C "$src" O="$dir" ARCH=$arch -j"$(nproc)" prepare >>"$log" 2>&1 ||
	   ! make -C "$src" O="$dir" ARCH=$arch -j"$(nproc)" W=1 $want $samples >>"$log" 2>&1; then
		echo "harness: the $c configuration does not build; see $log" >&2
		status=1
	fi
	echo $want >"$out/$c.objs"
	echo $samples >"$out/$c.samples"
done
exit $status
