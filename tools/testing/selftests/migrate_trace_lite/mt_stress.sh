#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Reliability: permissions, hostile input beyond mt_debugfs.sh, CPU
# hotplug with both facilities on, a storm of migrations, control writes
# and readers, and the ftrace oracle over a stress window.

. "$(dirname "$0")/mt_lib.sh"

STRESS=${MT_STRESS_SECONDS:-30}
ktap_print_header
mt_require
if [ ! -d "$MS_DIR" ]; then
	ktap_skip_all "no $MS_DIR: kernel without CONFIG_SNSC_LITE_MIGRATION_STAT"
	exit "$KSFT_SKIP"
fi
ktap_set_plan 39
NCPU=$(nproc)
now() { cut -d. -f1 /proc/uptime; }
ms_reset() { echo 0 >"$MS_DIR/reset"; }

# ---- permissions --------------------------------------------------------
# debugfs is mounted 0700: let other users through it for this test, so
# that our files' own modes are what refuses them.
files="$MT_DIR/enable $MT_DIR/mark $MT_DIR/reset $MT_DIR/trace $MT_DIR/trace_pipe
       $MT_DIR/overwrite $MT_DIR/buffer_size_kb $MT_DIR/stats $MT_DIR/dump_on_oops
       $MS_DIR/enable $MS_DIR/period_msec $MS_DIR/reset $MS_DIR/stat"
debugfs_mode=$(stat -c %a /sys/kernel/debug)
mount -o remount,mode=755 /sys/kernel/debug
"$HELPER" as-user 65534 "$MT_DIR" "$MS_DIR" $files >"$TMPD/perm"
mount -o remount,mode="$debugfs_mode" /sys/kernel/debug
check "as user 65534, both directories open for reading (the control)" \
	"$(awk 'NR <= 2 { print $2 }' "$TMPD/perm" | tr '\n' ' ')" "ok ok "
check "as user 65534, all 13 files were tried" "$(awk 'NR > 2' "$TMPD/perm" | wc -l)" 13
check "as user 65534, every open of a file for reading and writing fails with EACCES" \
	"$(awk 'NR > 2 && ($2 != "EACCES" || $3 != "EACCES")' "$TMPD/perm")" ""
mt_reset
ms_reset
check "as root, the trace is still empty and stopped" \
	"$(mt_state):$(grep -vc '^#' "$MT_DIR/trace")" "0:0"

# ---- hostile input: each gets its errno and changes nothing ---------------
mt_start
check "reading write-only mark fails with EINVAL" "$("$HELPER" read-rw "$MT_DIR/mark")" EINVAL
check "reading write-only reset fails with EINVAL" "$("$HELPER" read-rw "$MT_DIR/reset")" EINVAL
check "a 1 MiB write to enable fails with EINVAL" \
	"$("$HELPER" write-garbage "$MT_DIR/enable" 1048576)" EINVAL
check "a write after a seek is one command: mark 5 at offset 100" \
	"$("$HELPER" write-at "$MT_DIR/mark" 100 5)" ok
check "a split write is two commands: marks 12 and 34" \
	"$("$HELPER" write-at "$MT_DIR/mark" split 1234)" "ok ok"
check "enable while enabled changes nothing" "$(wr "$MT_DIR/enable" 1):$(mt_state)" "ok:1"
mt_stop
exec 3<"$MT_DIR/trace"
check "reset while trace is open is refused (EBUSY)" "$(wr "$MT_DIR/reset" 0)" EBUSY
exec 3<&-
check "writing read-only trace fails with EINVAL" "$("$HELPER" write-rw "$MT_DIR/trace" 1)" EINVAL
mt_save "$TMPD/h"
check "exactly the three accepted marks were recorded" \
	"$(mt_events "$TMPD/h" mark | cut -d' ' -f2 | tr '\n' ' ')" \
	"0x00000005 0x0000000c 0x00000022 "
echo 1 >"$MS_DIR/enable"
check "reading write-only stat reset fails with EINVAL" \
	"$("$HELPER" read-rw "$MS_DIR/reset")" EINVAL
check "writing read-only stat fails with EINVAL" "$("$HELPER" write-rw "$MS_DIR/stat" 1)" EINVAL
check "period change while collecting: EBUSY, period kept" \
	"$(wr "$MS_DIR/period_msec" 5):$(cat "$MS_DIR/period_msec")" "EBUSY:1000"
check "disable while disabled changes nothing" \
	"$(wr "$MS_DIR/enable" 0):$(wr "$MS_DIR/enable" 0):$(cat "$MS_DIR/enable")" "ok:ok:0"
mt_reset
ms_reset

