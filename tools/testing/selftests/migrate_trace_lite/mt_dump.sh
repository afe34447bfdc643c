#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The dump on oops prints the newest N records of every CPU; its work must
# follow N, not the size of the buffers, or a panic with large buffers
# would spend seconds with interrupts off.  Fill every CPU's flight
# recorder at a small and at a large buffer_size_kb and time the dump's
# merge of the newest records (migration_trace/bench "dumpwalk N",
# CONFIG_SNSC_LITE_MIGRATION_BENCH): the large buffers may not take
# longer.

. "$(dirname "$0")/mt_lib.sh"

ktap_print_header
mt_require
if [ ! -w "$MT_DIR/bench" ]; then
	ktap_skip_all "no $MT_DIR/bench: CONFIG_SNSC_LITE_MIGRATION_BENCH is off"
	exit "$KSFT_SKIP"
fi
ktap_set_plan 4
NCPU=$(nproc)
NEWEST=64
SMALL=64 LARGE=${MT_DUMP_LARGE_KB:-4096}

# fill KB: a flight recorder of KB per CPU, each CPU's ring written over
# once and a little more by the benchmark's hook calls on that CPU.
fill() {
	mt_reset
	echo "$1" >"$MT_DIR/buffer_size_kb"
	echo 1 >"$MT_DIR/overwrite"
	# The benchmark's hook calls go only into a trace it started.
	echo "start mt" >"$MT_DIR/bench"
	calls=$(($1 * 1024 / 16 * 11 / 10))
	cpu=0
	while [ $cpu -lt "$NCPU" ]; do
		taskset -c $cpu sh -c "echo hook $calls >$MT_DIR/bench"
		cpu=$((cpu + 1))
	done
	mt_stop
}

# walk: the least of three timed merges, "NS LINES".
walk() {
	best=
	for i in 1 2 3; do
		echo "dumpwalk $NEWEST" >"$MT_DIR/bench"
		set -- $(cat "$MT_DIR/bench")
		[ -z "$best" ] || [ "$3" -lt "$best" ] && best=$3 lines=$4
	done
	echo "$best $lines"
}

fill $SMALL
set -- $(walk)
small_ns=$1 small_lines=$2
fill $LARGE
set -- $(walk)
large_ns=$1 large_lines=$2
large_logged=$(mt_stat_total entries)
ktap_print_msg "newest $NEWEST of $NCPU CPUs: ${SMALL} KiB buffers $small_ns ns," \
	"${LARGE} KiB buffers $large_ns ns"

check "each CPU overwrote its ${LARGE} KiB buffer" \
	"$([ "$large_logged" -gt $((NCPU * LARGE * 1024 / 16)) ] && echo yes)" yes
check "the merge has the newest $NEWEST records of every CPU, small buffers" \
	"$small_lines" $((NCPU * NEWEST))
check "the merge has the newest $NEWEST records of every CPU, large buffers" \
	"$large_lines" $((NCPU * NEWEST))
# The same work, apart from TCG's noise: the walk of a whole ring would be
# $((LARGE / SMALL)) times slower.
check "the dump of ${LARGE} KiB buffers takes no longer than of ${SMALL} KiB" \
	"$([ "$large_ns" -le $((2 * small_ns + 2000000)) ] && echo yes)" yes
mt_reset
echo 0 >"$MT_DIR/overwrite"
echo 1024 >"$MT_DIR/buffer_size_kb"
ktap_finished
