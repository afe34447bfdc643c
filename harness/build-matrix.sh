#!/bin/bash
# Compile, with W=1, the objects the series touches in each configuration
# of the matrix; one log per configuration in OUTDIR.  Warnings are
# judged by t/03-build-matrix.t.
#
#   build-matrix.sh TREE BUILD OUTDIR BASE-FRAGMENT [CONFIG...]
#
# CONFIG: on (both options), trace, stat, off (neither), nosmp.
set -uo pipefail
tree=$(realpath "$1") build=$(realpath "$2") out=$(realpath -m "$3") base=$(realpath "$4")
shift 4
configs=${*:-on trace stat off nosmp}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
objs="kernel/sched/core.o kernel/sched/fair.o kernel/sched/build_policy.o
      kernel/fork.o fs/exec.o"

fragment() {
	# Without SMP, drop what only SMP kernels have (and our options too).
	if [ "$1" = nosmp ]; then
		grep -v -e SNSC_ -e CONFIG_SMP= -e CONFIG_NR_CPUS -e CONFIG_HOTPLUG_CPU "$base"
	else
		grep -v SNSC_ "$base"
	fi
	case $1 in
	on)	printf 'CONFIG_SNSC_LITE_MIGRATION_TRACE=y\nCONFIG_SNSC_LITE_MIGRATION_STAT=y\nCONFIG_SNSC_LITE_MIGRATION_BENCH=y\n' ;;
	trace)	printf 'CONFIG_SNSC_LITE_MIGRATION_TRACE=y\n# CONFIG_SNSC_LITE_MIGRATION_STAT is not set\n' ;;
	stat)	printf '# CONFIG_SNSC_LITE_MIGRATION_TRACE is not set\nCONFIG_SNSC_LITE_MIGRATION_STAT=y\n' ;;
	off)	printf '# CONFIG_SNSC_LITE_MIGRATION_TRACE is not set\n# CONFIG_SNSC_LITE_MIGRATION_STAT is not set\n' ;;
	nosmp)	printf '# CONFIG_SMP is not set\n' ;;
	esac
}

status=0
for c in $configs; do
	dir=$build/matrix-$c
	log=$out/$c.log
	fragment "$c" >"$build/matrix-$c.config"
	want=$objs
	case $c in on|trace|stat) want="$want kernel/migrate_trace_lite.o" ;; esac
	echo "  MATRIX  $c: $(echo $want | wc -w) objects, W=1"
	if ! "$here/configure.sh" "$tree" "$dir" "$build/matrix-$c.config" >"$log" 2>&1 ||
	   ! make -s -C "$tree" O="$dir" ARCH=x86_64 -j"$(nproc)" prepare >>"$log" 2>&1 ||
	   ! make -C "$tree" O="$dir" ARCH=x86_64 -j"$(nproc)" W=1 $want >>"$log" 2>&1; then
		echo "harness: the $c configuration does not build; see $log" >&2
		status=1
	fi
	echo $want >"$out/$c.objs"
done
exit $status