# ---- CPU hotplug -------------------------------------------------------------
HP=/sys/devices/system/cpu/cpu1/online
if [ "$NCPU" -ge 2 ] && [ -w "$HP" ]; then
	echo 100 >"$MS_DIR/period_msec"
	ftrace_start
	mt_start
	echo 1 >"$MS_DIR/enable"
	for i in 1 2 3; do taskset -c 1 sh -c 'while :; do :; done' & done
	sleep 0.5
	check "CPU 1 goes offline while tracing" "$(wr "$HP" 0)" ok
	sleep 0.5
	cat "$MS_DIR/stat" >"$TMPD/hp_stat_live"
	check "CPU 1 comes back online" "$(wr "$HP" 1)" ok
	kill $(jobs -p) 2>/dev/null
	wait
	sleep 0.3
	echo 0 >"$MS_DIR/enable"
	mt_stop
	ftrace_stop "$TMPD/hp_ftrace"
	mt_save "$TMPD/hp"
	cat "$MS_DIR/stat" >"$TMPD/hp_stat"
	check "its tasks were pushed away, cause __balance_push_cpu_stop" \
		"$(mt_migrations "$TMPD/hp" |
		   awk '$2 == 1 && $4 == "__balance_push_cpu_stop" { n++ }
			END { print (n > 0) ? "yes" : "none" }')" yes
	check "CPU 1's records from before the offlining are kept" \
		"$(awk '$2 == 1 && $6 == "start_sched_clock" { n++ }
			END { print n + 0 }' "$TMPD/hp")" 1
	check "every line of the trace is well formed" "$(mt_malformed "$TMPD/hp" | head -3)" ""
	check "no record was lost across the hotplug (dropped, overwritten)" \
		"$(sed -n 's/^# \(dropped\|overwritten\) //p' "$TMPD/hp" | tr '\n' ' ')" "0 0 "
	mt_ftrace_compare "$TMPD/hp" "$TMPD/hp_ftrace"
	ms_rows "$TMPD/hp_stat" | sort >"$TMPD/hs"
	mt_rows "$TMPD/hp" "$TMPD/hp_stat" | sort >"$TMPD/ht"
	check "the stat equals the trace, period by period, across the hotplug" \
		"$([ -s "$TMPD/hs" ] && cmp -s "$TMPD/hs" "$TMPD/ht" && echo same)" same
	n=$(grep -vc '^#' "$TMPD/hp_stat_live")
	grep -v '^#' "$TMPD/hp_stat_live" >"$TMPD/live_rows"
	grep -v '^#' "$TMPD/hp_stat" | head -n "$n" >"$TMPD/final_rows"
	check "the $n rows shown while CPU 1 was away did not change later" \
		"$([ "$n" -gt 0 ] && cmp -s "$TMPD/live_rows" "$TMPD/final_rows" && echo same)" same
	mt_reset
	ms_reset
	echo 1000 >"$MS_DIR/period_msec"
else
	for i in 1 2 3 4 5 6 7 8 9 10; do ktap_test_skip "no CPU 1 to take offline"; done
fi

# ---- storm: migrations, control writes and readers at once ------------------
ktap_print_msg "storm for $STRESS s"
mkdir -p "$TMPD/reads"
end=$(( $(now) + STRESS ))
"$HELPER" mixed "$STRESS" /bin/true &
# Each toggler keeps the trace off for a while too: a read of trace gets
# EBUSY while it runs, and the two togglers' off times must overlap for
# the readers below to get in (at 32 CPUs on a loaded host, off for a
# moment only, they did not once).
for c in 1 2; do
	( while [ "$(now)" -lt "$end" ]; do
		echo 1 >"$MT_DIR/enable"; echo $$ >"$MT_DIR/mark"
		echo 0x$c$c >"$MT_DIR/mark"; usleep 20000
		echo 0 >"$MT_DIR/enable"; echo 0 >"$MT_DIR/reset"; usleep 20000
	done ) 2>/dev/null &
done
( while [ "$(now)" -lt "$end" ]; do
	echo 10 >"$MS_DIR/period_msec"; echo 1 >"$MS_DIR/enable"; usleep 50000
	cat "$MS_DIR/stat" >/dev/null; echo 0 >"$MS_DIR/enable"; echo 0 >"$MS_DIR/reset"
done ) 2>/dev/null &
for r in 1 2; do
	( i=0; while [ "$(now)" -lt "$end" ]; do
		i=$((i + 1))
		f=$TMPD/reads/t.$r.$i
		cat "$MT_DIR/trace" >"$f" 2>/dev/null || rm -f "$f"
		cat "$MS_DIR/stat" >"$TMPD/reads/s.$r.$i" 2>/dev/null || rm -f "$TMPD/reads/s.$r.$i"
	done ) &
