#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# migration_trace/: modes, documented behaviour of every file, refusals.

. "$(dirname "$0")/mt_lib.sh"

ktap_print_header
mt_require
ktap_set_plan 67

for f in enable:600 mark:200 reset:200 trace:400; do
	check "mode of ${f%%:*} is ${f##*:}" "$(stat -c %a "$MT_DIR/${f%%:*}")" "${f##*:}"
done

mt_reset
check "enable reads 0 after reset" "$(mt_state)" 0
check "start" "$(wr "$MT_DIR/enable" 1)" ok
check "enable reads 1 while tracing" "$(mt_state)" 1
check "start while tracing is a no-op" "$(wr "$MT_DIR/enable" 1)" ok
check "trace cannot be read while tracing" "$("$HELPER" read "$MT_DIR/trace")" EBUSY
check "decimal mark" "$(wr "$MT_DIR/mark" 77)" ok
check "hex mark" "$(wr "$MT_DIR/mark" 0xDEADbeef)" ok
# A mark is an unsigned long: 32 or 64 bits, as the machine's word.
machine=$(uname -m)
case $machine in
x86_64|aarch64|ppc64*|s390x|riscv64|mips64*|sparc64|loongarch64) long_bits=64 ;;
*) long_bits=32 ;;
esac
if [ $long_bits = 32 ]; then
	LARGEST=4294967295 TOO_LARGE="4294967296 0x100000000" LARGEST_HEX=0xffffffff
else
	LARGEST=18446744073709551615 LARGEST_HEX=0xffffffffffffffff
	TOO_LARGE="18446744073709551616 0x10000000000000000"
fi
check "largest mark" "$(wr "$MT_DIR/mark" $LARGEST)" ok
for bad in "" abc -1 0x 0x1g $TOO_LARGE "1 2"; do
	check "mark '$bad' is refused" "$(wr "$MT_DIR/mark" "$bad")" EINVAL
done
check "mark of 4 KiB garbage is refused" "$("$HELPER" write-garbage "$MT_DIR/mark" 4096)" EINVAL
check "mark with an embedded NUL is refused" "$("$HELPER" write-nul "$MT_DIR/mark" 5)" EINVAL
for bad in "" 2 -1 abc 01x 99999999999999999999999; do
	check "enable '$bad' is refused while tracing" "$(wr "$MT_DIR/enable" "$bad")" EINVAL
done
check "enable of 4 KiB garbage is refused" "$("$HELPER" write-garbage "$MT_DIR/enable" 4096)" EINVAL
check "tracing is still on after refused writes" "$(mt_state)" 1
check "stop" "$(wr "$MT_DIR/enable" 0)" ok
check "stop while stopped is a no-op" "$(wr "$MT_DIR/enable" 0)" ok
check "enable reads 0 after stop" "$(mt_state)" 0

mt_save "$TMPD/t1"
check "header names format 1.x" "$(sed -n 's/^# version \(1\)\..*/\1/p' "$TMPD/t1")" 1
check "header has nr_cpus and ts_field" \
	"$(grep -c -e '^# nr_cpus [0-9]' -e '^# ts_field 1$' "$TMPD/t1")" 2
check "only the three good marks were recorded" \
	"$(mt_events "$TMPD/t1" mark | cut -d' ' -f2 | tr '\n' ' ')" \
	"0x0000004d 0xdeadbeef $LARGEST_HEX "
check "every line is well formed" "$(mt_malformed "$TMPD/t1" | head -3)" ""

check "start with a non-empty buffer is refused" "$(wr "$MT_DIR/enable" 1)" EBUSY
check "still stopped after the refused start" "$(mt_state)" 0
check "mark while stopped is refused" "$(wr "$MT_DIR/mark" 1)" EINVAL
for bad in 1 abc ""; do
	check "reset '$bad' is refused" "$(wr "$MT_DIR/reset" "$bad")" EINVAL
done
mt_save "$TMPD/t2"
check "refused resets kept the trace" "$(cmp -s "$TMPD/t1" "$TMPD/t2" && echo same)" same