done
# The storm's pids, taken here: a subshell cannot list its parent's jobs.
storm=$(jobs -p)
grace=$((STRESS + ${MT_STRESS_GRACE:-90}))
( sleep $grace; echo hung >"$TMPD/hung"; kill -9 $storm ) 2>/dev/null &
watchdog=$!
for j in $storm; do wait "$j"; done
kill "$watchdog" 2>/dev/null
check "every storm process ended in time (no hang)" "$([ -e "$TMPD/hung" ] && echo hung)" ""
nt=$(ls "$TMPD/reads" | grep -c '^t\.')
ns=$(ls "$TMPD/reads" | grep -c '^s\.')
ktap_print_msg "$nt trace reads, $ns stat reads"
check "trace reads succeeded during the storm" "$([ "$nt" -gt 0 ] && echo yes)" yes
bad=0
for f in "$TMPD"/reads/t.*; do [ -z "$(mt_malformed "$f" | head -1)" ] || bad=$((bad + 1)); done
check "no trace read has a torn or partial record" "$bad" 0
# Tasks come and go all the time here, also while a trace starts.
bad=0
for f in "$TMPD"/reads/t.*; do
	u=$(mt_unnamed "$f")
	[ -z "$u" ] && continue
	ktap_print_msg "$(basename "$f"): pid $u moves without a name"
	bad=$((bad + 1))
done
check "every trace read names every task it moves or that marks" "$bad" 0
bad=0
for f in "$TMPD"/reads/s.*; do
	[ -z "$(ms_bad_sums "$f" | head -1)" ] || bad=$((bad + 1))
done
check "every stat read is consistent (sums of causes and of reasons)" "$bad" 0
# Clamps: each read's header counts the records its rings logged at the
# time of the one before (a CPU's clock stepped back) and the lines a
# trace_pipe reader handed out so; its body has the rings' clamped lines.
# shellcheck disable=SC2046
set -- $(mt_clamped "$TMPD"/reads/t.*)
ktap_print_msg "clamped: $1 (the $nt reads' headers, summed; clamped lines $2)"
check "no trace read of the storm has a clamp (headers, lines)" "$1:$2" 0:0
# Every trace read of the storm, for the host's parser (t/37).
if [ -n "${MT_KEEP:-}" ]; then
	mkdir -p "$MT_KEEP/stress"
	cp "$TMPD"/reads/t.* "$MT_KEEP/stress/" 2>/dev/null
fi
mt_reset
ms_reset
echo 1000 >"$MS_DIR/period_msec"

# ---- oracle: a stress window traced by ftrace, mt and mstat at once ------------
if [ -d "$TRACING/events/sched/sched_migrate_task" ]; then
	echo 100 >"$MS_DIR/period_msec"
	# Its own size, whatever an earlier test left.
	echo 1024 >"$MT_DIR/buffer_size_kb"
	ftrace_start
	mt_start
	echo 1 >"$MS_DIR/enable"
	"$HELPER" mixed 5 /bin/true &
	( for i in $(seq 50); do cat "$MS_DIR/stat" >/dev/null; usleep 100000; done ) &
	wait
	echo 0 >"$MS_DIR/enable"
	mt_stop
	ftrace_stop "$TMPD/oracle_ftrace"
	mt_save "$TMPD/oracle"
	cat "$MS_DIR/stat" >"$TMPD/oracle_stat"
	check "oracle window: nothing dropped" "$(sed -n 's/^# dropped //p' "$TMPD/oracle")" 0
	# What a drop would need to be understood: the size, each CPU's loss.
	grep -q '^# dropped 0$' "$TMPD/oracle" ||
		ktap_print_msg "$(grep -E '^# (buffer_size_kb|cpu_lost|overwrite) ' \
			"$TMPD/oracle" | tr '\n' ' ')"
	check "oracle window: every task moved is named" "$(mt_unnamed "$TMPD/oracle")" ""
	# shellcheck disable=SC2046
	set -- $(mt_clamped "$TMPD/oracle")
	ktap_print_msg "clamped: $1 in the oracle window (clamped lines $2)"
	check "oracle window: nothing clamped (header, lines)" "$1:$2" 0:0
	mt_ftrace_compare "$TMPD/oracle" "$TMPD/oracle_ftrace"
	ms_rows_by_cause "$TMPD/oracle_stat" | sort >"$TMPD/os"
	mt_rows_by_cause "$TMPD/oracle" "$TMPD/oracle_stat" | sort >"$TMPD/ot"
	check "oracle window: the stat equals the trace, period by period" \
		"$(cmp -s "$TMPD/os" "$TMPD/ot" && [ -s "$TMPD/os" ] && echo same)" same
	mt_reset
	ms_reset
	echo 1000 >"$MS_DIR/period_msec"
else
	for i in 1 2 3 4 5 6; do ktap_test_skip "no ftrace sched_migrate_task event"; done
fi

ktap_finished