check "reset" "$(wr "$MT_DIR/reset" 0)" ok
mt_save "$TMPD/t3"
check "after reset the trace has only its header" "$(grep -vc '^#' "$TMPD/t3")" 0
mt_start
wr "$MT_DIR/reset" 0 >/dev/null
check "reset while tracing stops the trace" "$(mt_state)" 0
mt_save "$TMPD/t4"
check "reset while tracing empties the trace" "$(grep -vc '^#' "$TMPD/t4")" 0

# The benchmark file, where CONFIG_SNSC_LITE_MIGRATION_BENCH built it.
# The dump on oops: at most 10000 records per CPU; bad values change nothing.
old=$(cat "$MT_DIR/dump_on_oops")
check "dump_on_oops takes 10000" "$(wr "$MT_DIR/dump_on_oops" 10000)" ok
for bad in 10001 abc -1; do
	check "dump_on_oops '$bad' is refused" "$(wr "$MT_DIR/dump_on_oops" "$bad")" EINVAL
done
check "dump_on_oops still 10000" "$(cat "$MT_DIR/dump_on_oops")" 10000
echo "$old" >"$MT_DIR/dump_on_oops"

if [ -e "$MT_DIR/bench" ]; then
	check "bench: mode 600" "$(stat -c %a "$MT_DIR/bench")" 600
	check "bench: 'hook 1000' runs" "$(wr "$MT_DIR/bench" "hook 1000")" ok
	check "bench: reports variant, calls and nanoseconds" \
		"$(sed -n 's/^hook 1000 [0-9][0-9]*$/yes/p' "$MT_DIR/bench")" yes
	for bad in "hook 0" "spin 10" "start all"; do
		check "bench: '$bad' is refused" "$(wr "$MT_DIR/bench" "$bad")" EINVAL
	done
	# Its made-up moves never go into a user's trace or statistics.
	mt_start
	check "bench: 'hook' is refused while a user's trace runs" \
		"$(wr "$MT_DIR/bench" "hook 1000")" EBUSY
	mt_stop
	check "bench: 'start mt' is refused on a trace that ran" \
		"$(wr "$MT_DIR/bench" "start mt")" EBUSY
	mt_reset
	echo 1 >"$MS_DIR/enable"
	check "bench: 'hook' is refused while the statistics collect" \
		"$(wr "$MT_DIR/bench" "hook 1000")" EBUSY
	echo 0 >"$MS_DIR/enable"
	echo 0 >"$MS_DIR/reset"
	check "bench: 'start both' and 'hook' into its own" \
		"$(wr "$MT_DIR/bench" "start both"):$(wr "$MT_DIR/bench" "hook 1000")" ok:ok
	mt_stop
	mt_save "$TMPD/bench"
	check "bench: its own trace holds the moves" \
		"$([ "$(mt_migrations "$TMPD/bench" | wc -l)" -ge 1000 ] && echo yes)" yes
	echo 0 >"$MS_DIR/enable"
	echo 0 >"$MS_DIR/reset"
	mt_reset
	mt_start
	check "bench: 'hook' is refused in a user's trace begun after its own" \
		"$(wr "$MT_DIR/bench" "hook 1000")" EBUSY
	mt_stop
	mt_reset
	# Nor into a user's consumer of sched_migrate_reason: only
	# "hook-event", the benchmark's own rows, feeds one.
	I=$TRACING/instances/mt_debugfs_bench
	mkdir "$I"
	echo 1 >"$I/events/sched/sched_migrate_reason/enable"
	check "bench: 'hook' is refused while sched_migrate_reason has a consumer" \
		"$(wr "$MT_DIR/bench" "hook 1000")" EBUSY
	r=$(wr "$MT_DIR/bench" "hook-event 1000")
	n=$(grep -c ' sched_migrate_reason: ' "$I/trace")
	check "bench: 'hook-event' feeds it its 1000 moves" \
		"$r:$([ "$n" -ge 1000 ] && echo yes)" ok:yes
	echo 0 >"$I/events/sched/sched_migrate_reason/enable"
	rmdir "$I"
else
	for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14; do
		ktap_test_skip "no $MT_DIR/bench: CONFIG_SNSC_LITE_MIGRATION_BENCH is off"
	done
fi

ktap_finished
